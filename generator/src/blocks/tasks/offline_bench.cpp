// What `npugen bench` measures of the task unit besides its co-simulation: the golden
// model's speed.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "blocks/tasks/tasks.hpp"
#include "elab/design.hpp"
#include "npugen/golden/tasks/analysis.hpp"
#include "npugen/golden/tasks/system.hpp"
#include "util/stopwatch.hpp"

namespace npugen::blocks::tasks {
using util::seconds_since;

// The golden task unit on a list of n random tasks: layers of a network-like graph (each
// reads one or two of the last few outputs, regions reused round a 64-slot buffer),
// neural tasks of 200 to 4000 cycles and planar ones of 20 to 600.
void bench_golden_unit(const elab::Design& design, const OfflineBench::Args& args) {
  const uint64_t n = args.count;
  const auto* unit = design.find<Design>();
  if (unit == nullptr) throw BadInput("--tasks needs a configuration with tasks.enabled: true");
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

}  // namespace npugen::blocks::tasks
