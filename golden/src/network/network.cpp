#include "npugen/golden/network/network.hpp"

namespace npugen::golden::net {

const char* op_name(Op op) {
  switch (op) {
    case Op::kConv:
      return "conv";
    case Op::kFc:
      return "fc";
    case Op::kMaxPool:
      return "max_pool";
    case Op::kAvgPool:
      return "avg_pool";
    case Op::kAdd:
      return "add";
    case Op::kGainBias:
      return "gain_bias";
    case Op::kReduceSum:
      return "reduce_sum";
    case Op::kReduceMax:
      return "reduce_max";
    case Op::kActivation:
      return "activation";
    case Op::kLut:
      return "lut";
    case Op::kConcat:
      return "concat";
    case Op::kResize:
      return "resize";
  }
  return "?";
}

std::vector<NetworkOutput> network_outputs(const Network& n) {
  if (!n.outputs.empty()) return n.outputs;
  if (n.layers.empty()) return {};
  return {NetworkOutput{n.layers.size(), n.layers.back().name}};
}

}  // namespace npugen::golden::net
