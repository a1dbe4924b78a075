#include "npugen/golden/pe_array/model.hpp"

#include <stdexcept>

#include "npugen/golden/pe_array/operand.hpp"

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
  ring_.assign(params_.tree_stages + 1, InFlight{});
  for (auto& slot : ring_) slot.sums.assign(params_.tiles, 0);
  head_ = 0;
  acts_.assign(params_.lanes, 0);
  acc_.assign(params_.tiles, 0);
  acc_valid_ = false;
}

void PeArrayModel::compute_sums(const PeArrayStep& step, std::vector<uint64_t>& sums) {
  const unsigned tiles = params_.tiles;
  const unsigned lanes = params_.lanes;
  if (step.weights.size() != size_t{tiles} * lanes || step.acts.size() != lanes) {
    throw std::invalid_argument("PeArrayModel::tick: weights must hold T*L and acts L values");
  }
  for (unsigned l = 0; l < lanes; ++l) {
    acts_[l] = extend_operand(step.acts[l], params_.act_width, params_.act_signed);
  }
  const unsigned ww = params_.weight_width;
  const bool ws = params_.weight_signed;
  const uint32_t* w = step.weights.data();
  for (unsigned t = 0; t < tiles; ++t, w += lanes) {
    uint64_t sum = 0;
    for (unsigned l = 0; l < lanes; ++l) sum += extend_operand(w[l], ww, ws) * acts_[l];
    sums[t] = sum;
  }
}

PeArrayOutputs PeArrayModel::tick(const PeArrayStep& step) {
  // The newest slot takes this step; the oldest (the same slot when the tree has no
  // registers) is the step that reaches the accumulators at this edge.
  InFlight& entering = ring_[head_];
  entering.valid = step.valid;
  entering.first = step.first;
  entering.last = step.last;
  if (step.valid) compute_sums(step, entering.sums);
  head_ = head_ + 1 == ring_.size() ? 0 : head_ + 1;
  const InFlight& leaving = ring_[head_];

  if (leaving.valid) {
    for (unsigned t = 0; t < params_.tiles; ++t) {
      acc_[t] = ((leaving.first ? 0 : acc_[t]) + leaving.sums[t]) & acc_mask_;
    }
  }
  acc_valid_ = leaving.valid && leaving.last;
  return PeArrayOutputs{acc_valid_, acc_};
}

}  // namespace npugen::golden
