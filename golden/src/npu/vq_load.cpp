#include "npugen/golden/npu/vq_load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace npugen::golden {
namespace {

uint32_t bits_at(const std::vector<uint8_t>& bytes, uint64_t lsb, unsigned width) {
  uint32_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const uint64_t bit = lsb + i;
    if (bit / 8 < bytes.size() && ((bytes[bit / 8] >> (bit % 8)) & 1U) != 0) v |= 1U << i;
  }
  return v;
}

const VqParams& checked(const VqParams& p, unsigned row_weights) {
  if (p.weight.kind != WeightKind::kInt || p.weight.width != 8) {
    throw std::invalid_argument("VqLoadModel: the weight store holds int8 weights");
  }
  if (row_weights % p.beat_weights() != 0) {
    throw std::invalid_argument(
        fmt::format("VqLoadModel: a row of {} weights is not a whole number of beats of {}",
                    row_weights, p.beat_weights()));
  }
  return p;
}

}  // namespace

VqLoadModel::VqLoadModel(const VqParams& params, unsigned row_weights)
    : p_(checked(params, row_weights)),
      row_weights_(row_weights),
      dq_(params),
      acc_(row_weights, 0) {}

unsigned VqLoadModel::beats() const {
  const unsigned per_beat = dq_.vq_enabled() ? p_.copies << dq_.vlen_log2() : p_.beat_weights();
  return row_weights_ / per_beat;
}

VqInputs VqLoadModel::dequant_inputs(const VqLoadInputs& in) const {
  VqInputs q;
  q.in_valid = busy_ && !written_ && taken_ < beats();
  q.index.assign(p_.copies, 0);
  q.raw.assign(p_.beat_weights(), 0);
  const unsigned ib = p_.index_bits();
  for (unsigned c = 0; c < p_.copies; ++c) {
    q.index[c] = bits_at(data_, (uint64_t{taken_} * p_.copies + c) * ib, ib);
  }
  for (unsigned w = 0; w < p_.beat_weights(); ++w) {
    q.raw[w] = bits_at(data_, (uint64_t{taken_} * p_.beat_weights() + w) * 8, 8);
  }
  q.out_ready = true;
  q.cb_we = in.cb_we;
  q.cb_row = in.cb_row;
  q.cb_data.assign(p_.row_weights, 0);
  if (in.cb_we) {
    for (unsigned j = 0; j < p_.row_weights; ++j) q.cb_data[j] = bits_at(*in.cb_data, j * 8, 8);
  }
  q.apb = in.apb;
  return q;
}

VqLoadOutputs VqLoadModel::outputs(const VqLoadInputs& in) const {
  VqLoadOutputs o;
  const VqOutputs d = dq_.outputs(dequant_inputs(in));
  o.in_ready = !busy_;
  o.busy = busy_;
  o.st_valid = written_;
  o.st_row = row_;
  o.st_data = acc_;
  o.apb = d.apb;
  o.err = d.err;
  return o;
}

void VqLoadModel::tick(const VqLoadInputs& in) {
  const VqInputs q = dequant_inputs(in);
  const VqOutputs d = dq_.outputs(q);
  const unsigned beats_now = beats();
  const bool stored = written_ && in.st_ready;  // the row's store write is taken
  const bool take = in.in_valid && !busy_;      // a transfer (while idle, as in_ready says)
  const bool beat_taken = q.in_valid && d.in_ready;
  if (d.out_valid) {  // shift the beat in: its weights end up above the row's older ones
    const unsigned n = std::min(p_.copies << d.out_vlen_log2, row_weights_);
    std::rotate(acc_.begin(), acc_.begin() + n, acc_.end());
    for (unsigned w = 0; w < n; ++w) {
      acc_[row_weights_ - n + w] = static_cast<uint8_t>(d.out_weights[w] & 0xffU);
    }
    if (++shifted_ == beats_now) written_ = true;
  }
  if (beat_taken) ++taken_;
  if (stored) busy_ = written_ = false;
  if (take) {
    busy_ = true;
    written_ = false;
    row_ = in.row;
    data_.assign(row_weights_, 0);  // the row's bits of the host data
    if (in.data != nullptr) {
      std::copy_n(in.data->begin(), std::min<size_t>(row_weights_, in.data->size()), data_.begin());
    }
    taken_ = shifted_ = 0;
  }
  dq_.tick(q);
}

}  // namespace npugen::golden
