// Seeded jobs for the zero-skipping array's co-simulation: weight tensors with the
// sparsity patterns the array must handle, and activations. Raw 64-bit Mersenne Twister
// output only, so the same seed gives the same jobs everywhere.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "npugen/golden/zs/params.hpp"

namespace npugen::tb {

struct ZsJob {
  std::string pattern;                    ///< how the weights were drawn
  golden::HierTensor weights;             ///< [T][C][L] values
  std::vector<uint32_t> acts;             ///< [C][L] raw activations
  std::vector<golden::StreamStep> steps;  ///< what the buffers receive
  uint64_t schedule_steps = 0;            ///< S (0 for an all-zero job)
};

/// Patterns, in the order jobs cycle through them.
const std::vector<std::string>& zs_patterns();

class ZsJobSource {
 public:
  ZsJobSource(const golden::ZeroSkipParams& params, unsigned max_rows, uint64_t seed);
  /// The next job, preprocessed and proven against the contract (throws if not).
  ZsJob next();

 private:
  uint64_t below(uint64_t n) { return rng_() % n; }
  bool chance(double p) { return static_cast<double>(rng_() >> 11) * 0x1.0p-53 < p; }
  int64_t value();

  golden::ZeroSkipParams p_;
  unsigned max_rows_;
  std::mt19937_64 rng_;
  uint64_t count_ = 0;
  unsigned corners_ = 0;  // corner jobs so far: which corner is next
};

}  // namespace npugen::tb
