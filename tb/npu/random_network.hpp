// Random quantized networks for the NPU's co-simulation: a few layers of every kind the
// design generates (conv with padding and strides, fc, max and average pooling, ADD of an
// older tensor, gain and bias, reductions, the clamp), random int8 weights and TFLite-like
// quantization scaled so that outputs use the int8 range rather than saturate. The bench
// compiles each draw for its design and draws again when the compiler refuses it.
#pragma once

#include <random>

#include "npugen/golden/network/network.hpp"
#include "npugen/golden/npu/params.hpp"

namespace npugen::tb {

/// A network of 3 to 7 layers (the first and about half the others neural) within the design's
/// maxima (the compiler has the last word), of the neural dataflows (conv, fc) and planar
/// operations the design generates. Throws std::invalid_argument when it generates none.
golden::net::Network random_network(const golden::NpuDesign& d, std::mt19937_64& rng);

/// Whether the address generator takes an fc over `input`: its H x W words of L channels
/// (the last word's unused lanes included) are at most agu.max_channels channels.
bool fc_fits(const golden::NpuDesign& d, const golden::net::Shape& input);
/// Whether the design runs any fc: fc generated, and one word of L channels within
/// agu.max_channels.
bool fc_possible(const golden::NpuDesign& d);

}  // namespace npugen::tb
