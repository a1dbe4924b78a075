#include "npugen/golden/post/model.hpp"

namespace npugen::golden {
namespace {

int32_t int8_field(uint32_t word, unsigned lsb) {
  return static_cast<int8_t>(static_cast<uint8_t>(word >> lsb));
}

}  // namespace

PostModel::PostModel(const PostParams& params)
    : p_(params),
      map_(post_csr::register_map(params)),
      output_(post_csr::kOutputReset),
      table_(static_cast<size_t>(params.groups()) * params.lanes) {
  for (auto& s : stage_) {
    s.values.assign(p_.lanes, 0);
    s.channels.assign(p_.lanes, PostChannel{});
  }
}

Requant PostModel::output() const {
  Requant r;
  r.zero_point = int8_field(output_, post_csr::kZeroPointLsb);
  r.act_min = int8_field(output_, post_csr::kActMinLsb);
  r.act_max = int8_field(output_, post_csr::kActMaxLsb);
  return r;
}

bool PostModel::in_ready(const PostInputs& in) const {
  return !in.param_we && (!stage_[2].valid || in.out_ready);
}

PostOutputs PostModel::outputs(const PostInputs& in) const {
  PostOutputs o;
  o.in_ready = in_ready(in);
  const Beat& b = stage_[2];
  o.out_valid = b.valid;
  o.out_count = b.count;
  o.out.assign(p_.lanes, 0);
  for (unsigned l = 0; l < p_.lanes; ++l) {
    Requant r = b.output;
    r.multiplier = b.channels[l].multiplier;
    r.shift = b.channels[l].shift;
    // The bias is added in the post unit, wrapping at 32 bits as the accumulator does.
    const auto acc = static_cast<int32_t>(static_cast<uint32_t>(b.values[l]) +
                                          static_cast<uint32_t>(b.channels[l].bias));
    o.out[l] = requantize(acc, r);
  }
  o.cfg_err = cfg_err_;
  o.apb = apb_response(map_, in.apb, [&](const regmap::RegisterAt& r) -> uint32_t {
    switch (r.offset) {
      case post_csr::kOutput:
        return output_;
      case post_csr::kStatus:
        return cfg_err_ ? 1U << post_csr::kCfgErrBit : 0;
      default:
        return r.reg->reset_value();
    }
  });
  return o;
}

void PostModel::tick(const PostInputs& in) {
  const bool accept = in.in_valid && in_ready(in);
  const bool move = !stage_[2].valid || in.out_ready;
  if (move) {
    stage_[2] = stage_[1];
    stage_[1] = stage_[0];
    Beat& b = stage_[0];
    b.valid = accept;
    if (accept) {
      b.values = in.acc;
      b.count = in.count;
      b.output = output();
      for (unsigned l = 0; l < p_.lanes; ++l) {
        b.channels[l] = table_[static_cast<size_t>(in.group) * p_.lanes + l];
      }
    }
  }
  if (in.param_we) {
    for (unsigned l = 0; l < p_.lanes; ++l) {
      table_[static_cast<size_t>(in.param_group) * p_.lanes + l] = in.param[l];
    }
  }
  bool set_err = false, clear_err = false;
  if (const auto target = apb_target(map_, in.apb); target && in.apb.pwrite) {
    if (target->offset == post_csr::kOutput) {
      const uint32_t value = target->reg->after_write(output_, in.apb.pwdata);
      if (int8_field(value, post_csr::kActMinLsb) <= int8_field(value, post_csr::kActMaxLsb)) {
        output_ = value;
      } else {
        set_err = true;
      }
    } else if (target->offset == post_csr::kStatus) {
      clear_err = (in.apb.pwdata >> post_csr::kCfgErrBit) & 1U;
    }
  }
  cfg_err_ = (cfg_err_ && !clear_err) || set_err;
}

}  // namespace npugen::golden
