// The plain reference of a quantized layer: TFLite int8 convolution and fully connected
// layers as nested loops over int64, with the requantization coded again from its
// definition (docs/post.md), sharing no code with the golden model (requant.hpp) or
// the address generator. The post unit's co-simulation checks every result against
// requantize(); unit tests compare it with the golden requantization over 10 million
// int32 accumulators and shifts, and the conv dataflow's golden path with conv2d_direct
// and fully_connected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "npugen/golden/post/requant.hpp"

namespace npugen::golden::reference {

/// int8 NHWC activations.
struct Tensor {
  int n = 1, h = 1, w = 1, c = 1;
  std::vector<int8_t> data;  ///< ((n * h + y) * w + x) * c + ch

  [[nodiscard]] int8_t at(int in, int y, int x, int ch) const {
    return data[static_cast<size_t>(((in * h + y) * w + x) * c + ch)];
  }
};

/// A convolution (a fully connected layer is one with a 1 x 1 input and kernel).
struct ConvLayer {
  int filters = 1, kernel_h = 1, kernel_w = 1;
  int stride_y = 1, stride_x = 1;
  int pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::vector<int8_t> weights;  ///< [K][KH][KW][C], symmetric (no zero point)
  std::vector<int32_t> bias;    ///< [K]
  int32_t input_zero_point = 0;
  std::vector<Requant> output;  ///< [K]: per-channel multiplier and shift, y_zp, clamp
};

/// The requantization from its definition: the doubling high multiply as a floor division
/// (round half up), the division by a power of two as sign x ((|x| + half) >> e).
int32_t requantize(int64_t acc, const Requant& r);

/// TFLite int8 convolution: output[n][oh][ow][k] =
/// requantize(bias[k] + sum over valid (kh, kw, c) of (x - x_zp) * w). Padded positions
/// contribute nothing.
Tensor conv2d_direct(const Tensor& input, const ConvLayer& layer);

/// TFLite int8 fully connected layer: the input flattened in (h, w, c) order per image,
/// weights [K][H*W*C]; the output is N x 1 x 1 x K.
Tensor fully_connected(const Tensor& input, const ConvLayer& layer);

}  // namespace npugen::golden::reference
