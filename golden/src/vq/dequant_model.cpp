#include "npugen/golden/vq/dequant_model.hpp"

#include <algorithm>

#include "npugen/golden/vq/format.hpp"

namespace npugen::golden {

using namespace vq_csr;

VqDequantModel::VqDequantModel(const VqParams& params)
    : p_(params),
      map_(vq_csr::register_map(params)),
      ctrl_(ctrl_reset(params)),
      table_(size_t{params.rows} * params.row_weights, 0),
      beat_weights_(params.beat_weights(), 0),
      beat_vlen_(params.row_log2()) {}

bool VqDequantModel::in_ready(const VqInputs& in) const {
  return !in.cb_we && (!beat_valid_ || in.out_ready);
}

uint32_t VqDequantModel::read(uint32_t offset) const {
  switch (offset) {
    case kCtrl:
      return ctrl_;
    case kBase:
      return base_;
    case kStatus:
      return status_;
    default:
      return info_value(p_);
  }
}

VqOutputs VqDequantModel::outputs(const VqInputs& in) const {
  VqOutputs o;
  o.in_ready = in_ready(in);
  o.out_valid = beat_valid_;
  o.out_weights = beat_weights_;
  o.out_vlen_log2 = beat_vlen_;
  o.out_vq = beat_vq_;
  o.out_err = beat_err_;
  o.err = ((status_ >> kStatusIndexErrBit) & 1U) != 0;
  o.apb = apb_response(map_, in.apb,
                       [&](const regmap::RegisterAt& r) { return read(r.offset); });
  return o;
}

void VqDequantModel::tick(const VqInputs& in) {
  const bool accept = in.in_valid && in_ready(in);
  const bool vq = ((ctrl_ >> kCtrlVqEnBit) & 1U) != 0;
  const unsigned k = (ctrl_ >> kCtrlVlenLsb) & ((1U << kCtrlVlenBits) - 1);
  const uint32_t mask = format_mask(p_.weight);
  uint32_t status_set = 0;

  if (accept) {
    beat_valid_ = true;
    beat_vq_ = vq;
    beat_err_ = false;
    std::fill(beat_weights_.begin(), beat_weights_.end(), 0);
    if (!vq) {
      for (size_t i = 0; i < beat_weights_.size(); ++i) beat_weights_[i] = in.raw[i] & mask;
      beat_vlen_ = p_.row_log2();
    } else {
      beat_vlen_ = k;
      const unsigned per_row_log2 = p_.row_log2() - k;  // vectors in a row: M/m
      const unsigned m = 1U << k;
      for (unsigned lookup = 0; lookup < p_.copies; ++lookup) {
        const uint32_t index = in.index[lookup] & (p_.rows - 1);
        const uint64_t row = uint64_t{base_} + (index >> per_row_log2);
        if (row >= p_.rows) {
          beat_err_ = true;
          continue;  // its weights read as zero
        }
        const uint32_t offset = (index & ((1U << per_row_log2) - 1)) << k;
        const uint32_t* from = &table_[row * p_.row_weights + offset];
        std::copy_n(from, m, &beat_weights_[size_t{lookup} * m]);
      }
      if (beat_err_) status_set |= 1U << kStatusIndexErrBit;
    }
  } else if (beat_valid_ && in.out_ready) {
    beat_valid_ = false;
  }

  // A register write: each register's writable bits from the map; the hardware's own
  // updates (STATUS flags set this cycle) win over a clear.
  uint32_t status = status_;
  if (const auto target = apb_target(map_, in.apb); target && in.apb.pwrite) {
    const uint32_t wdata = in.apb.pwdata;
    switch (target->offset) {
      case kCtrl:
        if (p_.vlen_supported((wdata >> kCtrlVlenLsb) & ((1U << kCtrlVlenBits) - 1))) {
          ctrl_ = target->reg->after_write(ctrl_, wdata);
        } else {
          status_set |= 1U << kStatusCfgErrBit;
        }
        break;
      case kBase:
        base_ = target->reg->after_write(base_, wdata);
        break;
      case kStatus:
        status = target->reg->after_write(status_, wdata);
        break;
      default:
        break;  // INFO is read only
    }
  }
  status_ = status | status_set;

  if (in.cb_we) {
    for (unsigned j = 0; j < p_.row_weights; ++j) {
      table_[size_t{in.cb_row % p_.rows} * p_.row_weights + j] = in.cb_data[j] & mask;
    }
  }
}

}  // namespace npugen::golden
