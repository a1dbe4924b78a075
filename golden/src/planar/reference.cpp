#include "npugen/golden/planar/reference.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <stdexcept>

namespace npugen::golden::reference {
namespace {

// MultiplyByQuantizedMultiplier alone: the post unit's plain requantization with no zero
// point and no clamp.
int32_t scale(int64_t x, int32_t multiplier, int shift) {
  return requantize(x, Requant{multiplier, shift, 0, INT32_MIN, INT32_MAX});
}

int8_t clamp8(int64_t y, int32_t lo, int32_t hi) {
  return static_cast<int8_t>(std::min<int64_t>(std::max<int64_t>(y, lo), hi));
}

size_t index(const Tensor& t, int n, int y, int x, int c) {
  return static_cast<size_t>(((n * t.h + y) * t.w + x) * t.c + c);
}

// The window's valid positions for every output element: f(out, values of the valid
// positions) gives the output.
template <typename Reduce>
Tensor pool(const Tensor& x, const PoolWindow& w, Reduce&& reduce) {
  Tensor out;
  out.n = x.n, out.c = x.c;
  out.h = (x.h + w.pad_top + w.pad_bottom - w.kernel_h) / w.stride_y + 1;
  out.w = (x.w + w.pad_left + w.pad_right - w.kernel_w) / w.stride_x + 1;
  out.data.resize(static_cast<size_t>(out.n * out.h * out.w * out.c));
  for (int n = 0; n < out.n; ++n) {
    for (int oh = 0; oh < out.h; ++oh) {
      for (int ow = 0; ow < out.w; ++ow) {
        for (int c = 0; c < out.c; ++c) {
          std::vector<int64_t> values;
          for (int kh = 0; kh < w.kernel_h; ++kh) {
            for (int kw = 0; kw < w.kernel_w; ++kw) {
              const int iy = oh * w.stride_y + kh - w.pad_top;
              const int ix = ow * w.stride_x + kw - w.pad_left;
              if (iy < 0 || iy >= x.h || ix < 0 || ix >= x.w) continue;
              values.push_back(x.data[index(x, n, iy, ix, c)]);
            }
          }
          out.data[index(out, n, oh, ow, c)] = reduce(values);
        }
      }
    }
  }
  return out;
}

}  // namespace

int32_t average(int64_t sum, int64_t count) {
  if (count <= 0) throw std::invalid_argument("an average over no position");
  return static_cast<int32_t>(sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count);
}

Tensor max_pool(const Tensor& x, const PoolWindow& w, int32_t act_min, int32_t act_max) {
  return pool(x, w, [&](const std::vector<int64_t>& v) {
    return clamp8(*std::max_element(v.begin(), v.end()), act_min, act_max);
  });
}

Tensor avg_pool(const Tensor& x, const PoolWindow& w, int32_t act_min, int32_t act_max) {
  return pool(x, w, [&](const std::vector<int64_t>& v) {
    int64_t sum = 0;
    for (const int64_t e : v) sum += e;
    return clamp8(average(sum, static_cast<int64_t>(v.size())), act_min, act_max);
  });
}

Tensor add(const Tensor& a, const Tensor& b, const AddParams& p) {
  if (a.n != b.n || a.h != b.h || a.w != b.w || a.c != b.c) {
    throw std::invalid_argument("ADD's inputs differ in shape");
  }
  Tensor out = a;
  for (size_t i = 0; i < a.data.size(); ++i) {
    const int64_t sa = (int64_t{a.data[i]} - p.a_zero_point) * (int64_t{1} << p.left_shift);
    const int64_t sb = (int64_t{b.data[i]} - p.b_zero_point) * (int64_t{1} << p.left_shift);
    const int64_t sum =
        int64_t{scale(sa, p.a_multiplier, p.a_shift)} + scale(sb, p.b_multiplier, p.b_shift);
    out.data[i] = static_cast<int8_t>(requantize(sum, p.output));
  }
  return out;
}

Tensor gain_bias(const Tensor& x, const GainBias& g) {
  Tensor out = x;
  for (size_t i = 0; i < x.data.size(); ++i) {
    const auto c = static_cast<size_t>(static_cast<int>(i % static_cast<size_t>(x.c)));
    const Requant& r = g.output[c];
    const int64_t scaled = scale(int64_t{x.data[i]} - g.input_zero_point, r.multiplier, r.shift);
    out.data[i] = clamp8(scaled + g.bias[c] + r.zero_point, r.act_min, r.act_max);
  }
  return out;
}

Tensor clamp(const Tensor& x, int32_t act_min, int32_t act_max) {
  Tensor out = x;
  for (auto& v : out.data) v = clamp8(v, act_min, act_max);
  return out;
}

Tensor resize_nearest(const Tensor& x, int fy, int fx) {
  if (fy < 1 || fx < 1) throw std::invalid_argument("resize_nearest: a factor below 1");
  Tensor out = x;
  out.h = x.h * fy, out.w = x.w * fx;
  out.data.assign(static_cast<size_t>(out.n) * out.h * out.w * out.c, 0);
  for (int n = 0; n < out.n; ++n) {
    for (int y = 0; y < out.h; ++y) {
      for (int xx = 0; xx < out.w; ++xx) {
        for (int c = 0; c < out.c; ++c) {
          out.data[((static_cast<size_t>(n) * out.h + y) * out.w + xx) * out.c + c] =
              x.data[((static_cast<size_t>(n) * x.h + y / fy) * x.w + xx / fx) * x.c + c];
        }
      }
    }
  }
  return out;
}

Tensor concat_channels(const std::vector<Tensor>& parts) {
  Tensor out = parts.at(0);
  out.c = 0;
  for (const Tensor& p : parts) {
    if (p.n != out.n || p.h != out.h || p.w != out.w) {
      throw std::invalid_argument("concat_channels: the tensors' N, H or W differ");
    }
    out.c += p.c;
  }
  out.data.clear();
  const size_t pixels = static_cast<size_t>(out.n) * out.h * out.w;
  for (size_t px = 0; px < pixels; ++px) {
    for (const Tensor& p : parts) {
      const auto c = static_cast<size_t>(p.c);
      out.data.insert(out.data.end(), p.data.begin() + static_cast<std::ptrdiff_t>(px * c),
                      p.data.begin() + static_cast<std::ptrdiff_t>((px + 1) * c));
    }
  }
  return out;
}

Tensor lookup(const Tensor& x, const std::array<int8_t, 256>& table, int32_t act_min,
              int32_t act_max) {
  Tensor out = x;
  for (auto& v : out.data) v = clamp8(table[static_cast<size_t>(int{v} + 128)], act_min, act_max);
  return out;
}

namespace {

// Every output element of a reduction with the input values it reduces.
template <typename Reduce>
Tensor reduce(const Tensor& x, ReduceAxis axis, Reduce&& f) {
  Tensor out;
  out.n = x.n;
  const bool spatial = axis == ReduceAxis::kSpatial;
  out.h = spatial ? 1 : x.h, out.w = spatial ? 1 : x.w, out.c = spatial ? x.c : 1;
  out.data.resize(static_cast<size_t>(out.n * out.h * out.w * out.c));
  for (int n = 0; n < out.n; ++n) {
    for (int y = 0; y < out.h; ++y) {
      for (int x0 = 0; x0 < out.w; ++x0) {
        for (int c = 0; c < out.c; ++c) {
          std::vector<int64_t> values;
          if (spatial) {
            for (int iy = 0; iy < x.h; ++iy) {
              for (int ix = 0; ix < x.w; ++ix) values.push_back(x.data[index(x, n, iy, ix, c)]);
            }
          } else {
            for (int ic = 0; ic < x.c; ++ic) values.push_back(x.data[index(x, n, y, x0, ic)]);
          }
          out.data[index(out, n, y, x0, c)] = f(c, values);
        }
      }
    }
  }
  return out;
}

}  // namespace

Tensor reduce_sum(const Tensor& x, ReduceAxis axis, int32_t input_zero_point,
                  const std::vector<Requant>& output) {
  return reduce(x, axis, [&](int c, const std::vector<int64_t>& v) {
    int64_t sum = 0;
    for (const int64_t e : v) sum += e - input_zero_point;
    return static_cast<int8_t>(requantize(sum, output[static_cast<size_t>(c)]));
  });
}

Tensor reduce_max(const Tensor& x, ReduceAxis axis, int32_t act_min, int32_t act_max) {
  return reduce(x, axis, [&](int, const std::vector<int64_t>& v) {
    return clamp8(*std::max_element(v.begin(), v.end()), act_min, act_max);
  });
}

}  // namespace npugen::golden::reference
