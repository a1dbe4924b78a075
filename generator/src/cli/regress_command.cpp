// npugen regress (issue 17, docs/regress.md): a suite of co-simulation jobs in tiers, run in
// a local pool, with results.json, JUnit XML and a summary table.
#include <fmt/format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "blocks/block.hpp"
#include "blocks/random_config.hpp"
#include "cli/commands.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"

namespace npugen::cli {
namespace {

namespace fs = std::filesystem;
constexpr const char* kRegressMarker = ".npugen-regress";

struct Job {
  std::string config;  ///< the configuration file
  std::string block;
  uint64_t seed = 1;
  uint64_t cycles = 0;  ///< 0: the configuration's
  std::string design;   ///< the design's folder name (the config file's stem)
  bool lint = false;    ///< Verilator's lint of the block's RTL instead of a co-simulation
};

struct Result {
  Job job;
  std::string status;  ///< pass, fail, timeout, crash
  std::string config_hash, message, reproduce, log;
  uint64_t cycles = 0;
  double seconds = 0;
};

[[noreturn]] void bad(const std::string& file, const YAML::Node& at, const std::string& what) {
  std::fprintf(stderr, "%s:%d: error: %s\n", file.c_str(), at.Mark().line + 1, what.c_str());
  throw CommandError(kBadInput, "");
}

// Files matching a glob (* and ? within one path part), relative to `dir`, sorted.
std::vector<std::string> glob_files(const fs::path& dir, const std::string& pattern) {
  auto match = [](const std::string& name, const std::string& p) {
    // Iterative wildcard match.
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
  };
  const fs::path full = fs::path(pattern).is_absolute() ? fs::path(pattern) : dir / pattern;
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path parent = full.parent_path();
  if (!fs::is_directory(parent, ec)) return out;
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    if (e.is_regular_file(ec) && match(e.path().filename().string(), full.filename().string())) {
      out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The jobs of a tier of the suite file; every problem names the file and line.
std::vector<Job> read_suite(const std::string& file, const std::string& tier) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::Exception& e) {
    std::fprintf(stderr, "%s:%d: error: %s\n", file.c_str(), e.mark.line + 1, e.msg.c_str());
    throw CommandError(kBadInput, "");
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
  for (const YAML::Node& e : entries) {
    if (!e.IsMap()) bad(file, e, "an entry is a map (configs, blocks, seeds, cycles)");
    for (const auto& kv : e) {
      const std::string key = kv.first.as<std::string>();
      if (key != "configs" && key != "blocks" && key != "seeds" && key != "cycles") {
        bad(file, kv.first,
            fmt::format("unknown key '{}' (an entry has configs, blocks, seeds "
                        "and cycles)",
                        key));
      }
    }
    if (!e["configs"] || !e["blocks"]) bad(file, e, "an entry needs configs and blocks");
    std::vector<std::string> patterns;
    if (e["configs"].IsSequence()) {
      for (const auto& p : e["configs"]) patterns.push_back(p.as<std::string>());
    } else {
      patterns.push_back(e["configs"].as<std::string>());
    }
    std::vector<std::string> configs;
    for (const std::string& p : patterns) {
      const auto found = glob_files(dir, p);
      if (found.empty()) bad(file, e["configs"], fmt::format("'{}' matches no file", p));
      configs.insert(configs.end(), found.begin(), found.end());
    }
    std::vector<std::string> blocks;
    if (!e["blocks"].IsSequence() || e["blocks"].size() == 0) {
      bad(file, e["blocks"], "blocks: a list of block names");
    }
    for (const auto& b : e["blocks"]) blocks.push_back(b.as<std::string>());
    std::vector<uint64_t> seeds = {1};
    if (const YAML::Node s = e["seeds"]) {
      if (!s.IsSequence() || s.size() == 0) bad(file, s, "seeds: a list of seeds");
      seeds.clear();
      for (const auto& v : s) {
        try {
          seeds.push_back(v.as<uint64_t>());
        } catch (const YAML::Exception&) {
          bad(file, v, fmt::format("seed '{}' is not a non-negative integer", v.as<std::string>()));
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
    for (const std::string& c : configs) {
      for (const std::string& b : blocks) {
        for (const uint64_t s : seeds)
          jobs.push_back({c, b, s, cycles, fs::path(c).stem().string()});
      }
    }
  }
  if (jobs.empty()) bad(file, entries, fmt::format("tier {} has no jobs", tier));
  return jobs;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string junit_xml(const std::string& suite, const std::vector<Result>& results) {
  size_t failures = 0;
  double seconds = 0;
  for (const Result& r : results) failures += r.status != "pass", seconds += r.seconds;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(suite), results.size(), failures, seconds);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(suite), results.size(), failures, seconds);
  for (const Result& r : results) {
    out += fmt::format("    <testcase classname=\"{}.{}\" name=\"{}\" time=\"{:.3f}\"",
                       xml_escape(r.job.design), xml_escape(r.job.block),
                       r.job.lint ? std::string("lint") : fmt::format("seed {}", r.job.seed),
                       r.seconds);
    if (r.status == "pass") {
      out += "/>\n";
      continue;
    }
    out += fmt::format(
        ">\n      <failure type=\"{}\" message=\"{}\">{}\nreproduce: {}\nlog: {}</failure>\n"
        "    </testcase>\n",
        r.status, xml_escape(r.message), xml_escape(r.message), xml_escape(r.reproduce),
        xml_escape(r.log));
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

// results.json, junit.xml and summary.txt of `results`, written atomically to `dir`; the
// summary printed.
void write_reports(const fs::path& dir, const std::string& suite, const std::string& tier,
                   unsigned pool, double wall, const std::vector<Result>& results) {
  nlohmann::json records = nlohmann::json::array();
  std::string table = fmt::format("{:<24} {:<10} {:>6} {:<8} {:>10} {:>12}\n", "design", "block",
                                  "seed", "status", "cycles", "cycles/s");
  size_t failures = 0;
  for (const Result& r : results) {
    const double rate = r.seconds > 0 ? static_cast<double>(r.cycles) / r.seconds : 0;
    failures += r.status != "pass";
    records.push_back({{"config", r.job.config},
                       {"config_hash", r.config_hash},
                       {"design", r.job.design},
                       {"block", r.job.block},
                       {"seed", r.job.seed},
                       {"lint", r.job.lint},
                       {"status", r.status},
                       {"cycles", r.cycles},
                       {"seconds", r.seconds},
                       {"cycles_per_second", rate},
                       {"message", r.message},
                       {"reproduce", r.reproduce},
                       {"log", r.log}});
    table += fmt::format("{:<24} {:<10} {:>6} {:<8} {:>10} {:>12.0f}\n", r.job.design, r.job.block,
                         r.job.lint ? std::string("lint") : std::to_string(r.job.seed), r.status,
                         r.cycles, rate);
  }
  table += fmt::format("{} jobs, {} failed, {} at once, {:.1f} s\n", results.size(), failures, pool,
                       wall);
  util::FileMap files;
  files[kRegressMarker] = "npugen regress output\n";
  files["results.json"] = nlohmann::json{{"suite", suite},
                                         {"tier", tier},
                                         {"jobs_at_once", pool},
                                         {"wall_seconds", wall},
                                         {"jobs", records}}
                              .dump(1) +
                          "\n";
  files["junit.xml"] = junit_xml(fs::path(suite).stem().string() + "." + tier, results);
  files["summary.txt"] = table;
  util::write_tree_atomically(dir, files, kRegressMarker, {});
  std::printf("%s", table.c_str());
}

// The results of earlier runs (their results.json), joined: --merge.
std::vector<Result> read_results(const std::vector<std::string>& dirs, std::string& suite,
                                 std::string& tier, double& wall) {
  std::vector<Result> out;
  for (const std::string& d : dirs) {
    const fs::path file = fs::path(d) / "results.json";
    std::ifstream in(file);
    nlohmann::json j;
    try {
      if (!in) throw std::runtime_error("cannot be read");
      in >> j;
      suite = j.at("suite").get<std::string>();
      tier = j.at("tier").get<std::string>();
      wall = std::max(wall, j.at("wall_seconds").get<double>());
      for (const auto& r : j.at("jobs")) {
        Result x;
        x.job = {r.at("config"), r.at("block"),         r.at("seed"), 0,
                 r.at("design"), r.value("lint", false)};
        x.status = r.at("status");
        x.config_hash = r.at("config_hash");
        x.message = r.at("message");
        x.reproduce = r.at("reproduce");
        x.log = r.at("log");
        x.cycles = r.at("cycles");
        x.seconds = r.at("seconds");
        out.push_back(std::move(x));
      }
    } catch (const std::exception& e) {
      throw CommandError(
          kBadInput, fmt::format("{}: not npugen regress's results ({})", file.string(), e.what()));
    }
  }
  std::sort(out.begin(), out.end(), [](const Result& a, const Result& b) {
    return std::tie(a.job.config, a.job.block, a.job.seed) <
           std::tie(b.job.config, b.job.block, b.job.seed);
  });
  return out;
}

// A lint job: `verilator --lint-only -Wall -F` on the block's filelist (the design's
// manifest names it); it passes when Verilator prints nothing.
void lint(const Job& j, const fs::path& work, Result& r) {
  const fs::path design = work / "designs" / j.design;
  r.log = (work / "logs" / fmt::format("{}.{}.lint.log", j.design, j.block)).string();
  std::string filelist;
  try {
    std::ifstream in(design / "manifest.json");
    nlohmann::json m;
    in >> m;
    for (const auto& b : m.at("blocks")) {
      if (b.at("block") == j.block)
        filelist = (design / b.at("filelist").get<std::string>()).string();
    }
  } catch (const std::exception& e) {
    r.status = "error";
    r.message = fmt::format("{}: no manifest ({})", design.string(), e.what());
    return;
  }
  r.reproduce = fmt::format("verilator --lint-only -Wall -F {}", filelist);
  const auto s0 = std::chrono::steady_clock::now();
  const int rc =
      util::run_program({"verilator", "--lint-only", "-Wall", "-F", filelist}, fs::path(r.log));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
  std::string said = util::tail_of_file(r.log, 5);
  while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
  r.status = rc == 0 && said.empty() ? "pass" : "fail";
  if (r.status != "pass") r.message = fmt::format("lint (exit status {}): {}", rc, said);
}

// "i/n" -> (i, n), 1 <= i <= n.
std::pair<unsigned, unsigned> parse_shard(const std::string& text) {
  unsigned i = 0, n = 0;
  char slash = 0, extra = 0;
  std::istringstream in(text);
  if (!(in >> i >> slash >> n) || slash != '/' || (in >> extra) || n == 0 || i == 0 || i > n) {
    throw CommandError(kBadInput, fmt::format("--shard {}: expected i/n with 1 <= i <= n", text));
  }
  return {i, n};
}

}  // namespace

void add_regress_command(CLI::App& app) {
  static std::string suite, tier = "smoke", out, rerun, shard;
  static unsigned random_n = 0;
  static uint64_t random_seed = 1;
  static std::vector<std::string> merge;
  static unsigned jobs_n = 0, timeout_s = 1800;
  auto* cmd = app.add_subcommand(
      "regress",
      "Run a suite's tier of co-simulation jobs (configurations x blocks x seeds) in a local "
      "pool, each design generated and verilated once; results.json, junit.xml and a summary "
      "(docs/regress.md). Exit status 1 when a job failed.");
  cmd->add_option("SUITE", suite, "Suite file (YAML: tiers of entries)");
  cmd->add_option("--shard", shard, "i/n: only every n-th job from the i-th (1-based)");
  cmd->add_option("--random", random_n,
                  "Instead of a suite: N random valid configurations, each generated, linted "
                  "and co-simulated in every block it enables");
  cmd->add_option("--seed", random_seed, "Seed of --random's draw")->capture_default_str();
  cmd->add_option("--merge", merge, "Join earlier runs' results (their folders) into one report");
  cmd->add_option("--tier", tier, "Tier to run")->capture_default_str();
  cmd->add_option("--jobs,-j", jobs_n, "Jobs at once (default: the cores)");
  cmd->add_option("-o,--out", out, "Output folder (default: generated/regress/<suite>)");
  cmd->add_option("--timeout", timeout_s, "Seconds a job may run before it is killed")
      ->capture_default_str();
  cmd->add_option("--rerun-failed", rerun, "results.json of an earlier run: its failures only");
  cmd->callback([] {
    if (!merge.empty()) {
      if (out.empty()) throw CommandError(kBadInput, "--merge needs -o DIR");
      std::string s, t;
      double wall = 0;
      const std::vector<Result> results = read_results(merge, s, t, wall);
      write_reports(out, s, t, 0, wall, results);
      const auto failed = std::count_if(results.begin(), results.end(),
                                        [](const Result& r) { return r.status != "pass"; });
      if (failed != 0)
        throw CommandError(kSimulationFailed, fmt::format("{} job(s) failed", failed));
      return;
    }
    if (suite.empty() && random_n == 0) {
      throw CommandError(kBadInput, "give a suite file (or --random N, or --merge)");
    }
    const auto slice = shard.empty() ? std::pair<unsigned, unsigned>{1, 1} : parse_shard(shard);
    std::vector<Job> jobs;
    if (random_n != 0) {
      // The draws, written into the work folder: a failing one is there with its seed.
      if (!suite.empty()) throw CommandError(kBadInput, "--random takes no suite file");
      suite = fmt::format("random_{}", random_seed);
      tier = fmt::format("{} configurations", random_n);
      const fs::path where =
          (out.empty() ? fs::path("generated") / "regress" / suite : fs::path(out)).string() +
          ".work";
      fs::create_directories(where / "random");
      std::mt19937_64 rng(random_seed);
      for (unsigned k = 0; k < random_n; ++k) {
        const std::string name = fmt::format("rand_{}_{}", random_seed, k);
        const auto drawn = blocks::random_config(rng, name);
        const fs::path file = where / "random" / (name + ".yaml");
        util::write_file_atomically(
            file, fmt::format("# npugen random configuration: seed {}, draw {}\n{}", random_seed, k,
                              drawn.yaml));
        const auto loaded = blocks::load_config_text(drawn.yaml, file.string());
        if (!loaded.config) throw CommandError(kToolFailed, file.string() + ": drawn invalid");
        for (const auto* b : blocks::generated(*loaded.config)) {
          jobs.push_back({file.string(), std::string(b->name()), 0, 0, name, true});
          jobs.push_back({file.string(), std::string(b->name()), 1, 0, name, false});
        }
      }
    } else {
      jobs = read_suite(suite, tier);
    }
    std::vector<Job> mine;
    for (size_t k = 0; k < jobs.size(); ++k) {
      if (k % slice.second == slice.first - 1) mine.push_back(jobs[k]);
    }
    jobs = std::move(mine);
    if (!rerun.empty()) {
      std::ifstream in(rerun);
      nlohmann::json prior;
      try {
        in >> prior;
      } catch (const std::exception& e) {
        throw CommandError(kBadInput, fmt::format("{}: not results.json ({})", rerun, e.what()));
      }
      std::set<std::tuple<std::string, std::string, uint64_t>> failed;
      for (const auto& r : prior.value("jobs", nlohmann::json::array())) {
        if (r.value("status", "") != "pass") {
          failed.emplace(r.value("config", ""), r.value("block", ""), r.value("seed", 0));
        }
      }
      std::erase_if(jobs, [&](const Job& j) {
        return !failed.contains({j.config, j.block, j.seed});
      });
    }
    const fs::path dir =
        out.empty() ? fs::path("generated") / "regress" / fs::path(suite).stem() : fs::path(out);
    const fs::path work = dir.string() + ".work";
    fs::create_directories(work / "logs");
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    // Each design generated once (its co-simulation project holds the verilated builds).
    std::set<std::string> designs;
    for (const Job& j : jobs) {
      if (!designs.insert(j.design).second) continue;
      const int rc = util::run_program(
          {self, "generate", j.config, "-o", (work / "designs" / j.design).string()},
          work / "logs" / (j.design + ".generate.log"));
      if (rc != 0)
        throw CommandError(kBadInput, fmt::format("{}: npugen generate failed", j.config));
    }
    // Groups of one design and block run their seeds in order (the first builds the model),
    // the groups in parallel.
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
    for (size_t i = 0; i < jobs.size(); ++i) groups[{jobs[i].design, jobs[i].block}].push_back(i);
    std::vector<std::vector<size_t>> queue;
    for (auto& [key, list] : groups) queue.push_back(list);
    std::vector<Result> results(jobs.size());
    std::atomic<size_t> next{0}, done{0}, failures{0};
    std::mutex print;
    const bool terminal = isatty(fileno(stdout)) != 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto worker = [&] {
      for (size_t g; (g = next++) < queue.size();) {
        for (const size_t i : queue[g]) {
          const Job& j = jobs[i];
          Result& r = results[i];
          r.job = j;
          if (j.lint) {  // Verilator -Wall on the block's filelist: no output at all
            lint(j, work, r);
            failures += r.status != "pass";
            ++done;
            continue;
          }
          const std::string name = fmt::format("{}.{}.seed{}", j.design, j.block, j.seed);
          const fs::path summary = work / "logs" / (name + ".json");
          r.log = (work / "logs" / (name + ".log")).string();
          std::vector<std::string> argv = {"timeout",
                                           "--kill-after=10",
                                           std::to_string(timeout_s),
                                           self,
                                           "sim",
                                           j.config,
                                           "-o",
                                           (work / "designs" / j.design).string(),
                                           "--block",
                                           j.block,
                                           "--seed",
                                           std::to_string(j.seed),
                                           "--summary",
                                           summary.string()};
          if (j.cycles != 0) argv.insert(argv.end(), {"--cycles", std::to_string(j.cycles)});
          r.reproduce = fmt::format("npugen sim {} --block {} --seed {}{}", j.config, j.block,
                                    j.seed, j.cycles ? fmt::format(" --cycles {}", j.cycles) : "");
          fs::remove(summary);
          const auto s0 = std::chrono::steady_clock::now();
          const int rc = util::run_program(argv, fs::path(r.log));
          r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
          nlohmann::json sj;
          std::ifstream sin(summary);
          if (sin) {
            try {
              sin >> sj;
            } catch (const std::exception&) {
              sj = nullptr;
            }
          }
          if (rc == 124 || rc == 137) {
            r.status = "timeout";
            r.message = fmt::format("killed after {} s", timeout_s);
          } else if (rc == 0 && sj.is_object() && sj.value("status", "") == "pass") {
            r.status = "pass";
          } else if (sj.is_object()) {
            r.status = "fail";
            r.message = fmt::format("{} (exit status {})", sj.value("status", "?"), rc);
            if (!sj.value("reproduce", std::string()).empty()) r.reproduce = sj["reproduce"];
          } else {  // no summary: refused its input (2), or crashed
            r.status = rc == 2 ? "error" : "crash";
            std::string tail = util::tail_of_file(r.log, 3);
            while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
            r.message = fmt::format("exit status {}, no summary: {}", rc, tail);
          }
          if (sj.is_object()) {
            r.cycles = sj.value("cycles", uint64_t{0});
            r.config_hash = sj.value("config_hash", std::string());
          }
          failures += r.status != "pass";
          const size_t d = ++done;
          if (terminal) {
            const double spent =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double eta =
                spent / static_cast<double>(d) * static_cast<double>(jobs.size() - d);
            const std::lock_guard<std::mutex> lock(print);
            std::printf("\r[%-30s] %zu/%zu done, %zu failed, ETA %.0f s ",
                        std::string(30 * d / jobs.size(), '#').c_str(), d, jobs.size(),
                        failures.load(), eta);
            std::fflush(stdout);
          }
        }
      }
    };
    unsigned pool = jobs_n != 0 ? jobs_n : std::max(1U, std::thread::hardware_concurrency());
    pool = std::min<unsigned>(pool, static_cast<unsigned>(queue.size()));
    std::vector<std::thread> threads;
    for (unsigned k = 0; k < pool; ++k) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
    if (terminal) std::printf("\n");
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write_reports(dir, suite, tier, pool, wall, results);
    std::printf("results: %s (logs and designs: %s)\n", dir.string().c_str(),
                work.string().c_str());
    if (failures != 0)
      throw CommandError(kSimulationFailed, fmt::format("{} job(s) failed", failures.load()));
  });
}

}  // namespace npugen::cli
