#include "npugen/golden/post/reference.hpp"

#include <algorithm>
#include <cstdlib>

namespace npugen::golden::reference {
namespace {

// Floor division by 2^e for any int64 (C++'s >> on a negative value is implementation
// defined before C++20; written out).
int64_t floor_div_pow2(int64_t x, int e) {
  const int64_t d = int64_t{1} << e;
  return x >= 0 ? x / d : -((-x + d - 1) / d);
}

int32_t wrap32(int64_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x & 0xffffffff)); }

}  // namespace

int32_t requantize(int64_t acc, const Requant& r) {
  // The accumulator is an int32 register.
  const int32_t a = wrap32(acc);
  // x * 2^max(shift, 0), wrapping at 32 bits.
  const int32_t x = wrap32(int64_t{a} * (int64_t{1} << std::max(r.shift, 0)));
  // Doubling high multiply: x * M / 2^31, rounded half up; INT32_MIN^2 saturates.
  int64_t high;
  if (x == INT32_MIN && r.multiplier == INT32_MIN) {
    high = INT32_MAX;
  } else {
    high = floor_div_pow2(int64_t{x} * r.multiplier + (int64_t{1} << 30), 31);
  }
  // Division by 2^max(-shift, 0), rounded half away from zero.
  const int e = std::max(-r.shift, 0);
  int64_t scaled = high;
  if (e > 0) {
    const int64_t magnitude = (std::llabs(high) + (int64_t{1} << (e - 1))) >> e;
    scaled = high < 0 ? -magnitude : magnitude;
  }
  const int64_t y = scaled + r.zero_point;
  return static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(y, r.act_min), r.act_max));
}

Tensor conv2d_direct(const Tensor& in, const ConvLayer& l) {
  Tensor out;
  out.n = in.n;
  out.h = (in.h + l.pad_top + l.pad_bottom - l.kernel_h) / l.stride_y + 1;
  out.w = (in.w + l.pad_left + l.pad_right - l.kernel_w) / l.stride_x + 1;
  out.c = l.filters;
  out.data.resize(static_cast<size_t>(out.n * out.h * out.w * out.c));
  for (int n = 0; n < out.n; ++n) {
    for (int oh = 0; oh < out.h; ++oh) {
      for (int ow = 0; ow < out.w; ++ow) {
        for (int k = 0; k < l.filters; ++k) {
          int64_t acc = l.bias[static_cast<size_t>(k)];
          for (int kh = 0; kh < l.kernel_h; ++kh) {
            for (int kw = 0; kw < l.kernel_w; ++kw) {
              const int y = oh * l.stride_y + kh - l.pad_top;
              const int x = ow * l.stride_x + kw - l.pad_left;
              if (y < 0 || y >= in.h || x < 0 || x >= in.w) continue;  // padding: nothing
              for (int c = 0; c < in.c; ++c) {
                const int64_t w = l.weights[static_cast<size_t>(
                    ((k * l.kernel_h + kh) * l.kernel_w + kw) * in.c + c)];
                acc += (int64_t{in.at(n, y, x, c)} - l.input_zero_point) * w;
              }
            }
          }
          out.data[static_cast<size_t>(((n * out.h + oh) * out.w + ow) * out.c + k)] =
              static_cast<int8_t>(requantize(acc, l.output[static_cast<size_t>(k)]));
        }
      }
    }
  }
  return out;
}

Tensor fully_connected(const Tensor& in, const ConvLayer& l) {
  Tensor out;
  out.n = in.n;
  out.c = l.filters;
  out.data.resize(static_cast<size_t>(out.n * out.c));
  const int length = in.h * in.w * in.c;
  for (int n = 0; n < in.n; ++n) {
    for (int k = 0; k < l.filters; ++k) {
      int64_t acc = l.bias[static_cast<size_t>(k)];
      for (int i = 0; i < length; ++i) {
        acc += (int64_t{in.data[static_cast<size_t>(n * length + i)]} - l.input_zero_point) *
               l.weights[static_cast<size_t>(k * length + i)];
      }
      out.data[static_cast<size_t>(n * out.c + k)] =
          static_cast<int8_t>(requantize(acc, l.output[static_cast<size_t>(k)]));
    }
  }
  return out;
}

}  // namespace npugen::golden::reference
