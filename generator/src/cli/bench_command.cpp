// npugen bench: the figures the foundation is measured by, in one run.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "blocks/block.hpp"
#include "cli/commands.hpp"
#include "cli/sim_setup.hpp"
#include "emit/design_emitter.hpp"
#include "util/process.hpp"
#include "util/stopwatch.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {
using util::seconds_since;

void add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bench",
      "Measure one design: generate time, verilated build time, set-up time of a second sim "
      "on the unchanged design, co-simulation cycles/s and the overhead of checking (checked "
      "time over the RTL alone on the same stimulus).");
  static std::string config_file;
  static std::string out;
  static uint64_t cycles = 200000;
  static bool no_sim = false;
  cmd->add_option("CONFIG", config_file, "YAML configuration file")->required();
  cmd->add_option("-o,--out", out, "Design folder (default: generated/<design.name>)")
      ->check(non_empty());
  cmd->add_option("--cycles", cycles, "Cycles of each co-simulation run")
      ->check(positive_integer())
      ->capture_default_str();
  cmd->add_flag("--generate-only", no_sim, "Measure generation only (no Verilator needed)");
  // What the blocks measure besides their co-simulations (their offline algorithms,
  // golden models), in list order: a value given runs that measurement instead.
  struct Offline {
    blocks::OfflineBench bench;
    blocks::OfflineBench::Args args;
  };
  static std::vector<Offline> offline;
  static int repeat = 20;
  for (const auto* b : blocks::all()) {
    for (auto& bench : b->bench().offline) offline.push_back({std::move(bench), {}});
  }
  std::string repeated;
  for (Offline& o : offline) {  // the vector is complete: its elements stay where they are
    const std::string option = "--" + o.bench.option;
    if (o.bench.takes == blocks::OfflineBench::Takes::kCount) {
      cmd->add_option(option, o.args.count, o.bench.help)->check(positive_integer());
    } else {
      cmd->add_option(option, o.args.file, o.bench.help);
    }
    if (o.bench.repeats) repeated += fmt::format("{}{}", repeated.empty() ? "" : ", ", option);
  }
  if (!repeated.empty()) {
    cmd->add_option("--repeat", repeat, "Runs of " + repeated + "; the best is reported")
        ->check(positive_integer())
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
  }
  cmd->callback([] {
    for (Offline& o : offline) {
      if (o.args.count == 0 && o.args.file.empty()) continue;
      o.args.repeat = repeat;
      const elab::Design design = load_design(config_file);
      try {
        o.bench.run(design, o.args);
      } catch (const blocks::BadInput& e) {
        throw CommandError(kBadInput, e.what());
      }
      return;
    }
    auto start = std::chrono::steady_clock::now();
    const elab::Design design = load_design(config_file);
    const double load_s = seconds_since(start);

    start = std::chrono::steady_clock::now();
    const util::FileMap files = emit::emit_design(design);
    const double emit_s = seconds_since(start);
    size_t bytes = 0;
    for (const auto& [path, text] : files) bytes += text.size();

    // Into a fresh folder, so that the whole write is measured.
    const fs::path dir = output_dir(design, out);
    check_output_folder("-o", dir, emit::kManifest);
    check_output_folder("-o", dir.string() + ".bench-generate", emit::kManifest);
    std::error_code ec;
    const fs::path fresh = dir.string() + ".bench-generate";
    fs::remove_all(fresh, ec);
    start = std::chrono::steady_clock::now();
    generate_design(design, fresh, true);
    const double write_s = seconds_since(start);
    fs::remove_all(fresh, ec);
    std::printf(
        "bench %s: %s\n  generate: load+validate %.3f s, emit %.3f s (%zu files, "
        "%.1f KiB), atomic write %.3f s, total %.3f s\n",
        design.config.design.name.c_str(), design.top.c_str(), load_s, emit_s, files.size(),
        static_cast<double>(bytes) / 1024.0, write_s, load_s + emit_s + write_s);
    if (no_sim) return;

    require_sim_tools();
    generate_design(design, dir, true);
    const blocks::BlockDesign& block = *design.blocks.front();
    const SimBuild build = build_sim(design, dir, false, /*force=*/true, block);
    std::printf("  verilated build (clean): %.1f s\n", build.build_seconds);

    // A second sim on the unchanged design: everything before the simulation starts.
    start = std::chrono::steady_clock::now();
    const elab::Design again = load_design(config_file);
    generate_design(again, dir, true);
    const SimBuild cached = build_sim(again, dir, false, false, *again.blocks.front());
    std::printf("  second sim set-up (unchanged design): %.3f s%s\n", seconds_since(start),
                cached.rebuilt ? " (REBUILT: cache miss)" : "");

    // A bench without a bench mode (the zero-skipping array's) runs checked and prints
    // its rate.
    const auto modes = block.block().bench().modes;
    const bool has_bench = std::find(modes.begin(), modes.end(), "bench") != modes.end();
    const int rc = util::run_program(
        has_bench
            ? std::vector<std::string>{build.binary.string(), "--mode", "bench", "--cycles",
                                       std::to_string(cycles)}
            : std::vector<std::string>{build.binary.string(), "--cycles", std::to_string(cycles)});
    if (rc != 0) throw CommandError(rc == 1 ? kSimulationFailed : kToolFailed, "");
  });
}

}  // namespace npugen::cli
