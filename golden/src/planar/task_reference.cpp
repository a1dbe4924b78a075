#include "npugen/golden/planar/task_reference.hpp"

#include <algorithm>
#include <array>

#include "npugen/golden/planar/reference.hpp"

namespace npugen::golden {

std::vector<int8_t> planar_reference_output(const PlanarTask& t, const reference::Tensor& a,
                                            const reference::Tensor& b,
                                            const std::vector<PlanarGain>& gains) {
  Requant out;
  out.multiplier = t.out_multiplier, out.shift = t.out_shift;
  out.zero_point = t.out_zero_point, out.act_min = t.act_min, out.act_max = t.act_max;
  reference::PoolWindow w;
  w.kernel_h = static_cast<int>(t.kernel_h), w.kernel_w = static_cast<int>(t.kernel_w);
  w.stride_y = static_cast<int>(t.stride_y), w.stride_x = static_cast<int>(t.stride_x);
  w.pad_top = static_cast<int>(t.pad_top), w.pad_bottom = static_cast<int>(t.pad_bottom);
  w.pad_left = static_cast<int>(t.pad_left), w.pad_right = static_cast<int>(t.pad_right);
  const auto axis = t.axis == PlanarAxis::kSpatial ? reference::ReduceAxis::kSpatial
                                                   : reference::ReduceAxis::kChannels;
  switch (t.op) {
    case PlanarOp::kMaxPool:
      return reference::max_pool(a, w, t.act_min, t.act_max).data;
    case PlanarOp::kAvgPool:
      return reference::avg_pool(a, w, t.act_min, t.act_max).data;
    case PlanarOp::kAdd: {
      reference::AddParams p;
      p.a_zero_point = t.a_zero_point, p.b_zero_point = t.b_zero_point;
      p.left_shift = static_cast<int>(t.left_shift);
      p.a_multiplier = t.a_multiplier, p.b_multiplier = t.b_multiplier;
      p.a_shift = t.a_shift, p.b_shift = t.b_shift, p.output = out;
      return reference::add(a, b, p).data;
    }
    case PlanarOp::kGainBias: {
      reference::GainBias g;
      g.input_zero_point = t.a_zero_point;
      for (unsigned c = 0; c < t.channels; ++c) {
        g.bias.push_back(gains[c].bias);
        Requant r = out;
        // The table's shift field means -31 for -32 (PlanarParams::kMinTableShift).
        r.multiplier = gains[c].multiplier;
        r.shift = std::max(gains[c].shift, PlanarParams::kMinTableShift);
        g.output.push_back(r);
      }
      return reference::gain_bias(a, g).data;
    }
    case PlanarOp::kReduceSum:
      return reference::reduce_sum(a, axis, t.a_zero_point, std::vector<Requant>(t.channels, out))
          .data;
    case PlanarOp::kReduceMax:
      return reference::reduce_max(a, axis, t.act_min, t.act_max).data;
    case PlanarOp::kActivation:
      return reference::clamp(a, t.act_min, t.act_max).data;
    case PlanarOp::kLut: {
      std::array<int8_t, 256> table{};
      for (unsigned i = 0; i < table.size(); ++i) table[i] = lut_byte(gains, i);
      return reference::lookup(a, table, t.act_min, t.act_max).data;
    }
  }
  return {};
}

}  // namespace npugen::golden
