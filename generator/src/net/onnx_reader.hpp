// Reading a quantized ONNX model (docs/onnx.md) into the network model the network
// file reader fills (golden::net::Network): both of ONNX's int8 quantization formats,
// QOperator (QLinearConv, QLinearMatMul, and ONNX Runtime's com.microsoft QGemm, QLinearAdd,
// QLinearAveragePool, QLinearGlobalAveragePool) and QDQ (QuantizeLinear/DequantizeLinear
// pairs around Conv, Gemm, MatMul, Add and pooling), with MaxPool, AveragePool, Relu and
// Clip (fused into their producer), Flatten, Reshape to 2-D, Identity, and transposes
// between NCHW and NHWC; element-wise functions (Sigmoid, Tanh, HardSigmoid, HardSwish,
// LeakyRelu, Elu, Swish, QLinearSigmoid, QLinearLeakyRelu) as 256-entry tables, Concat and
// QLinearConcat along the channels, Resize (nearest, whole factors), several graph outputs. Float scales become per-channel (multiplier, shift) pairs as
// TFLite's QuantizeMultiplier makes them; uint8 activations map to int8 by subtracting 128
// from the values and the zero point. Whatever cannot be mapped is a diagnostic naming the
// node, its operator and the reason.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/diagnostic.hpp"
#include "net/network_file.hpp"

namespace npugen::net {

/// The quantization of a tensor at the model's edge, as ONNX writes it.
struct OnnxEdge {
  std::string name;           ///< the graph input's or output's name
  double scale = 1.0;         ///< float
  int32_t zero_point = 0;     ///< as the model has it (uint8: 0 to 255)
  bool uint8 = false;         ///< uint8 in the model (int8 = value - 128 in the network)
  std::vector<int64_t> dims;  ///< the graph's shape (batch as 0 when dynamic)
  bool nchw = true;           ///< the graph input's layout (rank 4)
  bool int32 = false;  ///< the output is int32 in the model (ConvInteger, MatMulInteger), int8 here
};

/// A layer as imported: the nodes it came from, for `npugen onnx-info`.
struct OnnxLayerInfo {
  std::vector<std::string> nodes;  ///< "name (OpType)"
  double input_scale = 1.0, output_scale = 1.0;
  std::vector<double> weight_scales;  ///< conv, fc: per output channel
};

struct OnnxModel {
  NetworkFile file;  ///< the network (layer lines 0: a model has no lines)
  OnnxEdge input;
  std::vector<OnnxEdge> outputs;  ///< the graph's outputs, in order (the network's outputs)
  std::vector<OnnxLayerInfo> layers;
  std::string format;  ///< "QOperator", "QDQ" or "QOperator and QDQ"
  int64_t opset = 0;   ///< of the default domain
};

struct OnnxResult {
  std::optional<OnnxModel> model;
  config::Diagnostics diagnostics;
};

/// The default domain's opsets the reader maps.
inline constexpr int64_t kOnnxOpsetMin = 10, kOnnxOpsetMax = 25;

/// Reads an ONNX model file (a regular file; a missing, corrupt or truncated one is a
/// diagnostic).
OnnxResult read_onnx_file(const std::filesystem::path& file);
/// The same from the file's bytes; messages name `display_name`.
OnnxResult read_onnx_bytes(const std::string& bytes, const std::string& display_name);

/// TFLite's QuantizeMultiplier: `real` as a Q31 multiplier and a shift (left when > 0).
void quantize_multiplier(double real, int32_t& multiplier, int& shift);

}  // namespace npugen::net
