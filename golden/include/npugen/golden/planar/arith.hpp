// The planar engine's arithmetic, operation by operation: pooling as seed 001's
// H filter, line buffer and V filter (a row's window taps first, then the window's rows),
// the average through the reciprocal divider, ADD's and the gain's scaling through the post
// unit's golden requantization, the reductions row by row (or lane by lane, word by word).
// The golden model at the ports (planar/model.hpp) calls ADD's and the gain's stages and
// the divider; the plain reference (planar/reference.hpp) computes the same results its own
// way, and unit tests compare the two on random tensors.
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/planar/divide.hpp"
#include "npugen/golden/post/reference.hpp"
#include "npugen/golden/post/requant.hpp"

namespace npugen::golden::planar {

/// An int8 NHWC tensor, the layout of the activation buffers (the data type the
/// sequencer's lowering shares with the reference; no reference code is used).
using Tensor = reference::Tensor;

struct Window {
  int kernel_h = 1, kernel_w = 1;
  int stride_y = 1, stride_x = 1;
  int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
};

/// One H-filter or V-filter result: the window part's sum or maximum and how many valid
/// positions it covered.
struct Partial {
  int32_t value = 0;
  unsigned count = 0;
};

enum class Pool : uint8_t { kMax, kAverage };

/// Pooling, separably: for each output column the H filter combines the valid taps of each
/// input row; the V filter combines those rows; max takes the largest, average divides by
/// the valid count with `divider`; then the clamp.
Tensor pool(const Tensor& x, const Window& w, Pool op, const PoolDivider& divider, int32_t act_min,
            int32_t act_max);

struct AddScales {
  int32_t a_zero_point = 0, b_zero_point = 0;
  int left_shift = 20;
  int32_t a_multiplier = 1 << 30, b_multiplier = 1 << 30;
  int a_shift = 0, b_shift = 0;
  Requant output;
};
/// ADD's input converter: both inputs less their zero points, shifted, scaled by their own
/// multipliers and summed (wrapping at 32 bits): what the engine's stage A forms.
int32_t add_inputs(int8_t a, int8_t b, const AddScales& s);
/// TFLite int8 ADD, element by element: add_inputs, then the output's requantization.
int8_t add(int8_t a, int8_t b, const AddScales& s);

/// Seed 001's gain and bias of one element: clamp(MBQM(x - x_zp) + bias + y_zp).
int8_t gain_bias(int8_t x, int32_t input_zero_point, int32_t bias, const Requant& r);
/// The same from x - x_zp (the engine's stage A forms it, stage B the rest).
int8_t gain_bias_centered(int32_t centered, int32_t bias, const Requant& r);

/// Reductions as the engine forms them. Over H x W: the H filter reduces each row of a
/// channel, the line buffer's adder (or comparator) accumulates the rows. Over the
/// channels: each word's lanes, then the words of the pixel. A sum is of x - x_zp in an
/// int32 accumulator, then requantized with output[c] (the spatial reduction's channel,
/// output[0] over the channels); a maximum is clamped to act_min, act_max.
enum class Axis : uint8_t { kSpatial, kChannels };
Tensor reduce_sum(const Tensor& x, Axis axis, unsigned lanes, int32_t input_zero_point,
                  const std::vector<Requant>& output);
Tensor reduce_max(const Tensor& x, Axis axis, unsigned lanes, int32_t act_min, int32_t act_max);

}  // namespace npugen::golden::planar
