// The planar engine's LUT (op lut) for an element-wise function of a quantized tensor: the
// output for every int8 input, computed as ONNX Runtime's CPU execution provider computes
// DequantizeLinear -> f -> QuantizeLinear (docs/onnx.md, "Functions as a table"):
//
//   x = float(q - x_zp) * x_scale          (float32)
//   y = f(x)                               (float32, the function's float formula)
//   out = clamp(nearbyint(y / y_scale) + y_zp, -128, 127)   (a division, half to even)
//
// Its QLinearSigmoid and QLinearLeakyRelu build their tables the same way, so the NPU's result
// is ONNX Runtime's exactly; tests/onnx/conformance.py checks every function against it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace npugen::net {

enum class LutFunction : uint8_t {
  kSigmoid,      ///< 1 / (1 + exp(-x))
  kTanh,         ///< tanh(x)
  kHardSigmoid,  ///< max(0, min(1, alpha x + beta)) (ONNX: alpha 0.2, beta 0.5)
  kHardSwish,    ///< x max(0, min(1, x / 6 + 1 / 2))
  kLeakyRelu,    ///< x >= 0 ? x : alpha x (ONNX: alpha 0.01)
  kElu,          ///< x >= 0 ? x : alpha (exp(x) - 1) (ONNX: alpha 1)
  kSilu,         ///< x sigmoid(alpha x) (ONNX's Swish; SiLU: alpha 1)
  kIdentity,     ///< x: a requantization (QLinearConcat's tables)
};

/// "sigmoid", "tanh", "hard_sigmoid", "hard_swish", "leaky_relu", "elu", "silu", "identity".
std::string_view lut_function_name(LutFunction f);
/// The function of that name, if any.
std::optional<LutFunction> lut_function_of(std::string_view name);
/// The function's alpha and beta when the model gives none (ONNX's defaults; 0 if unused).
float default_alpha(LutFunction f);
float default_beta(LutFunction f);

struct LutQuant {
  float x_scale = 1.0F;
  int32_t x_zero_point = 0;  ///< int8
  float y_scale = 1.0F;
  int32_t y_zero_point = 0;  ///< int8
};

/// The table: entry x + 128 is the output for int8 input x.
std::array<int8_t, 256> lut_table(LutFunction f, float alpha, float beta, const LutQuant& q);

}  // namespace npugen::net
