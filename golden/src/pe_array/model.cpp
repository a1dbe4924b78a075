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
  tree_.reset(params_.tree_stages, InFlight{false, false, false,
                                            std::vector<uint64_t>(params_.tiles, 0)});
  acts_.assign(params_.lanes, 0);
  acc_.assign(params_.tiles, 0);
  acc_valid_ = false;
}

PeArrayOutputs PeArrayModel::outputs(const PeArrayInputs& in) const {
  const bool hold = acc_valid_ && !in.acc_ready;
  return PeArrayOutputs{!hold, acc_valid_, acc_};
}

void PeArrayModel::compute_sums(const PeArrayInputs& in, std::vector<uint64_t>& sums) {
  const unsigned tiles = params_.tiles;
  const unsigned lanes = params_.lanes;
  if (in.weights.size() != size_t{tiles} * lanes || in.acts.size() != lanes) {
    throw std::invalid_argument("PeArrayModel::tick: weights must hold T*L and acts L values");
  }
  for (unsigned l = 0; l < lanes; ++l) {
    acts_[l] = extend_operand(in.acts[l], params_.act_width, params_.act_signed);
  }
  const unsigned ww = params_.weight_width;
  const bool ws = params_.weight_signed;
  const uint32_t* w = in.weights.data();
  for (unsigned t = 0; t < tiles; ++t, w += lanes) {
    uint64_t sum = 0;
    for (unsigned l = 0; l < lanes; ++l) sum += extend_operand(w[l], ww, ws) * acts_[l];
    sums[t] = sum;
  }
}

void PeArrayModel::tick(const PeArrayInputs& in) {
  if (acc_valid_ && !in.acc_ready) return;  // the results wait: everything holds
  // The step offered enters the tree's pipeline; the one leaving it reaches the
  // accumulators at this edge (the same step when the tree has no registers).
  InFlight& entering = tree_.entering();
  entering.valid = in.valid;
  entering.first = in.first;
  entering.last = in.last;
  if (in.valid) compute_sums(in, entering.sums);
  const InFlight& leaving = tree_.advance();
  if (leaving.valid) {
    for (unsigned t = 0; t < params_.tiles; ++t) {
      acc_[t] = ((leaving.first ? 0 : acc_[t]) + leaving.sums[t]) & acc_mask_;
    }
  }
  acc_valid_ = leaving.valid && leaving.last;
}

}  // namespace npugen::golden
