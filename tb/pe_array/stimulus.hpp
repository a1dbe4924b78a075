// Seeded random stimulus for the PE array: the same seed gives the same steps on
// every platform (raw 64-bit Mersenne Twister output, no library distributions). A step
// offered stays offered until it is taken (valid/ready); the results' ready is drawn
// every cycle.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "npugen/golden/pe_array/model.hpp"

namespace npugen::tb {

struct StimulusOptions {
  double valid_probability = 0.9;  ///< share of cycles that offer a new step
  unsigned max_dot_length = 16;    ///< dot products are 1..max_dot_length steps long
  double ready_probability = 1.0;  ///< share of cycles the results may leave
};

class PeArrayStimulus {
 public:
  PeArrayStimulus(const golden::PeArrayParams& params, const StimulusOptions& options,
                  uint64_t seed);

  /// This cycle's inputs. The spans stay valid until advance().
  [[nodiscard]] const golden::PeArrayInputs& inputs() const { return in_; }
  /// The clock edge: `taken` says whether the offered step was taken.
  void advance(bool taken);

 private:
  void draw_step();
  uint32_t draw(unsigned width, bool is_signed, bool extreme);
  static uint32_t corner_value(unsigned width, bool is_signed, bool high);

  /// Valid steps between two all-lanes corner steps.
  static constexpr uint64_t kCornerPeriod = 16;

  golden::PeArrayParams params_;
  StimulusOptions options_;
  std::mt19937_64 rng_;
  uint64_t valid_threshold_;
  uint64_t ready_threshold_;
  std::vector<uint32_t> weights_;
  std::vector<uint32_t> acts_;
  golden::PeArrayInputs in_;
  unsigned remaining_ = 0;  // steps left in the current dot product
  uint64_t valid_steps_ = 0;
  unsigned corners_ = 0;  // corner steps so far: which corner is next
};

}  // namespace npugen::tb
