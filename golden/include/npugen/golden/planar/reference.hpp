// The plain reference of the planar engine's modes (seed 001's planar engine):
// TFLite int8 pooling, ADD, a per-channel gain and bias, and a clamp, as nested loops over
// int64 with the rounding coded from its definition. It shares no code with the planar
// golden model; the requantization is the post unit's plain one (post/reference.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "npugen/golden/post/reference.hpp"

namespace npugen::golden::reference {

/// A pooling window: kernel, stride, padding (padded positions take no part).
struct PoolWindow {
  int kernel_h = 1, kernel_w = 1;
  int stride_y = 1, stride_x = 1;
  int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
};

/// TFLite's integer average: sum / count, rounded half away from zero (C++ division
/// truncates, so the half is added away from zero first).
int32_t average(int64_t sum, int64_t count);

/// TFLite int8 max pooling: the largest input over the window's valid positions, then the
/// clamp.
Tensor max_pool(const Tensor& x, const PoolWindow& w, int32_t act_min, int32_t act_max);

/// TFLite int8 average pooling: average() over the window's valid positions (their count,
/// not the window's size), then the clamp.
Tensor avg_pool(const Tensor& x, const PoolWindow& w, int32_t act_min, int32_t act_max);

/// TFLite int8 ADD: each input less its zero point, shifted left by left_shift, scaled by
/// its own multiplier and shift; the sum scaled by the output's, plus its zero point,
/// clamped.
struct AddParams {
  int32_t a_zero_point = 0, b_zero_point = 0;
  int left_shift = 20;
  int32_t a_multiplier = 1 << 30, b_multiplier = 1 << 30;
  int a_shift = 0, b_shift = 0;
  Requant output;  ///< the sum's multiplier, shift, zero point and clamp
};
Tensor add(const Tensor& a, const Tensor& b, const AddParams& p);

/// Seed 001's one-pass gain and bias, per channel c:
/// clamp(MBQM(x - x_zp, M[c], shift[c]) + bias[c] + y_zp[c], act_min[c], act_max[c]).
struct GainBias {
  int32_t input_zero_point = 0;
  std::vector<int32_t> bias;    ///< [C]
  std::vector<Requant> output;  ///< [C]
};
Tensor gain_bias(const Tensor& x, const GainBias& g);

/// The clamp alone (relu: act_min = the zero point).
Tensor clamp(const Tensor& x, int32_t act_min, int32_t act_max);
/// Tensors of one N, H and W, their channels one after the other (pixel by pixel: the first
/// tensor's channels, then the second's, ...).
Tensor concat_channels(const std::vector<Tensor>& parts);
/// Nearest-neighbour upsampling by integer factors: output (y, x) is input (y / fy, x / fx).
Tensor resize_nearest(const Tensor& x, int fy, int fx);
/// A 256-entry table: table[x + 128] for every element, then the clamp.
Tensor lookup(const Tensor& x, const std::array<int8_t, 256>& table, int32_t act_min,
              int32_t act_max);

/// Reductions. Over H x W per channel (output N x 1 x 1 x C) or over the channels per
/// pixel (output N x H x W x 1). A sum is of x - x_zp, then scaled as a gain:
/// clamp(MBQM(sum, M, shift) + y_zp), one Requant for every output channel (a global average
/// pool is the spatial sum with M / 2^-shift = input scale / (output scale x H x W), as
/// TFLite's int8 MEAN). A maximum is of x, then the clamp.
enum class ReduceAxis : uint8_t { kSpatial, kChannels };
Tensor reduce_sum(const Tensor& x, ReduceAxis axis, int32_t input_zero_point,
                  const std::vector<Requant>& output);
Tensor reduce_max(const Tensor& x, ReduceAxis axis, int32_t act_min, int32_t act_max);

}  // namespace npugen::golden::reference
