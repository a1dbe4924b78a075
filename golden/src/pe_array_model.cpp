#include "npugen/golden/pe_array_model.hpp"

#include <stdexcept>

namespace npugen::golden {

PeArrayModel::PeArrayModel(const PeArrayParams& params)
    : params_(params),
      acc_mask_(params.acc_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << params.acc_width) - 1) {
  if (params.tiles == 0 || params.lanes == 0) {
    throw std::invalid_argument("PeArrayModel: tiles and lanes must be at least 1");
  }
  if (params.weight_width == 0 || params.weight_width > 32 || params.act_width == 0 ||
      params.act_width > 32 || params.acc_width == 0 || params.acc_width > 64) {
    throw std::invalid_argument("PeArrayModel: operand widths must be 1..32, accumulator 1..64");
  }
  reset();
}

void PeArrayModel::reset() {
  pipeline_.assign(params_.tree_stages, InFlight{false, false, false, {}});
  acc_.assign(params_.tiles, 0);
  acc_valid_ = false;
}

// Sign- or zero-extends a raw operand to 64 bits; products then wrap modulo 2^64,
// which is exact modulo 2^acc_width for every acc_width <= 64.
uint64_t PeArrayModel::operand(uint32_t raw, unsigned width, bool is_signed) const {
  const uint64_t value = width >= 32 ? raw : (raw & ((uint32_t{1} << width) - 1));
  if (is_signed && width < 64 && ((value >> (width - 1)) & 1U) != 0) {
    return value | (~uint64_t{0} << width);
  }
  return value;
}

PeArrayOutputs PeArrayModel::tick(const PeArrayStep& step) {
  const unsigned tiles = params_.tiles;
  const unsigned lanes = params_.lanes;

  InFlight entering{step.valid, step.first, step.last, {}};
  if (step.valid) {
    if (step.weights.size() != size_t{tiles} * lanes || step.acts.size() != lanes) {
      throw std::invalid_argument("PeArrayModel::tick: weights must hold T*L and acts L values");
    }
    entering.sums.assign(tiles, 0);
    for (unsigned t = 0; t < tiles; ++t) {
      uint64_t sum = 0;
      const uint32_t* w = step.weights.data() + size_t{t} * lanes;
      for (unsigned l = 0; l < lanes; ++l) {
        sum += operand(w[l], params_.weight_width, params_.weight_signed) *
               operand(step.acts[l], params_.act_width, params_.act_signed);
      }
      entering.sums[t] = sum;
    }
  }

  // The entry leaving the adder tree this edge is the oldest one; with no tree
  // registers it is the step on the inputs right now.
  InFlight leaving;
  if (pipeline_.empty()) {
    leaving = std::move(entering);
  } else {
    leaving = std::move(pipeline_.front());
    pipeline_.pop_front();
    pipeline_.push_back(std::move(entering));
  }

  if (leaving.valid) {
    for (unsigned t = 0; t < tiles; ++t) {
      acc_[t] = ((leaving.first ? 0 : acc_[t]) + leaving.sums[t]) & acc_mask_;
    }
  }
  acc_valid_ = leaving.valid && leaving.last;
  return PeArrayOutputs{acc_valid_, acc_};
}

}  // namespace npugen::golden
