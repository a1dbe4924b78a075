#include "npugen/golden/network/reference.hpp"

#include <stdexcept>

namespace npugen::golden::reference {

std::vector<Tensor> run_network(const net::Network& network, const Tensor& input) {
  const net::Shape& s = network.input;
  if (input.h != s.h || input.w != s.w || input.c != s.c ||
      input.data.size() != static_cast<size_t>(input.n) * s.elements()) {
    throw std::invalid_argument("run_network: the input does not have the network's shape");
  }
  std::vector<Tensor> tensors{input};
  tensors.reserve(network.layers.size() + 1);
  for (const net::Layer& l : network.layers) {
    const Tensor& x = tensors.at(l.inputs.at(0));
    Tensor y;
    switch (l.op) {
      case net::Op::kConv:
        y = conv2d_direct(x, l.conv);
        break;
      case net::Op::kFc:
        y = fully_connected(x, l.conv);
        break;
      case net::Op::kMaxPool:
        y = max_pool(x, l.window, l.act_min, l.act_max);
        break;
      case net::Op::kAvgPool:
        y = avg_pool(x, l.window, l.act_min, l.act_max);
        break;
      case net::Op::kAdd:
        y = add(x, tensors.at(l.inputs.at(1)), l.add);
        break;
      case net::Op::kGainBias:
        y = gain_bias(x, l.gain);
        break;
      case net::Op::kReduceSum:
        y = reduce_sum(x, l.axis, l.reduce_input_zero_point, l.reduce_output);
        break;
      case net::Op::kReduceMax:
        y = reduce_max(x, l.axis, l.act_min, l.act_max);
        break;
      case net::Op::kActivation:
        y = clamp(x, l.act_min, l.act_max);
        break;
      case net::Op::kLut:
        y = lookup(x, l.lut, l.act_min, l.act_max);
        break;
      case net::Op::kResize:
        y = clamp(resize_nearest(x, l.resize_h, l.resize_w), l.act_min, l.act_max);
        break;
      case net::Op::kConcat: {
        std::vector<Tensor> parts;
        for (const size_t t : l.inputs) parts.push_back(tensors.at(t));
        y = clamp(concat_channels(parts), l.act_min, l.act_max);
        break;
      }
    }
    tensors.push_back(std::move(y));
  }
  return tensors;
}

}  // namespace npugen::golden::reference
