#include "regress/suite.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "util/input_file.hpp"
#include "util/output_tree.hpp"
#include "util/text.hpp"

namespace npugen::regress {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void bad(const std::string& file, const YAML::Node& at, const std::string& what) {
  const std::string m = fmt::format("{}:{}: error: {}", file, at.Mark().line + 1, what);
  std::fprintf(stderr, "%s\n", m.c_str());
  throw SuiteError(m);
}

bool wildcard(const std::string& name, const std::string& p) {
  size_t n = 0, q = 0, star = std::string::npos, back = 0;
  while (n < name.size()) {
    if (q < p.size() && (p[q] == '?' || p[q] == name[n])) {
      ++n, ++q;
    } else if (q < p.size() && p[q] == '*') {
      star = q++, back = n;
    } else if (star != std::string::npos) {
      q = star + 1, n = ++back;
    } else {
      return false;
    }
  }
  while (q < p.size() && p[q] == '*') ++q;
  return q == p.size();
}

std::vector<std::string> strings(const std::string& file, const YAML::Node& n,
                                 const std::string& what) {
  std::vector<std::string> out;
  if (n.IsScalar()) return {n.as<std::string>()};
  if (!n.IsSequence() || n.size() == 0) bad(file, n, what + ": a name or a list of names");
  for (const auto& v : n) {
    if (!v.IsScalar()) bad(file, v, what + ": a name or a list of names");
    out.push_back(v.as<std::string>());
  }
  return out;
}

// A path in the suite, relative to the suite's folder; it must exist.
std::string existing(const std::string& file, const YAML::Node& n, const fs::path& dir) {
  if (!n.IsScalar()) bad(file, n, "a file name");
  const fs::path p = fs::path(n.as<std::string>()).is_absolute() ? fs::path(n.as<std::string>())
                                                                 : dir / n.as<std::string>();
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) bad(file, n, fmt::format("no file '{}'", p.string()));
  return p.lexically_normal().string();
}

}  // namespace

std::string kind_name(JobKind k) {
  switch (k) {
    case JobKind::kSim:
      return "sim";
    case JobKind::kLint:
      return "lint";
    case JobKind::kNetwork:
      return "network";
    case JobKind::kTiming:
      return "timing";
  }
  return "?";
}

JobKind kind_of(const std::string& name) {
  for (const JobKind k : {JobKind::kSim, JobKind::kLint, JobKind::kNetwork, JobKind::kTiming}) {
    if (kind_name(k) == name) return k;
  }
  throw std::invalid_argument("unknown job kind '" + name + "'");
}

std::string Job::variant() const {
  switch (kind) {
    case JobKind::kLint:
      return "lint";
    case JobKind::kTiming:
      return "timing";
    case JobKind::kNetwork:
      return fs::path(network).stem().string();
    case JobKind::kSim:
      break;
  }
  return fmt::format("seed {}", seed);
}

std::string Job::name() const {
  switch (kind) {
    case JobKind::kLint:
      return fmt::format("{}.{}.lint", design, block);
    case JobKind::kTiming:
      return fmt::format("{}.{}.timing", design, block);
    case JobKind::kNetwork:
      return fmt::format("{}.{}", design, fs::path(network).stem().string());
    case JobKind::kSim:
      break;
  }
  return fmt::format("{}.{}.seed{}", design, block, seed);
}

