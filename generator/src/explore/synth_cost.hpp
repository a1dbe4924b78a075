// The hardware cost of a design's NPU top for npugen explore: Yosys cells and flip-flops of
// its own synthesis script (hierarchical, to generic gates), cached by the manifest's hash of
// every generated file, so that a point synthesized once, by any run or shard sharing the
// cache, costs nothing again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "elab/design.hpp"

namespace npugen::explore {

struct SynthCost {
  uint64_t cells = 0, ffs = 0;
  double seconds = 0;  ///< Yosys's wall time when it ran (the cached record's when cached)
  bool cached = false;
  std::string manifest_hash;
  std::string error;  ///< empty: the cost is known
};

/// The NPU top's cost: `cache/<hash>.json` when there, else the design is written to
/// `cache/work/<hash>`, synthesized, counted and recorded (atomically; the work folder is
/// removed). Safe to call from several threads and processes on one cache.
SynthCost synth_cost(const elab::Design& design, const std::filesystem::path& cache);

/// The hash that keys the cache: the generated files' content hashes (the manifest's file
/// list) and the NPU top's name, without where the configuration file was.
std::string manifest_hash(const elab::Design& design);

/// Cells and flip-flops of the hierarchy's total in the output of Yosys's `stat`.
struct StatCounts {
  uint64_t cells = 0, ffs = 0;
  bool found = false;
};
StatCounts parse_yosys_stat(const std::string& text);

}  // namespace npugen::explore
