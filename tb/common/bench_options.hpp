// The command line of every block's co-simulation bench. It is parsed in a translation unit
// of its own that depends on no design (bench_options.cpp), so the heavy CLI11 header is
// compiled once and cached, not once per design and block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npugen::tb {

struct BenchOptions {
  uint64_t seed = 1;
  uint64_t cycles = 20000;
  std::string mode = "check";
  std::string trace;        ///< FST waveform file (a build with tracing only)
  uint64_t trace_from = 0;  ///< first cycle written to the waveform
  std::string repro;        ///< command prefix printed in the reproduce line
  std::string vectors;      ///< stimulus and expected outputs, one cycle a line
  std::string descriptors;  ///< a task list to run instead of the random scenarios
  std::string summary;      ///< JSON summary file
  std::string run;          ///< a run file (npugen run): compiled network, input, reference
  std::string results;      ///< where the run's layer tensors and cycles go
  unsigned max_rows = 0;    ///< most rows of a zero-skipping job
  double valid_probability = 0.9;
};

/// What one bench accepts beyond seed, cycles, trace, trace-from and repro.
struct BenchSpec {
  std::string title;
  std::vector<std::string> modes = {"check"};
  std::string modes_help = "check: RTL against the golden model";
  bool vectors = false;
  bool descriptors = false;
  bool run = false;               ///< takes --run and --results (the NPU)
  unsigned max_rows_limit = 0;    ///< 0: no --max-rows
  unsigned max_rows_default = 0;  ///< --max-rows when not given
  bool valid_probability = false;
};

/// Parses the command line into `options` (which holds the defaults). Returns -1 when the
/// bench should run, otherwise the exit status (0 after --help, 2 for a bad option).
int parse_bench_options(int argc, char** argv, const BenchSpec& spec, BenchOptions& options);

/// A raw 64-bit draw at or below this is "yes" with probability p (raw draws only, so a
/// seed reproduces on every platform).
uint64_t probability_threshold(double p);

}  // namespace npugen::tb