std::vector<std::string> glob_files(const fs::path& dir, const std::string& pattern) {
  const fs::path full = fs::path(pattern).is_absolute() ? fs::path(pattern) : dir / pattern;
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path parent = full.parent_path().empty() ? fs::path(".") : full.parent_path();
  if (!fs::is_directory(parent, ec)) return out;
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file(ec) && (ext == ".yaml" || ext == ".yml") &&
        wildcard(e.path().filename().string(), full.filename().string()))
      out.push_back(e.path().lexically_normal().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Job> read_suite(const std::string& file, const std::string& tier) {
  YAML::Node root;
  try {
    root = YAML::Load(util::read_input_file(file));  // a regular file: never blocks on a FIFO
  } catch (const util::InputError& e) {
    const std::string m = fmt::format("{}: error: {}", file, e.what());
    std::fprintf(stderr, "%s\n", m.c_str());
    throw SuiteError(m);
  } catch (const YAML::Exception& e) {
    const std::string m = fmt::format("{}:{}: error: {}", file, e.mark.line + 1, e.msg);
    std::fprintf(stderr, "%s\n", m.c_str());
    throw SuiteError(m);
  }
  if (!root.IsMap()) bad(file, root, "a suite is a map with the key tiers");
  for (const auto& kv : root) {
    if (kv.first.as<std::string>() != "tiers") {
      bad(file, kv.first,
          fmt::format("unknown key '{}' (a suite has tiers)", kv.first.as<std::string>()));
    }
  }
  const YAML::Node tiers = root["tiers"];
  if (!tiers || !tiers.IsMap()) bad(file, root, "tiers: a map of tier names to lists of entries");
  const YAML::Node entries = tiers[tier];
  if (!entries) {
    std::string names;
    for (const auto& kv : tiers) names += (names.empty() ? "" : ", ") + kv.first.as<std::string>();
    bad(file, tiers, fmt::format("no tier '{}' (the suite has {})", tier, names));
  }
  if (!entries.IsSequence()) bad(file, entries, fmt::format("tier {}: a list of entries", tier));
  const fs::path dir = fs::path(file).parent_path();
  std::vector<Job> jobs;
  std::map<std::string, std::string> names;  // design -> its configuration
  try {
    for (const YAML::Node& e : entries) {
      if (!e.IsMap())
        bad(file, e, "an entry is a map (configs, blocks, networks, timing, seeds, cycles)");
      for (const auto& kv : e) {
        const std::string key = kv.first.as<std::string>();
        static const std::set<std::string> known = {"configs", "blocks", "networks",
                                                    "timing",  "seeds",  "cycles"};
        if (!known.contains(key)) {
          bad(file, kv.first,
              fmt::format("unknown key '{}' (an entry has configs, blocks, networks, timing, "
                          "seeds and cycles)",
                          key));
        }
      }
      if (!e["configs"]) bad(file, e, "an entry needs configs");
      if (!e["blocks"] && !e["networks"] && !e["timing"])
        bad(file, e, "an entry needs blocks, networks or timing");
      // configs: a path or glob, an inline configuration (a map), or a list of them.
      struct Config {
        std::string path, yaml, design;
        YAML::Node at;
      };
      std::vector<Config> configs;
      const YAML::Node cs = e["configs"];
      const std::vector<YAML::Node> items = cs.IsSequence()
                                                ? std::vector<YAML::Node>(cs.begin(), cs.end())
                                                : std::vector<YAML::Node>{cs};
      if (items.empty()) bad(file, cs, "configs: a path, a glob, a configuration, or a list");
      for (const YAML::Node& c : items) {
        if (c.IsMap()) {
          const YAML::Node name =
              c["design"] && c["design"].IsMap() ? c["design"]["name"] : YAML::Node();
          if (!name || !name.IsScalar())
            bad(file, c, "an inline configuration needs design.name (it names its design)");
          YAML::Emitter out;
          out << c;
          configs.push_back(
              {"", fmt::format("# from {} line {}\n{}\n", file, c.Mark().line + 1, out.c_str()),
               name.as<std::string>(), c});
        } else if (c.IsScalar()) {
          const auto found = glob_files(dir, c.as<std::string>());
          if (found.empty()) {
            bad(file, c,
                fmt::format("'{}' matches no configuration file (.yaml or .yml)",
                            c.as<std::string>()));
          }
          for (const auto& f : found) configs.push_back({f, "", fs::path(f).stem().string(), c});
        } else {
          bad(file, c, "configs: a path, a glob, a configuration, or a list");
        }
      }
      // One design name, one configuration: the work folder keeps designs by name.
      for (const Config& c : configs) {
        const std::string where =
            c.path.empty() ? fmt::format("the inline configuration at line {}, column {}",
                                         c.at.Mark().line + 1, c.at.Mark().column + 1)
                           : c.path;
        const auto [it, fresh] = names.emplace(c.design, where);
        if (!fresh && it->second != where) {
          bad(file, c.at,
              fmt::format("design '{}' ({}) is also {}: give each configuration its own name",
                          c.design, where, it->second));
        }
      }
      std::vector<std::string> blocks, timed;
      if (e["blocks"]) blocks = strings(file, e["blocks"], "blocks");
      // timing: blocks each synthesized and timed at the design's clock (npugen timing).
      if (e["timing"]) timed = strings(file, e["timing"], "timing");
      std::vector<uint64_t> seeds = {1};
      if (const YAML::Node s = e["seeds"]) {
        if (!s.IsSequence() || s.size() == 0) bad(file, s, "seeds: a list of seeds");
        seeds.clear();
        for (const auto& v : s) {
          try {
            seeds.push_back(v.as<uint64_t>());
          } catch (const YAML::Exception&) {
            bad(file, v, "a seed is a non-negative integer");
          }
        }
      }
      uint64_t cycles = 0;
      if (const YAML::Node c = e["cycles"]) {
        try {
          cycles = c.as<uint64_t>();
        } catch (const YAML::Exception&) {
          bad(file, c, "cycles: a positive integer");
        }
        if (cycles == 0) bad(file, c, "cycles: a positive integer");
      }
      // networks: a list of {network, input, labels}: each runs once on each configuration.
      std::vector<Job> networks;
      if (const YAML::Node nets = e["networks"]) {
        if (!nets.IsSequence() || nets.size() == 0)
          bad(file, nets, "networks: a list of {network, input, labels}");
        for (const auto& n : nets) {
          if (!n.IsMap()) bad(file, n, "a network is a map {network, input, labels}");
          for (const auto& kv : n) {
            const std::string key = kv.first.as<std::string>();
            if (key != "network" && key != "input" && key != "labels") {
              bad(file, kv.first,
                  fmt::format("unknown key '{}' (a network has network, input and labels)", key));
            }
          }
          if (!n["network"] || !n["input"]) bad(file, n, "a network needs network and input");
          Job j;
          j.kind = JobKind::kNetwork;
          j.block = "npu";
          j.block_line = n.Mark().line + 1;
          j.network = existing(file, n["network"], dir);
          j.input = existing(file, n["input"], dir);
          if (n["labels"]) j.labels = existing(file, n["labels"], dir);
          networks.push_back(j);
        }
      }
      for (const Config& c : configs) {
        for (const std::string& b : blocks) {
          for (const uint64_t s : seeds) {
            Job j;
            j.config = c.path, j.inline_config = c.yaml, j.design = c.design;
            j.block = b, j.seed = s, j.cycles = cycles;
            j.config_line = c.at.Mark().line + 1, j.block_line = e["blocks"].Mark().line + 1;
            jobs.push_back(j);
          }
        }
        for (Job j : networks) {
          j.config = c.path, j.inline_config = c.yaml, j.design = c.design;
          j.config_line = c.at.Mark().line + 1;
          jobs.push_back(j);
        }
        for (const std::string& b : timed) {
          Job j;
          j.kind = JobKind::kTiming;
          j.config = c.path, j.inline_config = c.yaml, j.design = c.design, j.block = b;
          j.config_line = c.at.Mark().line + 1, j.block_line = e["timing"].Mark().line + 1;
          jobs.push_back(j);
        }
      }
    }
  } catch (const YAML::Exception& e) {  // a value of the wrong kind where a scalar was read
    const std::string m = fmt::format("{}:{}: error: {}", file, e.mark.line + 1, e.msg);
    std::fprintf(stderr, "%s\n", m.c_str());
    throw SuiteError(m);
  }
  // Every job's name is its log's and its outputs' name: unique within the tier.
  std::map<std::string, std::string> seen;
  for (const Job& j : jobs) {
    const std::string what = j.kind == JobKind::kNetwork ? j.network : j.config;
    if (const auto [it, fresh] = seen.emplace(j.name(), what); !fresh) {
      bad(file, entries,
          fmt::format("job {} is listed twice in tier {} ({} and {}): give each its own seed, "
                      "network or configuration name",
                      j.name(), tier, it->second, what));
    }
  }
  if (jobs.empty()) bad(file, entries, fmt::format("tier {} has no jobs", tier));
  return jobs;
}

void materialize_inline(std::vector<Job>& jobs, const fs::path& dir) {
  for (Job& j : jobs) {
    if (j.inline_config.empty()) continue;
    j.config = (dir / (j.design + ".yaml")).string();
    fs::create_directories(dir);
    util::write_file_atomically(j.config, j.inline_config);
  }
}

std::pair<unsigned, unsigned> parse_shard(const std::string& text) {
  // Digits, a slash, digits: nothing else (no spaces, no signs), each at most 9 digits.
  const size_t slash = text.find('/');
  auto number = [&](size_t from, size_t to) -> unsigned {
    if (to <= from || to - from > 9) return 0;
    unsigned v = 0;
    for (size_t k = from; k < to; ++k) {
      if (text[k] < '0' || text[k] > '9') return 0;
      v = v * 10 + static_cast<unsigned>(text[k] - '0');
    }
    return v;
  };
  const unsigned i = slash == std::string::npos ? 0 : number(0, slash);
  const unsigned n = slash == std::string::npos ? 0 : number(slash + 1, text.size());
  if (n == 0 || i == 0 || i > n) {
    throw SuiteError(
        fmt::format("--shard '{}': expected i/n with 1 <= i <= n", util::shorten(text)));
  }
  return {i, n};
}

std::vector<Job> shard_of(const std::vector<Job>& jobs, std::pair<unsigned, unsigned> shard) {
  std::vector<Job> out;
  for (size_t k = 0; k < jobs.size(); ++k) {
    if (k % shard.second == shard.first - 1) out.push_back(jobs[k]);
  }
  return out;
}

}  // namespace npugen::regress
