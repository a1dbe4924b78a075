#include "vq/stimulus.hpp"

#include <algorithm>

#include "npugen/golden/vq/format.hpp"
#include "npugen/golden/vq/reference.hpp"

namespace npugen::tb {

using namespace golden::vq_csr;

VqStimulus::VqStimulus(const golden::VqParams& params, const VqStimulusOptions& options,
                       uint64_t seed)
    : p_(params), o_(options), rng_(seed), apb_(golden::vq_csr::register_map(params).addr_bits()) {
  in_.index.assign(p_.copies, 0);
  in_.raw.assign(p_.beat_weights(), 0);
  in_.cb_data.assign(p_.row_weights, 0);
  k_ = p_.row_log2();
  if (o_.throughput) valid_per_256_ = ready_per_256_ = 256;
  plan_cycle();
}

uint32_t VqStimulus::draw_weight() {
  const golden::WeightFormat f = p_.weight;
  const uint64_t r = rng_();
  if ((r & 7) == 0 || !f.is_float()) return static_cast<uint32_t>(r >> 8) & golden::format_mask(f);
  // Mostly finite numbers of every magnitude the format has, for the float formats.
  const double mantissa = static_cast<double>((r >> 11) & 0xfffff) / 0x100000 - 0.5;
  const int exponent = static_cast<int>((r >> 40) % 40) - 20;
  return golden::encode_weight(f, std::ldexp(mantissa, exponent));
}

void VqStimulus::new_beat() {
  // Indices mostly inside the current table; one in 32 anywhere (may fall outside).
  const uint64_t vectors_in_table = (uint64_t{p_.rows} - base_) << (p_.row_log2() - k_);
  const uint64_t span = std::min<uint64_t>(vectors_in_table, p_.rows);
  for (auto& index : in_.index) {
    index = static_cast<uint32_t>(chance(8) ? rng_() % p_.rows : rng_() % span);
  }
  for (auto& w : in_.raw) w = draw_weight();
}

void VqStimulus::plan_cycle() {
  in_.cb_we = false;
  if (!loaded()) {  // the initial load, one row per cycle
    in_.cb_we = true;
    in_.cb_row = load_row_;
    for (auto& w : in_.cb_data) w = draw_weight();
  } else if (reload_left_ > 0) {  // a reload of random rows, while beats wait
    --reload_left_;
    in_.cb_we = true;
    in_.cb_row = static_cast<unsigned>(rng_() % p_.rows);
    for (auto& w : in_.cb_data) w = draw_weight();
  }
  if (!o_.throughput && !apb_.busy()) {
    if (chance(4)) {  // clear STATUS, or a CTRL write it must refuse
      if (chance(128) || p_.min_vlen_log2() == 0) {
        apb_.push({true, kStatus, static_cast<uint32_t>(rng_())});
      } else {
        apb_.push({true, kCtrl,
                   1U | (static_cast<uint32_t>(rng_() % p_.min_vlen_log2()) << kCtrlVlenLsb)});
      }
    } else if (chance(96)) {  // a read of a register, or of any address (PSLVERR on most)
      const uint32_t r = static_cast<uint32_t>(rng_());
      apb_.push({false, chance(64) ? r : (r % 4) * 4, 0});
    }
  }
  in_.apb = apb_.plan(rng_);
  if (!beat_pending_ && loaded()) {
    new_beat();
    beat_pending_ = true;
  }
  in_.in_valid = beat_pending_ && chance(valid_per_256_);
  in_.out_ready = chance(ready_per_256_);
}

void VqStimulus::advance(bool beat_taken, const golden::ApbResponse& apb) {
  apb_.advance(apb);
  if (in_.cb_we) {
    ++codebook_writes_;
    if (!loaded()) ++load_row_;
  }
  if (beat_taken) {
    beat_pending_ = false;
    if (beats_left_ > 0) --beats_left_;
  }
  if (loaded() && beats_left_ == 0 && !apb_.busy() && reload_left_ == 0) {
    // The next layer: the register writes overlap the stream of the layer before.
    ++layers_;
    const unsigned lengths = p_.row_log2() - p_.min_vlen_log2() + 1;
    if (o_.throughput) {
      k_ = p_.min_vlen_log2() + static_cast<unsigned>(layers_ % lengths);
      base_ = 0;
      vq_ = true;
      beats_left_ = o_.beats_per_layer;
    } else {
      k_ = p_.min_vlen_log2() + static_cast<unsigned>(rng_() % lengths);
      base_ = chance(64) ? 0 : static_cast<unsigned>(rng_() % p_.rows);
      vq_ = !chance(24);
      beats_left_ = 1 + static_cast<unsigned>(rng_() % 80);
      valid_per_256_ = 64 + static_cast<unsigned>(rng_() % 193);
      ready_per_256_ = 64 + static_cast<unsigned>(rng_() % 193);
      const unsigned most =
          o_.reload_rows_max == 0 ? p_.rows : std::min(p_.rows, o_.reload_rows_max);
      if (chance(40)) reload_left_ = 1 + static_cast<unsigned>(rng_() % most);
    }
    // CTRL, then BASE (its unused high bits arbitrary: they must be ignored).
    apb_.push({true, kCtrl, (vq_ ? 1U : 0U) << kCtrlVqEnBit | k_ << kCtrlVlenLsb});
    apb_.push(
        {true, kBase, base_ | (chance(32) ? static_cast<uint32_t>(rng_()) & ~(p_.rows - 1) : 0U)});
  }
  plan_cycle();
}

VqReferenceTracker::VqReferenceTracker(const golden::VqParams& params)
    : p_(params),
      flat_(size_t{params.rows} * params.row_weights, 0),
      vq_(true),
      vector_length_(params.row_weights) {}

void VqReferenceTracker::clock(const golden::VqInputs& in, bool accepted) {
  const uint32_t mask = golden::format_mask(p_.weight);
  if (accepted) {
    Beat beat;
    beat.weights.assign(p_.beat_weights(), 0);
    if (!vq_) {
      for (size_t i = 0; i < beat.weights.size(); ++i) beat.weights[i] = in.raw[i] & mask;
    } else {
      for (unsigned lookup = 0; lookup < p_.copies; ++lookup) {
        const auto v = golden::reference::vq_lookup(flat_, p_.row_weights, base_, vector_length_,
                                                    in.index[lookup] % p_.rows);
        if (!v) {
          beat.error = true;
          continue;
        }
        std::copy(v->begin(), v->end(), beat.weights.begin() + lookup * vector_length_);
      }
    }
    beats_.push_back(std::move(beat));
  }
  if (in.apb.write() && in.apb.paddr == kCtrl) {
    const unsigned length = 1U << ((in.apb.pwdata >> kCtrlVlenLsb) & 0xf);
    if (length >= p_.min_vector_length && length <= p_.row_weights) {
      vq_ = (in.apb.pwdata & 1U) != 0;
      vector_length_ = length;
    }
  }
  if (in.apb.write() && in.apb.paddr == kBase) base_ = in.apb.pwdata % p_.rows;
  if (in.cb_we) {
    for (unsigned j = 0; j < p_.row_weights; ++j) {
      flat_[size_t{in.cb_row} * p_.row_weights + j] = in.cb_data[j] & mask;
    }
  }
}

}  // namespace npugen::tb
