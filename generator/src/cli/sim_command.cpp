#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

#include "blocks/block.hpp"
#include "cli/commands.hpp"
#include "cli/sim_setup.hpp"
#include "emit/design_emitter.hpp"
#include "util/input_file.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {

void require_sim_tools() {
  struct Need {
    const char* what;
    bool found;
    const char* package;
  };
  const Need needs[] = {
      {"verilator", util::find_program("verilator").has_value(), "verilator"},
      {"make", util::find_program("make").has_value(), "make"},
      {"g++", util::find_program("g++").has_value(), "g++"},
      {"fmt headers (fmt/format.h)", fs::exists("/usr/include/fmt/format.h"), "libfmt-dev"},
      {"CLI11 headers (CLI/CLI.hpp)", fs::exists("/usr/include/CLI/CLI.hpp"), "libcli11-dev"},
  };
  std::string missing;
  std::string packages;
  for (const auto& n : needs) {
    if (n.found) continue;
    missing += fmt::format("{}{}", missing.empty() ? "" : ", ", n.what);
    packages += fmt::format(" {}", n.package);
  }
  if (!missing.empty()) {
    throw CommandError(kBadInput, fmt::format("co-simulation needs {}, not found. Install with:\n  "
                                              "sudo apt-get install -y{}",
                                              missing, packages));
  }
}

SimBuild build_sim(const elab::Design& design, const fs::path& dir, bool trace, bool force,
                   const blocks::BlockDesign& block) {
  const std::string name(block.block().name());
  const fs::path build_dir = dir / "sim" / fmt::format("build-{}{}", name, trace ? "-trace" : "");
  const fs::path stamp = build_dir / ".npugen-build-hash";
  SimBuild result{build_dir / "sim", false, 0};

  // The build's inputs are the folder's files (named with their hashes by the
  // manifest) and the Verilator that builds them.
  const std::string key = util::sha256_hex(util::read_file(dir / emit::kManifest) + "\n" +
                                           util::capture_output({"verilator", "--version"}) +
                                           (trace ? "trace" : "plain") + name);
  std::error_code ec;
  if (!force && fs::exists(result.binary, ec) && fs::exists(stamp, ec)) {
    try {
      if (util::read_file(stamp) == key) return result;
    } catch (const util::OutputError&) {
    }
  }

  const auto start = std::chrono::steady_clock::now();
  // The names of the bench's sources: a build made from another set (a source removed by a
  // newer npugen) keeps dependency files naming what is gone, so it starts afresh.
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir / "sim" / "src", ec)) {
    names.push_back(e.path().lexically_relative(dir).generic_string());
  }
  std::sort(names.begin(), names.end());
  std::string joined;
  for (const auto& n : names) joined += n + "\n";
  const std::string sources_key = util::sha256_hex(joined);
  const fs::path sources_stamp = build_dir / ".npugen-sources";
  bool same_sources = false;
  if (fs::exists(sources_stamp, ec)) {
    try {
      same_sources = util::read_file(sources_stamp) == sources_key;
    } catch (const util::OutputError&) {
    }
  }
  if (force || !same_sources) fs::remove_all(build_dir, ec);
  fs::remove(stamp, ec);
  fs::create_directories(build_dir, ec);
  const fs::path log = build_dir / "npugen-build.log";
  std::printf("building the verilated model of %s%s (log: %s)\n", block.top().c_str(),
              trace ? " with FST tracing" : "", log.string().c_str());
  (void)design;
  std::vector<std::string> argv = {"make", "-C", (dir / "sim").string(), "BLOCK=" + name};
  if (trace) argv.push_back("TRACE=1");
  const int rc = util::run_program(argv, log);
  if (rc != 0) {
    throw CommandError(kToolFailed,
                       fmt::format("building the co-simulation failed (status {}); last lines "
                                   "of {}:\n{}",
                                   rc, log.string(), util::tail_of_file(log, 25)));
  }
  for (const auto& [path, text] : {std::pair{stamp, key}, std::pair{sources_stamp, sources_key}}) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f != nullptr) {
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
  }
  result.rebuilt = true;
  result.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("built in %.1f s\n", result.build_seconds);
  return result;
}

