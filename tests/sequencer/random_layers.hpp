// Random int8 tensors and TFLite layers for the sequencer's unit tests (raw Mersenne
// Twister draws, so a seed gives the same layers everywhere).
#pragma once

#include <cstdint>
#include <random>

#include "npugen/golden/post/reference.hpp"

namespace npugen::golden::test {

inline int draw(std::mt19937_64& rng, int lo, int hi) {
  return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

inline reference::Tensor random_tensor(std::mt19937_64& rng, int n, int h, int w, int c) {
  reference::Tensor t;
  t.n = n, t.h = h, t.w = w, t.c = c;
  t.data.resize(static_cast<size_t>(n * h * w * c));
  for (auto& x : t.data) x = static_cast<int8_t>(draw(rng, -128, 127));
  return t;
}

/// A layer of `filters` filters of kh x kw over `channels` channels: random weights, input
/// zero point, biases and Q31 multipliers with shifts -12 to 0; the output zero point and
/// clamp (ReLU or none) one for the layer (`per_channel`: one per channel).
inline reference::ConvLayer random_layer(std::mt19937_64& rng, int channels, int filters, int kh,
                                         int kw, bool per_channel = false) {
  reference::ConvLayer l;
  l.filters = filters, l.kernel_h = kh, l.kernel_w = kw;
  l.weights.resize(static_cast<size_t>(filters * kh * kw * channels));
  for (auto& w : l.weights) w = static_cast<int8_t>(draw(rng, -128, 127));
  l.input_zero_point = draw(rng, -128, 127);
  int zp = draw(rng, -128, 127);
  bool relu = rng() % 2 != 0;
  for (int k = 0; k < filters; ++k) {
    if (per_channel) zp = draw(rng, -128, 127), relu = rng() % 2 != 0;
    l.bias.push_back(draw(rng, -20000, 20000));
    Requant r;
    r.multiplier =
        static_cast<int32_t>((int64_t{1} << 30) + static_cast<int64_t>(rng() % (1U << 30)));
    r.shift = draw(rng, -12, 0);
    r.zero_point = zp;
    r.act_min = relu ? zp : -128;
    l.output.push_back(r);
  }
  return l;
}

}  // namespace npugen::golden::test
