#include "pe_array/stimulus.hpp"

#include <algorithm>

#include "common/bench_options.hpp"

namespace npugen::tb {
PeArrayStimulus::PeArrayStimulus(const golden::PeArrayParams& params,
                                 const StimulusOptions& options, uint64_t seed)
    : params_(params),
      options_(options),
      rng_(seed),
      valid_threshold_(probability_threshold(options.valid_probability)),
      ready_threshold_(probability_threshold(options.ready_probability)),
      weights_(size_t{params.tiles} * params.lanes),
      acts_(params.lanes) {
  in_.weights = weights_;
  in_.acts = acts_;
  draw_step();
  in_.acc_ready = rng_() <= ready_threshold_;
}

void PeArrayStimulus::advance(bool taken) {
  if (taken || !in_.valid) draw_step();
  in_.acc_ready = rng_() <= ready_threshold_;
}

// Uniform raw bits, or (for "extreme" steps) the most negative / largest values,
// which drive the accumulators through their wrap-around.
uint32_t PeArrayStimulus::draw(unsigned width, bool is_signed, bool extreme) {
  const uint64_t r = rng_();
  const uint32_t mask = width >= 32 ? ~uint32_t{0} : ((uint32_t{1} << width) - 1);
  if (!extreme) return static_cast<uint32_t>(r) & mask;
  return corner_value(width, is_signed, (r & 1U) != 0);
}

// The most negative value (low) or the largest (high) of a format, as a raw bit pattern.
uint32_t PeArrayStimulus::corner_value(unsigned width, bool is_signed, bool high) {
  const uint32_t mask = width >= 32 ? ~uint32_t{0} : ((uint32_t{1} << width) - 1);
  const uint32_t max_pos = is_signed ? (mask >> 1) : mask;
  const uint32_t min_neg = is_signed ? (max_pos + 1) : 0;
  return high ? max_pos : min_neg;
}

void PeArrayStimulus::draw_step() {
  in_.valid = rng_() <= valid_threshold_;
  if (!in_.valid) {
    in_.first = in_.last = false;
    return;
  }
  in_.first = remaining_ == 0;
  if (in_.first) remaining_ = 1 + static_cast<unsigned>(rng_() % options_.max_dot_length);
  --remaining_;
  in_.last = remaining_ == 0;
  const bool extreme = (rng_() & 15U) == 0;
  for (auto& w : weights_) w = draw(params_.weight_width, params_.weight_signed, extreme);
  for (auto& a : acts_) a = draw(params_.act_width, params_.act_signed, extreme);
  // Every 16th step, whatever the seed: every lane of every tile multiplies the same corner
  // of both ranges (most negative x most negative, largest x largest, and the two mixed),
  // so the adder tree's full sum width and its sign extension are exercised in every run.
  if (valid_steps_++ % kCornerPeriod == 0) {
    const unsigned corner = corners_++ % 4;
    const uint32_t w = corner_value(params_.weight_width, params_.weight_signed, corner & 1U);
    const uint32_t a =
        corner_value(params_.act_width, params_.act_signed, (corner >> 1) ^ (corner & 1U));
    std::fill(weights_.begin(), weights_.end(), w);
    std::fill(acts_.begin(), acts_.end(), a);
  }
}

}  // namespace npugen::tb
