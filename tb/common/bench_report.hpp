// What the co-simulation benches of the blocks share: the mismatch record, the report
// printed on a mismatch with the command that reproduces it with a waveform, the guard
// around a bench's body (no --trace in a build without tracing; an exception is bad
// input, status 2) and the bench's main. Compiled inside each design's Verilator build
// (design_params.hpp).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "common/bench_options.hpp"
#include "design_params.hpp"

namespace npugen::tb {

struct Mismatch {
  uint64_t cycle;
  std::string what;
};

/// Cycles simulated after the first mismatch (so the report shows what follows).
inline constexpr uint64_t kCyclesAfterMismatch = 4;
/// Cycles before the first mismatch that the reproduce command traces.
inline constexpr uint64_t kTraceWindow = 64;

/// Prints "MISMATCH at cycle ..." with the first 8 mismatches, `context` lines, and the
/// reproduce line: `repro --seed S --cycles N<args> --trace mismatch.fst --trace-from F`,
/// where N is `cycles` (0: up to the mismatch and the cycles after it).
inline void print_mismatches(const std::vector<Mismatch>& mismatches, const std::string& block,
                             uint64_t seed, const std::string& repro, uint64_t cycles,
                             const std::string& args, const std::vector<std::string>& context) {
  const Mismatch& m = mismatches.front();
  std::printf("MISMATCH at cycle %llu in design %s (config %s, hash %.16s), %sseed %llu\n",
              static_cast<unsigned long long>(m.cycle), npugen::design::kName,
              npugen::design::kConfigFile, npugen::design::kConfigHash,
              block.empty() ? "" : fmt::format("block {}, ", block).c_str(),
              static_cast<unsigned long long>(seed));
  for (size_t i = 0; i < mismatches.size() && i < 8; ++i) {
    std::printf("  cycle %llu: %s\n", static_cast<unsigned long long>(mismatches[i].cycle),
                mismatches[i].what.c_str());
  }
  for (const auto& line : context) std::printf("  %s\n", line.c_str());
  const uint64_t from = m.cycle > kTraceWindow ? m.cycle - kTraceWindow : 0;
  const uint64_t run_to = cycles != 0 ? cycles : m.cycle + kCyclesAfterMismatch + 1;
  std::printf(
      "reproduce with a waveform of cycles %llu..%llu:\n  %s --seed %llu --cycles %llu%s "
      "--trace mismatch.fst --trace-from %llu\n",
      static_cast<unsigned long long>(from),
      static_cast<unsigned long long>(m.cycle + kCyclesAfterMismatch), repro.c_str(),
      static_cast<unsigned long long>(seed), static_cast<unsigned long long>(run_to), args.c_str(),
      static_cast<unsigned long long>(from));
}

/// Runs a bench's body after its options are parsed; returns its exit status.
template <typename Body>
int run_guarded(const std::string& trace, Body body) {
#ifndef NPUGEN_TRACE
  if (!trace.empty()) {
    std::fputs("error: this build has no tracing; npugen sim --trace builds one that has\n",
               stderr);
    return 2;
  }
#else
  (void)trace;
#endif
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}

/// A bench's whole main: the design's default seed and cycles over `options`, the command
/// line, then `run(options)` guarded.
template <typename Run>
int bench_main(int argc, char** argv, const BenchSpec& spec, BenchOptions options, Run run) {
  options.seed = npugen::design::kDefaultSeed;
  options.cycles = npugen::design::kDefaultCycles;
  if (const int status = parse_bench_options(argc, argv, spec, options); status >= 0) {
    return status;
  }
  return run_guarded(options.trace, [&] { return run(options); });
}

}  // namespace npugen::tb
