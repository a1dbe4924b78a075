#include "common/bench_options.hpp"

#include <CLI/CLI.hpp>
#include <cmath>

namespace npugen::tb {

int parse_bench_options(int argc, char** argv, const BenchSpec& spec, BenchOptions& o) {
  CLI::App app{spec.title};
  app.add_option("--seed", o.seed, "Seed of the random stimulus")->capture_default_str();
  app.add_option("--cycles", o.cycles, "Cycles to simulate")->capture_default_str();
  app.add_option("--mode", o.mode, spec.modes_help)
      ->check(CLI::IsMember(spec.modes))
      ->capture_default_str();
  app.add_option("--trace", o.trace, "Write an FST waveform (needs a build with tracing)");
  app.add_option("--trace-from", o.trace_from, "First cycle written to the waveform");
  app.add_option("--repro", o.repro, "Command prefix printed in the reproduce line");
  app.add_option("--summary", o.summary, "Write the run's summary as JSON to this file");
  if (spec.vectors) {
    app.add_option("--vectors", o.vectors, "Write stimulus and expected outputs, one cycle a line");
  }
  if (spec.descriptors) {
    app.add_option("--descriptors", o.descriptors,
                   "Run this task list (binary descriptors, npugen schedule --descriptors) to "
                   "completion instead of random scenarios");
  }
  if (spec.run) {
    app.add_option("--run", o.run,
                   "Run this compiled network (a run file, npugen run writes it) instead of a "
                   "random one");
    app.add_option("--results", o.results,
                   "Write every layer's tensor and the cycle it finished here (with --run)");
  }
  if (spec.max_rows_limit > 0) {
    app.add_option("--max-rows", o.max_rows, "Most rows C of a job")
        ->check(CLI::Range(1U, spec.max_rows_limit))
        ->capture_default_str();
  }
  if (spec.valid_probability) {
    app.add_option("--valid-probability", o.valid_probability, "Share of cycles offering a step")
        ->check(CLI::Range(0.01, 1.0))
        ->capture_default_str();
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return -1;
}

uint64_t probability_threshold(double p) {
  return p >= 1.0 ? ~uint64_t{0} : static_cast<uint64_t>(std::ldexp(p, 64));
}

}  // namespace npugen::tb
