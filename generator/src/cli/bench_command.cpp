// npugen bench: the figures the foundation is measured by, in one run.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "blocks/tasks/tasks.hpp"
#include "cli/commands.hpp"
#include "cli/sim_setup.hpp"
#include "cli/zero_skip_job.hpp"
#include "emit/design_emitter.hpp"
#include "npugen/golden/tasks/analysis.hpp"
#include "npugen/golden/tasks/system.hpp"
#include "util/process.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Best-of-`repeat` times of the preprocessing alone, the contract check and the lower
// bound on one weight tensor.
void bench_preprocess(const elab::Design& design, const fs::path& weights, int repeat) {
  ZeroSkipJob job = load_zero_skip_job(design, weights);
  const auto& params = zero_skip_design(design).params;
  const auto levels = params.levels();
  double pre = 1e30, check = 1e30, bound = 1e30;
  for (int i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    job.schedule = golden::preprocess(job.tensor, levels, &job.stats);
    pre = std::min(pre, seconds_since(start));
    start = std::chrono::steady_clock::now();
    job.problems = golden::check_schedule(job.tensor, levels, job.schedule);
    check = std::min(check, seconds_since(start));
    start = std::chrono::steady_clock::now();
    job.bound = golden::lower_bound(job.tensor, levels);
    bound = std::min(bound, seconds_since(start));
  }
  if (!job.problems.empty()) throw CommandError(kToolFailed, job.problems.front());
  const double n = static_cast<double>(job.tensor.values.size());
  std::printf(
      "bench preprocess %s: %u x %u x %u tensor, %lu nonzeros, best of %d\n"
      "  preprocessing %.3f ms = %.1f M weights/s (one core)\n"
      "  contract check %.3f ms, lower bound %.3f ms\n"
      "  %lu dense cycles -> %lu steps (speedup %.3f), lower bound %lu (steps / bound %.3f)\n",
      weights.string().c_str(), params.array.tiles, job.tensor.rows, params.array.lanes,
      static_cast<unsigned long>(job.stats.nonzeros), repeat, pre * 1e3, n / pre / 1e6, check * 1e3,
      bound * 1e3, static_cast<unsigned long>(job.stats.dense_cycles),
      static_cast<unsigned long>(job.stats.steps),
      job.stats.steps ? static_cast<double>(job.stats.dense_cycles) / job.stats.steps : 0.0,
      static_cast<unsigned long>(job.bound.value),
      job.bound.value ? static_cast<double>(job.stats.steps) / job.bound.value : 0.0);
}

// The golden task unit on a list of n random tasks: layers of a network-like graph (each
// reads one or two of the last few outputs, regions reused round a 64-slot buffer),
// neural tasks of 200 to 4000 cycles and planar ones of 20 to 600.
void bench_tasks(const elab::Design& design, uint64_t n) {
  const auto* unit = design.find<blocks::tasks::Design>();
  if (unit == nullptr) {
    throw CommandError(kBadInput, "--tasks needs a configuration with tasks.enabled: true");
  }
  golden::TaskParams params = unit->params;
  params.memory_words = std::max<uint64_t>(params.memory_words, 20 * n);  // the whole list
  std::mt19937_64 rng(1);
  const uint64_t slot = std::max<uint64_t>(params.buffer_words / 64, 1);
  std::vector<golden::Task> tasks(n);
  for (uint64_t i = 0; i < n; ++i) {
    golden::Task& t = tasks[i];
    t.name = fmt::format("T{}", i);
    const bool neural = std::bernoulli_distribution(0.45)(rng);
    t.op = neural ? golden::TaskOp::kConv : golden::TaskOp::kElementwise;
    t.cycles = neural ? std::uniform_int_distribution<uint64_t>(200, 4000)(rng)
                      : std::uniform_int_distribution<uint64_t>(20, 600)(rng);
    t.out = golden::Region{(i % 64) * slot, slot};
    const uint64_t back = std::uniform_int_distribution<uint64_t>(1, 4)(rng);
    t.in[0] = i >= back ? tasks[i - back].out : golden::Region{63 * slot, slot};
    if (!neural && i >= 6) t.in[1] = tasks[i - 6].out;
  }
  auto start = std::chrono::steady_clock::now();
  const golden::ScheduleRun run = golden::run_task_list(params, tasks);
  const double model_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  const golden::ScheduleBounds bounds = golden::schedule_bounds(tasks, params);
  const double bounds_s = seconds_since(start);
  std::printf(
      "bench tasks %s: %llu random tasks, %u entries, %u neural + %u planar engine(s)\n"
      "  golden model: %.3f s = %.0f tasks/s (%llu cycles, %llu model steps = %.1f M steps/s; "
      "idle stretches skipped)\n"
      "  makespan %llu cycles, lower bound %llu (%.3f), bounds computed in %.3f s\n",
      design.config.design.name.c_str(), static_cast<unsigned long long>(n), params.entries,
      params.neural_engines, params.planar_engines, model_s, static_cast<double>(n) / model_s,
      static_cast<unsigned long long>(run.makespan),
      static_cast<unsigned long long>(run.model_steps),
      static_cast<double>(run.model_steps) / model_s / 1e6,
      static_cast<unsigned long long>(run.makespan),
      static_cast<unsigned long long>(bounds.lower_bound),
      static_cast<double>(run.makespan) / static_cast<double>(bounds.lower_bound), bounds_s);
}

}  // namespace

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
  cmd->add_option("-o,--out", out, "Design folder (default: generated/<design.name>)");
  cmd->add_option("--cycles", cycles, "Cycles of each co-simulation run")->capture_default_str();
  cmd->add_flag("--generate-only", no_sim, "Measure generation only (no Verilator needed)");
  static std::string preprocess_weights;
  static int repeat = 20;
  cmd->add_option("--preprocess", preprocess_weights,
                  "Measure zero-skipping preprocessing of this [T][C][L] .npy instead");
  cmd->add_option("--repeat", repeat, "Runs of --preprocess; the best is reported")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  static uint64_t task_count = 0;
  cmd->add_option("--tasks", task_count,
                  "Measure the golden task unit (tasks.enabled) on this many random tasks "
                  "instead");
  cmd->callback([] {
    if (task_count > 0) {
      bench_tasks(load_design(config_file), task_count);
      return;
    }
    if (!preprocess_weights.empty()) {
      bench_preprocess(load_design(config_file), preprocess_weights, repeat);
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
