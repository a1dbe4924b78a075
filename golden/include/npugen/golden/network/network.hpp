// A quantized network as the NPU runs it: the layers of a network file
// (docs/network.md) with their TFLite int8 arithmetic, in the plain reference's terms.
// The network-file reader (generator) fills it, the compiler lowers it to engine tasks,
// and the plain reference interpreter (network/reference.hpp) runs it directly.
//
// Tensors are int8 NHWC. Tensor 0 is the network's input, tensor i + 1 layer i's output;
// a layer reads the tensors its `inputs` name (earlier ones only).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "npugen/golden/planar/reference.hpp"
#include "npugen/golden/post/reference.hpp"

namespace npugen::golden::net {

enum class Op : uint8_t {
  kConv,        ///< convolution (conv), weights [K][KH][KW][C]
  kFc,          ///< fully connected, the input flattened in (h, w, c) order, weights [K][IN]
  kMaxPool,     ///< max pooling over the valid positions, then the clamp
  kAvgPool,     ///< average pooling over the valid positions, then the clamp
  kAdd,         ///< TFLite ADD of two tensors of one shape
  kGainBias,    ///< per channel gain and bias (seed 001's one-pass mode)
  kReduceSum,   ///< sum over H x W or the channels, scaled as a gain
  kReduceMax,   ///< maximum over H x W or the channels
  kActivation,  ///< the clamp alone (relu: act_min = the zero point)
  kLut,         ///< a 256-entry table: lut[x + 128], then the clamp
  kConcat,      ///< its inputs' channels one after the other (one zero point), then the clamp
  kResize,      ///< nearest-neighbour upsampling by integer factors, then the clamp
};

/// The layer kind as the network file writes it.
const char* op_name(Op op);
/// Whether the neural engine (sequencer) runs the layer; otherwise the planar engine does.
inline bool is_neural(Op op) { return op == Op::kConv || op == Op::kFc; }

/// An int8 NHWC tensor's shape (per image; the batch comes from the input).
struct Shape {
  int h = 1, w = 1, c = 1;
  [[nodiscard]] size_t elements() const { return static_cast<size_t>(h) * w * c; }
  bool operator==(const Shape&) const = default;
};

/// A conv or fc layer whose weights are loaded as codebook indices (the NPU's VQ weight
/// loader; `vq:` in the network file): every run of `vector_length` consecutive weights along
/// the input channels is one of the codebook's vectors, and the layer's weights are those
/// vectors (its arithmetic uses them).
struct VqTable {
  unsigned vector_length = 0;    ///< m; 0: the weights are loaded as they are
  std::vector<int8_t> codebook;  ///< V x m weights; vector 0 is all zeros
};

struct Layer {
  std::string name;
  Op op = Op::kConv;
  std::vector<size_t> inputs;  ///< tensor indices (0 the network input, i + 1 layer i)
  Shape out;                   ///< the output's shape
  int line = 0;                ///< where the network file defines it (messages)

  reference::ConvLayer conv;     ///< conv, fc: weights, bias, x_zp, per-channel output
  VqTable vq;                    ///< conv, fc: loaded as codebook indices
  reference::PoolWindow window;  ///< pools (and the conv's kernel, stride, padding)
  int32_t act_min = -128;        ///< pools, reduce_max, activation: the clamp
  int32_t act_max = 127;
  int32_t zero_point = 0;    ///< the output's zero point (every op)
  reference::AddParams add;  ///< add
  reference::GainBias gain;  ///< gain_bias
  reference::ReduceAxis axis = reference::ReduceAxis::kSpatial;  ///< reductions
  int32_t reduce_input_zero_point = 0;                           ///< reduce_sum
  std::vector<Requant> reduce_output;                            ///< reduce_sum [C']
  std::array<int8_t, 256> lut{};   ///< lut: the output for input x at x + 128
  int resize_h = 1, resize_w = 1;  ///< resize: output row y reads input row y / resize_h
};

/// A tensor the network gives out (a graph output), and its name (the layer's, or the ONNX
/// graph output's): `output_<name>.npy` when a network has several.
struct NetworkOutput {
  size_t tensor = 0;  ///< a layer's output (i + 1 for layer i)
  std::string name;
  bool operator==(const NetworkOutput&) const = default;
};

struct Network {
  Shape input;                   ///< the input tensor, per image
  int32_t input_zero_point = 0;  ///< x_zp of the input tensor
  std::vector<Layer> layers;     ///< in execution order
  bool has_arithmetic = false;   ///< weights and quantization given (not a shape-only file)
  /// The network's outputs, in order, each a different layer's; empty: the last layer's.
  std::vector<NetworkOutput> outputs;

  /// The shape of tensor `t` (0 the input).
  [[nodiscard]] const Shape& shape_of(size_t t) const { return t == 0 ? input : layers[t - 1].out; }
};

/// The network's outputs: `n.outputs`, or the last layer's tensor named after the layer
/// (none without layers).
std::vector<NetworkOutput> network_outputs(const Network& n);

/// Makes `layer` (conv or fc, its weights given) a VQ layer: trains a codebook of
/// `codewords` - 1 vectors of `vector_length` consecutive weights along its input channels
/// (golden::vq_train: k-means++ seeding, Lloyd iterations, seed 1), puts the zero vector in
/// front as vector 0, gives every run of weights the nearest vector (squared distance; the
/// lowest index on a tie) and replaces the weights by those vectors. `channels`: the layer's
/// input channels, a multiple of the vector length. Throws std::invalid_argument when the
/// vector length is not a power of two dividing `channels` or codewords is below 2.
void make_vq_layer(Layer& layer, int channels, unsigned vector_length, unsigned codewords);

}  // namespace npugen::golden::net
