#include "npugen/golden/post/model.hpp"

#include <algorithm>

namespace npugen::golden {

PostModel::PostModel(const PostParams& params)
    : p_(params),
      map_(post_csr::register_map(params)),
      table_(static_cast<size_t>(params.groups()) * params.lanes),
      stage_(params.pipeline_stages) {
  for (auto& s : stage_) {
    s.values.assign(p_.lanes, 0);
    s.channels.assign(p_.lanes, PostChannel{});
  }
}

bool PostModel::in_ready(const PostInputs& in) const {
  return !stage_.back().valid || in.out_ready;
}

PostOutputs PostModel::outputs(const PostInputs& in) const {
  PostOutputs o;
  o.in_ready = in_ready(in);
  const Beat& b = stage_.back();
  o.out_valid = b.valid;
  o.out_count = b.count;
  o.out.assign(p_.lanes, 0);
  for (unsigned l = 0; l < p_.lanes; ++l) {
    Requant r;
    r.zero_point = b.output.zero_point;
    r.act_min = b.output.act_min;
    r.act_max = b.output.act_max;
    r.multiplier = b.channels[l].multiplier;
    r.shift = b.channels[l].shift;
    // The bias is added in the post unit, wrapping at 32 bits as the accumulator does.
    const auto acc = static_cast<int32_t>(static_cast<uint32_t>(b.values[l]) +
                                          static_cast<uint32_t>(b.channels[l].bias));
    o.out[l] = requantize(acc, r);
  }
  o.apb =
      apb_response(map_, in.apb, [&](const regmap::RegisterAt& r) { return r.reg->reset_value(); });
  return o;
}

void PostModel::tick(const PostInputs& in) {
  const bool accept = in.in_valid && in_ready(in);
  const bool move = !stage_.back().valid || in.out_ready;
  if (move) {
    // The beats move one register on; the last one's (taken or never offered) becomes the
    // first register's, overwritten when a beat is accepted.
    std::rotate(stage_.begin(), stage_.end() - 1, stage_.end());
    Beat& b = stage_[0];
    b.valid = accept;
    if (accept) {
      b.values = in.acc;
      b.count = in.count;
      b.output = in.output;
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
}

}  // namespace npugen::golden
