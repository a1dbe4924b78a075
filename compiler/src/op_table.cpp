// The operation table (op_table.hpp): each operation's mapping, shape rule, planar fields and
// cost.
#include "npugen/compiler/op_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace npugen::compiler {
namespace {

using golden::Dataflow;
using golden::PlanarAxis;
using golden::PlanarGain;
using golden::PlanarOp;
using golden::PlanarParams;
using golden::PlanarTask;
using golden::Requant;
using golden::TaskOp;
using golden::net::Layer;
using golden::net::Op;
using golden::net::Shape;
using Inputs = std::span<const Shape>;

// A window's output extent over `size` with the paddings, or a refusal.
int windows(const char* axis, int size, int kernel, int stride, int pad_a, int pad_b) {
  if (kernel < 1 || stride < 1 || pad_a < 0 || pad_b < 0 || size + pad_a + pad_b < kernel) {
    throw Refusal(
        fmt::format("its window of {} (stride {}, padding {} and {}) does not fit its "
                    "input's {} of {}",
                    kernel, stride, pad_a, pad_b, axis, size));
  }
  return (size + pad_a + pad_b - kernel) / stride + 1;
}

Shape conv_shape(const Layer& l, Inputs in) {
  const golden::reference::ConvLayer& c = l.conv;
  return {windows("height", in[0].h, c.kernel_h, c.stride_y, c.pad_top, c.pad_bottom),
          windows("width", in[0].w, c.kernel_w, c.stride_x, c.pad_left, c.pad_right), c.filters};
}
Shape fc_shape(const Layer& l, Inputs) { return {1, 1, l.conv.filters}; }
Shape pool_shape(const Layer& l, Inputs in) {
  const golden::reference::PoolWindow& w = l.window;
  return {windows("height", in[0].h, w.kernel_h, w.stride_y, w.pad_top, w.pad_bottom),
          windows("width", in[0].w, w.kernel_w, w.stride_x, w.pad_left, w.pad_right), in[0].c};
}
Shape same_shape(const Layer&, Inputs in) { return in[0]; }
Shape add_shape(const Layer&, Inputs in) {
  const Shape& y = in.size() > 1 ? in[1] : in[0];  // one input: added to itself
  if (y != in[0]) {
    throw Refusal(fmt::format("it adds a {}x{}x{} tensor to a {}x{}x{} one", y.h, y.w, y.c, in[0].h,
                              in[0].w, in[0].c));
  }
  return in[0];
}
Shape concat_shape(const Layer&, Inputs in) {
  Shape out = in[0];
  out.c = 0;
  for (const Shape& s : in) {
    if (s.h != in[0].h || s.w != in[0].w) {
      throw Refusal(
          fmt::format("it concatenates a {}x{} tensor with a {}x{} one (channels: one "
                      "H and W)",
                      in[0].h, in[0].w, s.h, s.w));
    }
    out.c += s.c;
  }
  return out;
}
Shape resize_shape(const Layer& l, Inputs in) {
  if (l.resize_h < 1 || l.resize_w < 1) {
    throw Refusal(fmt::format("its factors {} x {} are not whole numbers of 1 or more", l.resize_h,
                              l.resize_w));
  }
  return {in[0].h * l.resize_h, in[0].w * l.resize_w, in[0].c};
}
Shape reduce_shape(const Layer& l, Inputs in) {
  return l.axis == golden::reference::ReduceAxis::kSpatial ? Shape{1, 1, in[0].c}
                                                           : Shape{in[0].h, in[0].w, 1};
}

uint64_t conv_macs(const Layer& l, Inputs in) {
  const Shape out = conv_shape(l, in);
  return static_cast<uint64_t>(out.h) * static_cast<uint64_t>(out.w) *
         static_cast<uint64_t>(l.conv.filters) * static_cast<uint64_t>(l.conv.kernel_h) *
         static_cast<uint64_t>(l.conv.kernel_w) * static_cast<uint64_t>(in[0].c);
}
uint64_t fc_macs(const Layer& l, Inputs in) {
  return static_cast<uint64_t>(l.conv.filters) * in[0].elements();
}
uint64_t no_macs(const Layer&, Inputs) { return 0; }

// The planar engine has one output scale, zero point and clamp a task: a layer whose channels
// differ is refused.
void one_output(PlanarTask& t, const std::vector<Requant>& out, const char* what, bool scale) {
  if (out.empty()) throw Refusal(fmt::format("it has no {}", what));
  for (const Requant& r : out) {
    if (r.zero_point != out.front().zero_point || r.act_min != out.front().act_min ||
        r.act_max != out.front().act_max ||
        (scale && (r.multiplier != out.front().multiplier || r.shift != out.front().shift))) {
      throw Refusal(
          fmt::format("its {} differ between channels; the planar engine has one {} a "
                      "task",
                      what, scale ? "scale, zero point and clamp" : "zero point and clamp"));
    }
  }
  const Requant& r = out.front();
  t.out_zero_point = r.zero_point, t.act_min = r.act_min, t.act_max = r.act_max;
  t.out_multiplier = r.multiplier, t.out_shift = r.shift;
}

void pool_fields(const Layer& l, PlanarTask& t, std::vector<PlanarGain>&) {
  const golden::reference::PoolWindow& w = l.window;
  auto u = [](int v) { return static_cast<unsigned>(std::max(v, 0)); };
  t.kernel_h = u(w.kernel_h), t.kernel_w = u(w.kernel_w);
  t.stride_y = u(w.stride_y), t.stride_x = u(w.stride_x);
  t.pad_top = u(w.pad_top), t.pad_bottom = u(w.pad_bottom);
  t.pad_left = u(w.pad_left), t.pad_right = u(w.pad_right);
}
void add_fields(const Layer& l, PlanarTask& t, std::vector<PlanarGain>&) {
  const golden::reference::AddParams& a = l.add;
  t.a_zero_point = a.a_zero_point, t.b_zero_point = a.b_zero_point;
  t.left_shift = static_cast<unsigned>(std::max(a.left_shift, 0));
  t.a_multiplier = a.a_multiplier, t.b_multiplier = a.b_multiplier;
  t.a_shift = a.a_shift, t.b_shift = a.b_shift;
  one_output(t, {a.output}, "output", true);
}
void gain_fields(const Layer& l, PlanarTask& t, std::vector<PlanarGain>& gains) {
  const golden::reference::GainBias& g = l.gain;
  if (g.bias.size() != t.channels || g.output.size() != t.channels) {
    throw Refusal(fmt::format("{} biases and {} scales for {} channels", g.bias.size(),
                              g.output.size(), t.channels));
  }
  t.a_zero_point = g.input_zero_point;
  one_output(t, g.output, "output zero point and clamp", false);
  for (unsigned ch = 0; ch < t.channels; ++ch) {
    const Requant& r = g.output[ch];
    if (r.shift < PlanarParams::kMinTableShift || r.shift > 30) {
      throw Refusal(fmt::format("channel {}'s shift {} is outside {} to 30 (the gain table's)", ch,
                                r.shift, PlanarParams::kMinTableShift));
    }
    gains.push_back(PlanarGain{g.bias[ch], r.multiplier, r.shift});
  }
}
PlanarAxis axis_of(const Layer& l) {
  return l.axis == golden::reference::ReduceAxis::kSpatial ? PlanarAxis::kSpatial
                                                           : PlanarAxis::kChannels;
}
void reduce_sum_fields(const Layer& l, PlanarTask& t, std::vector<PlanarGain>&) {
  t.axis = axis_of(l);
  t.a_zero_point = l.reduce_input_zero_point;
  one_output(t, l.reduce_output, "output scales", true);
}
void reduce_max_fields(const Layer& l, PlanarTask& t, std::vector<PlanarGain>&) {
  t.axis = axis_of(l);
}
void no_fields(const Layer&, PlanarTask&, std::vector<PlanarGain>&) {}
// The LUT's 256 bytes in the gain table's first rows (golden::lut_byte).
void lut_fields(const Layer& l, PlanarTask&, std::vector<PlanarGain>& gains) {
  gains = golden::lut_entries(l.lut);
}

// In golden::net::Op's order.
const std::array<OpInfo, 12> kTable = {{
    {.op = Op::kConv,
     .task = TaskOp::kConv,
     .neural = true,
     .dataflow = Dataflow::kConv,
     .shape = conv_shape,
     .macs = conv_macs},
    {.op = Op::kFc,
     .task = TaskOp::kTensor,
     .neural = true,
     .dataflow = Dataflow::kFc,
     .shape = fc_shape,
     .macs = fc_macs},
    {.op = Op::kMaxPool,
     .task = TaskOp::kPool,
     .neural = false,
     .planar = PlanarOp::kMaxPool,
     .shape = pool_shape,
     .planar_fields = pool_fields,
     .macs = no_macs},
    {.op = Op::kAvgPool,
     .task = TaskOp::kPool,
     .neural = false,
     .planar = PlanarOp::kAvgPool,
     .shape = pool_shape,
     .planar_fields = pool_fields,
     .macs = no_macs},
    {.op = Op::kAdd,
     .task = TaskOp::kElementwise,
     .neural = false,
     .planar = PlanarOp::kAdd,
     .shape = add_shape,
     .planar_fields = add_fields,
     .macs = no_macs},
    {.op = Op::kGainBias,
     .task = TaskOp::kGainBias,
     .neural = false,
     .planar = PlanarOp::kGainBias,
     .shape = same_shape,
     .planar_fields = gain_fields,
     .macs = no_macs},
    {.op = Op::kReduceSum,
     .task = TaskOp::kReduction,
     .neural = false,
     .planar = PlanarOp::kReduceSum,
     .shape = reduce_shape,
     .planar_fields = reduce_sum_fields,
     .macs = no_macs},
    {.op = Op::kReduceMax,
     .task = TaskOp::kReduction,
     .neural = false,
     .planar = PlanarOp::kReduceMax,
     .shape = reduce_shape,
     .planar_fields = reduce_max_fields,
     .macs = no_macs},
    {.op = Op::kActivation,
     .task = TaskOp::kElementwise,
     .neural = false,
     .planar = PlanarOp::kActivation,
     .shape = same_shape,
     .planar_fields = no_fields,
     .macs = no_macs},
    {.op = Op::kLut,
     .task = TaskOp::kElementwise,
     .neural = false,
     .planar = PlanarOp::kLut,
     .shape = same_shape,
     .planar_fields = lut_fields,
     .macs = no_macs},
    // A copy of each input into its channels of the output (ir.hpp, copy_parts).
    {.op = Op::kConcat,
     .task = TaskOp::kElementwise,
     .neural = false,
     .planar = PlanarOp::kActivation,
     .shape = concat_shape,
     .planar_fields = no_fields,
     .macs = no_macs},
    // fy x fx copies of the input, each to every fy-th row and fx-th column (copy_parts).
    {.op = Op::kResize,
     .task = TaskOp::kElementwise,
     .neural = false,
     .planar = PlanarOp::kActivation,
     .shape = resize_shape,
     .planar_fields = no_fields,
     .macs = no_macs},
}};

}  // namespace

const OpInfo& op_info(Op op) {
  const auto i = static_cast<size_t>(op);
  if (i >= kTable.size() || kTable[i].op != op) {
    throw std::logic_error(fmt::format("op_info: operation {} has no entry", i));
  }
  return kTable[i];
}

}  // namespace npugen::compiler