const blocks::BlockDesign& sim_block(const elab::Design& design, const std::string& config_file,
                                     const std::string& name) {
  if (name.empty()) {
    if (design.blocks.empty())
      throw CommandError(kBadInput, config_file + ": no block to simulate");
    for (const auto& b : design.blocks) {
      if (b->top() == design.top) return *b;
    }
    return *design.blocks.front();
  }
  if (const auto* b = design.find(name)) return *b;
  std::string have;
  for (const auto& b : design.blocks) {
    have += fmt::format("{}{}", have.empty() ? "" : ", ", b->block().name());
  }
  const blocks::Block* known = blocks::find(name);
  if (known == nullptr) {
    std::string all;
    for (const auto* b : blocks::all())
      all += fmt::format("{}{}", all.empty() ? "" : ", ", b->name());
    throw CommandError(kBadInput, fmt::format("--block {}: no such block (blocks: {})", name, all));
  }
  throw CommandError(kBadInput, fmt::format("{}: --block {}: the design does not generate {} "
                                            "(its blocks: {})",
                                            config_file, name, known->title(), have));
}

void add_sim_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "sim",
      "Generate the design, build a block's verilated model (cached by content hash) and "
      "co-simulate it against the golden model on seeded random stimulus. Exit status 1 on "
      "a mismatch, with the command that reproduces it with a waveform.");
  struct Options {
    std::string config_file;
    std::string block;
    std::string out;
    std::optional<uint64_t> seed;
    std::optional<uint64_t> cycles;
    std::string trace;
    uint64_t trace_from = 0;
    std::string mode = "check";
    std::string vectors;
    std::string descriptors;
    std::string summary;
  };
  static Options o;
  std::string names;
  for (const auto* b : blocks::all()) {
    names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", b->name(), b->title());
  }
  cmd->add_option("CONFIG", o.config_file, "YAML configuration file")->required();
  cmd->add_option("--block", o.block,
                  "Block to co-simulate (default: the design's top block, the NPU when it has one, "
                  "else its first): " +
                      names)
      ->check(non_empty());
  cmd->add_option("-o,--out", o.out, "Design folder (default: generated/<design.name>)")
      ->check(non_empty());
  cmd->add_option("--seed", o.seed, "Seed of the random stimulus (default: sim.seed)")
      ->check(unsigned_integer());
  cmd->add_option("--cycles", o.cycles, "Clock cycles to simulate (default: sim.cycles)")
      ->check(positive_integer());
  cmd->add_option("--trace", o.trace, "Write an FST waveform to this file")->check(non_empty());
  cmd->add_option("--trace-from", o.trace_from, "First cycle in the waveform (default 0)")
      ->check(unsigned_integer());
  // The modes beyond check, with the blocks whose benches have them.
  std::map<std::string, std::string> other_modes;
  for (const auto* b : blocks::all()) {
    for (const auto& m : b->bench().modes) {
      if (m == "check") continue;
      std::string& list = other_modes[m];
      list += (list.empty() ? "" : ", ") + std::string(b->name());
    }
  }
  std::string modes_help = "check: RTL against golden on random stimulus (every block)";
  for (const auto& [mode, list] : other_modes) {
    modes_help += fmt::format("; {} ({})", mode, list);
  }
  cmd->add_option("--mode", o.mode,
                  modes_help +
                      ". Throughput streams without back-pressure and fails on any "
                      "cycle without a transfer while streaming")
      ->capture_default_str();
  // --vectors and --descriptors, with what each block whose bench takes them does.
  std::string vectors_help, descriptors_help;
  for (const auto* b : blocks::all()) {
    const blocks::BenchInfo bench = b->bench();
    if (!bench.vectors.empty()) {
      vectors_help +=
          fmt::format("{}{}: {}", vectors_help.empty() ? "" : "; ", b->name(), bench.vectors);
    }
    if (!bench.descriptors.empty()) {
      descriptors_help += fmt::format("{}{}: {}", descriptors_help.empty() ? "" : "; ", b->name(),
                                      bench.descriptors);
    }
  }
  cmd->add_option("--vectors", o.vectors, vectors_help)->check(non_empty());
  cmd->add_option("--summary", o.summary,
                  "Write the run's JSON summary here (default: DIR/sim/build-<block>/"
                  "summary.json)")
      ->check(non_empty());
  cmd->add_option("--descriptors", o.descriptors, descriptors_help)->check(non_empty());
  cmd->callback([] {
    const auto start = std::chrono::steady_clock::now();
    const elab::Design design = load_design(o.config_file);
    const blocks::BlockDesign& block = sim_block(design, o.config_file, o.block);
    const std::string name(block.block().name());
    const blocks::BenchInfo bench = block.block().bench();
    if (std::find(bench.modes.begin(), bench.modes.end(), o.mode) == bench.modes.end()) {
      std::string modes;
      for (const auto& m : bench.modes) modes += fmt::format("{}{}", modes.empty() ? "" : ", ", m);
      throw CommandError(kBadInput, fmt::format("{}: --mode {}: the {} co-simulation has the "
                                                "mode(s) {}",
                                                o.config_file, o.mode, name, modes));
    }
    if (!o.vectors.empty() && bench.vectors.empty()) {
      throw CommandError(kBadInput,
                         fmt::format("{}: --vectors is not for block {}", o.config_file, name));
    }
    if (!o.descriptors.empty() && bench.descriptors.empty()) {
      throw CommandError(kBadInput,
                         fmt::format("{}: --descriptors is not for block {}", o.config_file, name));
    }
    if (!o.descriptors.empty()) {
      try {
        util::require_regular_file(o.descriptors);
      } catch (const util::InputError& e) {
        throw CommandError(kBadInput, fmt::format("{}: {}", o.descriptors, e.what()));
      }
    }
    // Every output is checked before the model is built.
    const fs::path dir = output_dir(design, o.out);
    check_output_folder("-o", dir, emit::kManifest);
    if (!o.trace.empty()) check_output_file("--trace", o.trace, dir);
    if (!o.summary.empty()) check_output_file("--summary", o.summary, dir);
    if (!o.vectors.empty()) check_output_file("--vectors", o.vectors, dir);
    require_sim_tools();
    generate_design(design, dir, true);
    const bool trace = !o.trace.empty();
    const SimBuild build = build_sim(design, dir, trace, false, block);
    const double setup =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("set-up %.2f s (%s)\n", setup - build.build_seconds,
                build.rebuilt ? "model rebuilt" : "model up to date");

    std::string repro = fmt::format("npugen sim {}", o.config_file);
    if (!o.out.empty()) repro += fmt::format(" -o {}", o.out);
    repro += " --block " + name;
    std::vector<std::string> argv = {build.binary.string(), "--repro", repro, "--mode", o.mode};
    if (!o.descriptors.empty()) {
      argv.insert(argv.end(), {"--descriptors", fs::absolute(o.descriptors).string()});
    }
    const fs::path summary =
        o.summary.empty() ? build.binary.parent_path() / "summary.json" : fs::absolute(o.summary);
    argv.insert(argv.end(), {"--summary", summary.string()});
    if (o.seed) argv.insert(argv.end(), {"--seed", std::to_string(*o.seed)});
    if (o.cycles) argv.insert(argv.end(), {"--cycles", std::to_string(*o.cycles)});
    if (trace) {
      argv.insert(argv.end(), {"--trace", fs::absolute(o.trace).string(), "--trace-from",
                               std::to_string(o.trace_from)});
    }
    if (!o.vectors.empty()) argv.insert(argv.end(), {"--vectors", o.vectors});
    const int rc = util::run_program(argv);
    if (rc == -1) throw CommandError(kToolFailed, "cannot start " + build.binary.string());
    if (trace && rc <= 1) std::printf("waveform: %s\n", o.trace.c_str());
    if (rc != 0)
      throw CommandError(rc == 1 ? kSimulationFailed : rc == 2 ? kBadInput : kToolFailed, "");
  });
}

}  // namespace npugen::cli
