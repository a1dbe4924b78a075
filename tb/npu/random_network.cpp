#include "npu/random_network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace npugen::tb {
namespace {

using golden::Requant;
using golden::net::Layer;
using golden::net::Network;
using golden::net::Op;
using golden::net::Shape;

int range(std::mt19937_64& rng, int lo, int hi) {
  return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

int8_t value(std::mt19937_64& rng) {
  // One value in eight an extreme.
  switch (rng() % 16) {
    case 0:
      return -128;
    case 1:
      return 127;
    default:
      return static_cast<int8_t>(rng());
  }
}

// A per-channel output quantization: multiplier in [2^30, 2^31), shifts in [lo, hi].
std::vector<Requant> outputs(std::mt19937_64& rng, int channels, int lo, int hi, int32_t zp,
                             bool relu) {
  std::vector<Requant> out(static_cast<size_t>(channels));
  for (Requant& r : out) {
    r.multiplier = static_cast<int32_t>((1U << 30) + (rng() % (1U << 30)));
    r.shift = range(rng, lo, hi);
    r.zero_point = zp;
    r.act_min = relu ? zp : -128;
    r.act_max = 127;
  }
  return out;
}

// The log2 of n, rounded up.
int log2_up(uint64_t n) {
  int b = 0;
  while ((uint64_t{1} << b) < n) ++b;
  return b;
}

}  // namespace

bool fc_fits(const golden::NpuDesign& d, const golden::net::Shape& input) {
  const uint64_t lanes = d.lanes();
  const uint64_t words = (static_cast<uint64_t>(input.c) + lanes - 1) / lanes;
  return static_cast<uint64_t>(input.h) * static_cast<uint64_t>(input.w) * words * lanes <=
         d.seq.agu.max_channels;
}

bool fc_possible(const golden::NpuDesign& d) {
  return d.seq.agu.generates(golden::Dataflow::kFc) && d.lanes() <= d.seq.agu.max_channels;
}

Network random_network(const golden::NpuDesign& d, std::mt19937_64& rng) {
  const golden::AguParams& agu = d.seq.agu;
  const golden::PlanarParams& pl = d.planar;
  Network n;
  n.has_arithmetic = true;
  // Draws that came after the others were fixed (LUT layers): from their own generator, so
  // that every other draw, and the scenarios seeds were chosen for, stay as they were.
  std::mt19937_64 late = rng;
  late.seed(late() ^ 0x4c55547461626c65ULL);
  const int max_hw =
      static_cast<int>(std::min({agu.max_height, agu.max_width, pl.max_height, pl.max_width, 12U}));
  const int max_c = static_cast<int>(std::min({agu.max_channels, pl.max_channels, 3 * d.lanes()}));
  n.input = Shape{range(rng, 1, max_hw), range(rng, 1, max_hw), range(rng, 1, max_c)};
  // One network in four starts wide and deep, up to the maxima: its tensors may exceed a
  // buffer, so that the compiler keeps them in system memory and runs their layers in row
  // bands (through the task unit; the host's programs refuse them and are drawn again).
  if (rng() % 4 == 0) {
    const int big_hw = static_cast<int>(
        std::min({agu.max_height, agu.max_width, pl.max_height, pl.max_width, 24U}));
    const int big_c = static_cast<int>(std::min({agu.max_channels, pl.max_channels, 64U}));
    const int h = range(rng, (big_hw + 1) / 2, big_hw), w = range(rng, (big_hw + 1) / 2, big_hw);
    // Channels enough for more words than a buffer holds, where the maxima allow it.
    const auto lanes = static_cast<int>(d.lanes());
    const auto words = static_cast<int>(agu.act_words / static_cast<uint64_t>(h * w)) + 1;
    const int c_min = std::min(big_c, (words - 1) * lanes + 1);
    n.input = Shape{h, w, range(rng, c_min, big_c)};
  } else if (rng() % 6 == 0) {
    // One in eight taller or wider than the engines' registers take (up to twice, at most
    // 40): the compiler runs its layers in bands of rows and tiles of columns (through the
    // task unit; the host's programs refuse them and are drawn again).
    const int reg_h = static_cast<int>(std::min(agu.max_height, pl.max_height));
    const int reg_w = static_cast<int>(std::min(agu.max_width, pl.max_width));
    const bool tall = rng() % 2 == 0;
    const int h = tall ? range(rng, reg_h + 1, std::max(reg_h + 1, std::min(2 * reg_h, 40)))
                       : range(rng, 1, std::min(reg_h, 12));
    const int w = !tall || rng() % 2 == 0
                      ? range(rng, reg_w + 1, std::max(reg_w + 1, std::min(2 * reg_w, 40)))
                      : range(rng, 1, std::min(reg_w, 12));
    n.input = Shape{h, w, range(rng, 1, max_c)};
  }
  n.input_zero_point = range(rng, -128, 127);
  std::vector<int32_t> zp = {n.input_zero_point};
  const int layers = range(rng, 3, 7);
  const bool conv = agu.generates(golden::Dataflow::kConv);
  const bool fc = fc_possible(d);
  // Without conv the first layer is an fc, whose input (H x W words of L channels, the
  // last word's unused lanes included) the address generator takes as agu.max_channels
  // channels at most: the input is drawn to fit.
  const auto lanes = static_cast<int>(d.lanes());
  const int fc_words = static_cast<int>(agu.max_channels) / lanes;
  if (!conv && fc && !fc_fits(d, n.input)) {
    const int h = range(rng, 1, std::min(max_hw, fc_words));
    const int w = range(rng, 1, std::min(max_hw, fc_words / h));
    const int words = range(rng, 1, fc_words / (h * w));
    n.input = Shape{h, w, range(rng, 1, std::max(1, std::min(words * lanes, max_c)))};
  }
  std::vector<Op> planar;  // the planar operations the design generates
  for (Op op : {Op::kMaxPool, Op::kAvgPool, Op::kAdd, Op::kGainBias, Op::kReduceSum, Op::kReduceMax,
                Op::kActivation}) {
    const auto pop = static_cast<golden::PlanarOp>(static_cast<unsigned>(op) - 2);
    if (pl.generates(pop)) planar.push_back(op);
  }
  if (!conv && !fc && planar.empty()) {
    throw std::invalid_argument("the design runs neither conv nor fc layers nor planar ones");
  }
  for (int i = 0; i < layers; ++i) {
    const size_t in = zp.size() - 1;
    const Shape x = n.shape_of(in);
    const int32_t x_zp = zp[in];
    Layer l;
    l.name = fmt::format("l{}", i);
    l.inputs = {in};
    l.out = x;
    l.line = i + 1;
    // The first layer, and half the others, run on the neural engine: conv, or fc one time
    // in four (after the first), as far as the design generates them; a design without
    // either runs planar layers only, and one without planar operations neural ones only.
    const bool neural = i == 0 || rng() % 2 == 0 || planar.empty();
    if (neural && (conv || fc)) {
      l.op = !conv || (fc && i > 0 && rng() % 4 == 0) ? Op::kFc : Op::kConv;
      if (l.op == Op::kFc && conv && i + 1 < layers && rng() % 2 == 0) l.op = Op::kConv;
    } else {
      l.op = planar[rng() % planar.size()];
    }
    int32_t out_zp = x_zp;
    switch (l.op) {
      case Op::kConv:
      case Op::kFc: {
        golden::reference::ConvLayer& c = l.conv;
        const bool conv = l.op == Op::kConv;
        c.filters = range(rng, 1, static_cast<int>(std::min(agu.max_channels, 2 * d.lanes() + 3)));
        // Without conv an fc's output is the next fc's input: whole words within the maxima.
        if (!conv) c.filters = std::min(c.filters, fc_words * lanes);
        if (conv) {
          c.kernel_h = range(rng, 1, static_cast<int>(std::min(agu.max_kernel, 3U)));
          c.kernel_w = range(rng, 1, static_cast<int>(std::min(agu.max_kernel, 3U)));
          c.stride_y = range(rng, 1, static_cast<int>(std::min(agu.max_stride, 2U)));
          c.stride_x = range(rng, 1, static_cast<int>(std::min(agu.max_stride, 2U)));
          const int pad_h = std::min<int>(static_cast<int>(agu.max_pad), c.kernel_h - 1);
          const int pad_w = std::min<int>(static_cast<int>(agu.max_pad), c.kernel_w - 1);
          c.pad_top = range(rng, 0, pad_h);
          c.pad_bottom = range(rng, 0, pad_h);
          c.pad_left = range(rng, 0, pad_w);
          c.pad_right = range(rng, 0, pad_w);
          const int ph = x.h + c.pad_top + c.pad_bottom, pw = x.w + c.pad_left + c.pad_right;
          if (ph < c.kernel_h || pw < c.kernel_w) {
            c.kernel_h = c.kernel_w = 1;
            c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = 0;
          }
          l.out = Shape{(x.h + c.pad_top + c.pad_bottom - c.kernel_h) / c.stride_y + 1,
                        (x.w + c.pad_left + c.pad_right - c.kernel_w) / c.stride_x + 1, c.filters};
        } else {
          l.out = Shape{1, 1, c.filters};
        }
        l.window = {c.kernel_h, c.kernel_w,   c.stride_y, c.stride_x,
                    c.pad_top,  c.pad_bottom, c.pad_left, c.pad_right};
        const size_t taps =
            conv ? static_cast<size_t>(c.kernel_h) * c.kernel_w * x.c : x.elements();
        c.weights.resize(static_cast<size_t>(c.filters) * taps);
        for (auto& w : c.weights) w = value(rng);
        // With the zero-skipping array, two layers in three are pruned (each filter to a
        // density of 0 to 60 %), so that the compiler runs them zero-skipped.
        if (d.seq.zs && rng() % 3 != 0) {
          const size_t per = taps;
          for (int f = 0; f < c.filters; ++f) {
            const auto keep = static_cast<unsigned>(range(rng, 0, 60));
            for (size_t t = 0; t < per; ++t) {
              if (rng() % 100 >= keep) c.weights[static_cast<size_t>(f) * per + t] = 0;
            }
          }
        }
        // With the VQ weight loader, half the layers whose channels allow a vector length the
        // dequantizer has (dividing L and C) load their weights as codebook indices.
        if (d.vq && rng() % 2 == 0) {
          std::vector<unsigned> lengths;
          for (unsigned m = d.vq->min_vector_length; m <= d.vq->row_weights; m *= 2) {
            if (d.lanes() % m == 0 && x.c % static_cast<int>(m) == 0) lengths.push_back(m);
          }
          if (!lengths.empty()) {
            const unsigned m = lengths[rng() % lengths.size()];
            const auto most = static_cast<int>(std::min(d.vq->rows, 64U));
            golden::net::make_vq_layer(l, x.c, m, static_cast<unsigned>(range(rng, 2, most)));
          }
        }
        c.bias.resize(static_cast<size_t>(c.filters));
        for (auto& b : c.bias) b = range(rng, -20000, 20000);
        c.input_zero_point = x_zp;
        out_zp = range(rng, -128, 127);
        // |acc| ~ 128 x 64 x sqrt(taps): scaled into about +-64.
        const int bits = 7 + log2_up(taps) / 2;
        c.output = outputs(rng, c.filters, -bits - 1, -bits + 1, out_zp, rng() % 2 == 0);
        l.act_min = c.output[0].act_min;
        l.act_max = c.output[0].act_max;
        break;
      }
      case Op::kMaxPool:
      case Op::kAvgPool: {
        golden::reference::PoolWindow& w = l.window;
        const int kmax = static_cast<int>(std::min<unsigned>(pl.max_window, 3));
        w.kernel_h = std::min(range(rng, 1, kmax), x.h);
        w.kernel_w = std::min(range(rng, 1, kmax), x.w);
        w.stride_y = range(rng, 1, static_cast<int>(std::min(pl.max_stride, 2U)));
        w.stride_x = range(rng, 1, static_cast<int>(std::min(pl.max_stride, 2U)));
        const int pad_h = std::min<int>(static_cast<int>(pl.max_pad), w.kernel_h - 1);
        const int pad_w = std::min<int>(static_cast<int>(pl.max_pad), w.kernel_w - 1);
        w.pad_top = range(rng, 0, pad_h);
        w.pad_bottom = range(rng, 0, pad_h);
        w.pad_left = range(rng, 0, pad_w);
        w.pad_right = range(rng, 0, pad_w);
        l.out = Shape{(x.h + w.pad_top + w.pad_bottom - w.kernel_h) / w.stride_y + 1,
                      (x.w + w.pad_left + w.pad_right - w.kernel_w) / w.stride_x + 1, x.c};
        l.act_min = rng() % 4 == 0 ? x_zp : -128;
        l.act_max = 127;
        break;
      }
      case Op::kAdd: {
        // Of the newest older tensor of this shape (the input itself when there is none).
        size_t other = in;
        for (size_t t = in; t-- > 0;) {
          if (n.shape_of(t) == x) {
            other = t;
            break;
          }
        }
        l.inputs = {in, other};
        golden::reference::AddParams& a = l.add;
        a.a_zero_point = x_zp;
        a.b_zero_point = zp[other];
        a.left_shift = 20;
        a.a_multiplier = static_cast<int32_t>((1U << 30) + rng() % (1U << 30));
        a.b_multiplier = static_cast<int32_t>((1U << 30) + rng() % (1U << 30));
        a.a_shift = range(rng, -2, 0);
        a.b_shift = range(rng, -2, 0);
        out_zp = range(rng, -128, 127);
        a.output = outputs(rng, 1, -20, -18, out_zp, rng() % 2 == 0)[0];
        l.act_min = a.output.act_min;
        l.act_max = a.output.act_max;
        break;
      }
      case Op::kGainBias: {
        l.gain.input_zero_point = x_zp;
        l.gain.bias.resize(static_cast<size_t>(x.c));
        for (auto& b : l.gain.bias) b = range(rng, -40, 40);
        out_zp = range(rng, -128, 127);
        l.gain.output = outputs(rng, x.c, -2, 0, out_zp, false);
        break;
      }
      case Op::kReduceSum:
      case Op::kReduceMax: {
        l.axis = rng() % 2 == 0 ? golden::reference::ReduceAxis::kSpatial
                                : golden::reference::ReduceAxis::kChannels;
        l.out = l.axis == golden::reference::ReduceAxis::kSpatial ? Shape{1, 1, x.c}
                                                                  : Shape{x.h, x.w, 1};
        if (l.op == Op::kReduceSum) {
          l.reduce_input_zero_point = x_zp;
          out_zp = range(rng, -128, 127);
          const uint64_t count = l.axis == golden::reference::ReduceAxis::kSpatial
                                     ? static_cast<uint64_t>(x.h) * x.w
                                     : static_cast<uint64_t>(x.c);
          const int s = -log2_up(count) - 1;
          l.reduce_output = outputs(rng, 1, s, s, out_zp, false);
          l.reduce_output.assign(static_cast<size_t>(l.out.c), l.reduce_output[0]);
        }
        break;
      }
      case Op::kActivation:
        l.act_min = range(rng, -128, 0);
        l.act_max = range(rng, l.act_min, 127);
        // Two activations in three become a LUT (with that clamp): a table of random bytes, a
        // ramp (a sigmoid's shape, clipped) or a constant, and its own output zero point.
        if (pl.generates(golden::PlanarOp::kLut) && late() % 3 != 0) {
          l.op = Op::kLut;
          const auto kind = late() % 3;
          const int slope = range(late, 1, 4), offset = range(late, -64, 64);
          for (int v = 0; v < 256; ++v) {
            const int ramp = std::clamp((v - 128) * slope / 2 + offset, -128, 127);
            l.lut[static_cast<size_t>(v)] = static_cast<int8_t>(kind == 0   ? range(late, -128, 127)
                                                                : kind == 1 ? ramp
                                                                            : offset);
          }
          out_zp = range(late, -128, 127);
        }
        break;
      case Op::kLut:     // drawn as an activation (above)
      case Op::kConcat:  // appended after the loop
      case Op::kResize:
        break;
    }
    l.zero_point = out_zp;
    zp.push_back(out_zp);
    n.layers.push_back(std::move(l));
    // A classifier ends the network (where convolutions could come before it).
    if (n.layers.back().op == Op::kFc && conv) break;
  }
  // One network in four is upsampled at its end: the last tensor resized by 1 to 3 along each
  // axis (nearest), a copy of it a position of its output pixels' block.
  if (pl.generates(golden::PlanarOp::kActivation) && late() % 4 == 0) {
    const size_t last = n.layers.size();
    Layer l;
    l.name = fmt::format("l{}", last);
    l.op = Op::kResize;
    l.inputs = {last};
    l.resize_h = range(late, 1, 3), l.resize_w = range(late, 1, 3);
    const Shape y = n.shape_of(last);
    l.out = Shape{y.h * l.resize_h, y.w * l.resize_w, y.c};
    l.line = static_cast<int>(last) + 1;
    l.zero_point = zp[last];
    if (late() % 2 == 0) l.act_min = range(late, -128, 0), l.act_max = range(late, 0, 127);
    zp.push_back(l.zero_point);
    n.layers.push_back(std::move(l));
  }
  // One network in four ends in a concat of its last tensor after an earlier one of the same
  // height and width whose channels fill whole words (the input too): a copy of each.
  if (pl.generates(golden::PlanarOp::kActivation) && late() % 4 == 0) {
    const size_t last = n.layers.size();
    const Shape y = n.shape_of(last);
    std::vector<size_t> earlier;
    for (size_t t = 0; t < last; ++t) {
      const Shape e = n.shape_of(t);
      if (e.h == y.h && e.w == y.w && e.c % static_cast<int>(d.lanes()) == 0) earlier.push_back(t);
    }
    if (!earlier.empty()) {
      Layer l;
      l.name = fmt::format("l{}", last);
      l.op = Op::kConcat;
      l.inputs = {earlier[late() % earlier.size()], last};
      l.out = Shape{y.h, y.w, n.shape_of(l.inputs[0]).c + y.c};
      l.line = static_cast<int>(last) + 1;
      l.zero_point = zp[l.inputs[0]];
      if (late() % 2 == 0) l.act_min = range(late, -128, 0), l.act_max = range(late, 0, 127);
      zp.push_back(l.zero_point);
      n.layers.push_back(std::move(l));
    }
  }
  // One network in three of two layers or more has a second output: an earlier layer's,
  // kept to the end (the compiler frees no output; the DMA stores each).
  if (n.layers.size() > 1 && late() % 3 == 0) {
    const size_t k = static_cast<size_t>(range(late, 1, static_cast<int>(n.layers.size()) - 1));
    n.outputs = {{k, n.layers[k - 1].name}, {n.layers.size(), n.layers.back().name}};
  }
  return n;
}

}  // namespace npugen::tb
