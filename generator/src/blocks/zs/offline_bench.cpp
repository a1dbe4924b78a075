// What `npugen bench` measures of the zero-skipping block besides its co-simulation: the
// preprocessing's speed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "blocks/zs/zs.hpp"
#include "blocks/zs/zs_job.hpp"
#include "util/stopwatch.hpp"

namespace fs = std::filesystem;

namespace npugen::blocks::zs {
using util::seconds_since;

void bench_preprocess(const elab::Design& design, const OfflineBench::Args& args) {
  const fs::path& weights = args.file;
  const int repeat = args.repeat;
  ZsJob job = load_zs_job(design, weights);
  const auto& params = zs_design(design).params;
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
  // A schedule breaking the contract is a bug in npugen.
  if (!job.problems.empty()) throw std::logic_error(job.problems.front());
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

}  // namespace npugen::blocks::zs
