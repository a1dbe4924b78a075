// Seeded random stimulus for the PE array: the same seed gives the same steps on
// every platform (raw 64-bit Mersenne Twister output, no library distributions).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "npugen/golden/pe_array/model.hpp"

namespace npugen::tb {

struct StimulusOptions {
  double valid_probability = 0.9;  ///< share of cycles that present a step
  unsigned max_dot_length = 16;    ///< dot products are 1..max_dot_length steps long
};

class PeArrayStimulus {
 public:
  PeArrayStimulus(const golden::PeArrayParams& params, const StimulusOptions& options,
                  uint64_t seed);

  /// The inputs of the next cycle. The step's spans stay valid until the next call.
  const golden::PeArrayStep& next();

 private:
  uint32_t draw(unsigned width, bool is_signed, bool extreme);
  static uint32_t corner_value(unsigned width, bool is_signed, bool high);

  /// Valid steps between two all-lanes corner steps.
  static constexpr uint64_t kCornerPeriod = 16;

  golden::PeArrayParams params_;
  StimulusOptions options_;
  std::mt19937_64 rng_;
  uint64_t valid_threshold_;
  std::vector<uint32_t> weights_;
  std::vector<uint32_t> acts_;
  golden::PeArrayStep step_;
  unsigned remaining_ = 0;  // steps left in the current dot product
  uint64_t valid_steps_ = 0;
  unsigned corners_ = 0;  // corner steps so far: which corner is next
};

}  // namespace npugen::tb
