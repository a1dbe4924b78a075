// The plain reference network interpreter: each layer of a network run by the
// plain reference loops (post/reference: conv2d_direct, fully_connected; planar/reference:
// pooling, ADD, gain and bias, reductions, clamp), layer by layer. It shares no code with
// the golden models or the compiler: `npugen run` checks every layer of the NPU and of the
// golden model against it.
#pragma once

#include <vector>

#include "npugen/golden/network/network.hpp"

namespace npugen::golden::reference {

/// Every tensor of the network for `input` (N x H x W x C, the network's input shape):
/// element 0 is the input, element i + 1 layer i's output (fc: N x 1 x 1 x K).
std::vector<Tensor> run_network(const net::Network& network, const Tensor& input);

}  // namespace npugen::golden::reference
