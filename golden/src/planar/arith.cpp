#include "npugen/golden/planar/arith.hpp"

#include <algorithm>

namespace npugen::golden::planar {
namespace {

Partial combine(Pool op, Partial a, Partial b) {
  if (b.count == 0) return a;
  if (a.count == 0) return b;
  return {op == Pool::kMax ? std::max(a.value, b.value) : a.value + b.value, a.count + b.count};
}

int8_t clamp8(int32_t v, int32_t lo, int32_t hi) {
  return static_cast<int8_t>(std::min(std::max(v, lo), hi));
}

}  // namespace

Tensor pool(const Tensor& x, const Window& w, Pool op, const PoolDivider& divider, int32_t act_min,
            int32_t act_max) {
  Tensor out;
  out.n = x.n, out.c = x.c;
  out.h = (x.h + w.pad_top + w.pad_bottom - w.kernel_h) / w.stride_y + 1;
  out.w = (x.w + w.pad_left + w.pad_right - w.kernel_w) / w.stride_x + 1;
  out.data.assign(static_cast<size_t>(out.n) * out.h * out.w * out.c, 0);
  // H filter: every input row's window parts, for every output column (what the line
  // buffer holds): hrow[(y * OW + ow) * C + c].
  std::vector<Partial> hrow(static_cast<size_t>(x.h) * out.w * x.c);
  for (int n = 0; n < x.n; ++n) {
    for (int y = 0; y < x.h; ++y) {
      for (int ow = 0; ow < out.w; ++ow) {
        const int x0 = ow * w.stride_x - w.pad_left;
        for (int c = 0; c < x.c; ++c) {
          Partial p;
          for (int tap = std::max(0, -x0); tap < w.kernel_w && x0 + tap < x.w; ++tap) {
            const int8_t v = x.data[((static_cast<size_t>(n) * x.h + y) * x.w + x0 + tap) * x.c +
                                    static_cast<size_t>(c)];
            p = combine(op, p, Partial{v, 1});
          }
          hrow[(static_cast<size_t>(y) * out.w + ow) * x.c + static_cast<size_t>(c)] = p;
        }
      }
    }
    // V filter: the window's valid rows.
    for (int oh = 0; oh < out.h; ++oh) {
      const int y0 = oh * w.stride_y - w.pad_top;
      for (int ow = 0; ow < out.w; ++ow) {
        for (int c = 0; c < x.c; ++c) {
          Partial p;
          for (int row = std::max(0, -y0); row < w.kernel_h && y0 + row < x.h; ++row) {
            p = combine(
                op, p,
                hrow[(static_cast<size_t>(y0 + row) * out.w + ow) * x.c + static_cast<size_t>(c)]);
          }
          const int32_t v = op == Pool::kMax ? p.value : divider.divide(p.value, p.count);
          out.data[((static_cast<size_t>(n) * out.h + oh) * out.w + ow) * out.c +
                   static_cast<size_t>(c)] = clamp8(v, act_min, act_max);
        }
      }
    }
  }
  return out;
}

int32_t add_inputs(int8_t a, int8_t b, const AddScales& s) {
  // (x - zp) << left_shift stays within int32 for int8 x and zp and a shift up to 23.
  const int32_t sa = (int32_t{a} - s.a_zero_point) * (int32_t{1} << s.left_shift);
  const int32_t sb = (int32_t{b} - s.b_zero_point) * (int32_t{1} << s.left_shift);
  // The sum wraps at 32 bits, as the hardware's adder.
  return static_cast<int32_t>(
      static_cast<uint32_t>(multiply_by_quantized_multiplier(sa, s.a_multiplier, s.a_shift)) +
      static_cast<uint32_t>(multiply_by_quantized_multiplier(sb, s.b_multiplier, s.b_shift)));
}

int8_t add(int8_t a, int8_t b, const AddScales& s) {
  return static_cast<int8_t>(requantize(add_inputs(a, b, s), s.output));
}

namespace {

// The engine's reduction of x: `value` gives an element as the input converter passes it
// on, `combine` is the H filter's and the line buffer's (or the lane tree's) operation,
// `finish` forms the output element from the accumulator and the output channel.
template <typename Value, typename Combine, typename Finish>
Tensor reduce(const Tensor& x, Axis axis, unsigned lanes, Value&& value, Combine&& combine,
              Finish&& finish) {
  Tensor out;
  out.n = x.n;
  const bool spatial = axis == Axis::kSpatial;
  out.h = spatial ? 1 : x.h, out.w = spatial ? 1 : x.w, out.c = spatial ? x.c : 1;
  out.data.assign(static_cast<size_t>(out.n) * out.h * out.w * out.c, 0);
  const auto at = [&](int n, int y, int px, int c) {
    return value(
        x.data[((static_cast<size_t>(n) * x.h + y) * x.w + px) * x.c + static_cast<size_t>(c)]);
  };
  const int l = static_cast<int>(lanes);
  for (int n = 0; n < x.n; ++n) {
    if (spatial) {
      for (int c = 0; c < x.c; ++c) {
        // The H filter's result of each row, accumulated row by row in the line buffer.
        int32_t acc = 0;
        for (int y = 0; y < x.h; ++y) {
          int32_t row = at(n, y, 0, c);
          for (int px = 1; px < x.w; ++px) row = combine(row, at(n, y, px, c));
          acc = y == 0 ? row : combine(acc, row);
        }
        out.data[static_cast<size_t>(n) * out.c + static_cast<size_t>(c)] = finish(acc, c);
      }
      continue;
    }
    for (int y = 0; y < x.h; ++y) {
      for (int px = 0; px < x.w; ++px) {
        // Each word's lanes, then the pixel's words.
        int32_t acc = 0;
        for (int word = 0; word * l < x.c; ++word) {
          int32_t part = at(n, y, px, word * l);
          for (int lane = 1; lane < l && word * l + lane < x.c; ++lane) {
            part = combine(part, at(n, y, px, word * l + lane));
          }
          acc = word == 0 ? part : combine(acc, part);
        }
        out.data[(static_cast<size_t>(n) * out.h + y) * out.w + static_cast<size_t>(px)] =
            finish(acc, 0);
      }
    }
  }
  return out;
}

}  // namespace

Tensor reduce_sum(const Tensor& x, Axis axis, unsigned lanes, int32_t input_zero_point,
                  const std::vector<Requant>& output) {
  return reduce(
      x, axis, lanes, [&](int8_t v) { return int32_t{v} - input_zero_point; },
      [](int32_t a, int32_t b) { return a + b; },
      [&](int32_t acc, int c) {
        return static_cast<int8_t>(requantize(acc, output[static_cast<size_t>(c)]));
      });
}

Tensor reduce_max(const Tensor& x, Axis axis, unsigned lanes, int32_t act_min, int32_t act_max) {
  return reduce(
      x, axis, lanes, [](int8_t v) { return int32_t{v}; },
      [](int32_t a, int32_t b) { return std::max(a, b); },
      [&](int32_t acc, int) { return clamp8(acc, act_min, act_max); });
}

int8_t gain_bias_centered(int32_t centered, int32_t bias, const Requant& r) {
  const int32_t scaled = multiply_by_quantized_multiplier(centered, r.multiplier, r.shift);
  const int64_t y = int64_t{scaled} + bias + r.zero_point;  // no wrap: the clamp decides
  return static_cast<int8_t>(std::min<int64_t>(std::max<int64_t>(y, r.act_min), r.act_max));
}

int8_t gain_bias(int8_t x, int32_t input_zero_point, int32_t bias, const Requant& r) {
  return gain_bias_centered(int32_t{x} - input_zero_point, bias, r);
}

}  // namespace npugen::golden::planar
