// The LUT of an element-wise function, as ONNX Runtime computes it (lut_function.hpp). Every
// step is float32, in ORT's order; the file is compiled with -ffp-contract=off so that no
// multiply and add fuse into one rounding.
#include "net/lut_function.hpp"

#include <algorithm>
#include <cmath>

namespace npugen::net {

std::string_view lut_function_name(LutFunction f) {
  switch (f) {
    case LutFunction::kSigmoid:
      return "sigmoid";
    case LutFunction::kTanh:
      return "tanh";
    case LutFunction::kHardSigmoid:
      return "hard_sigmoid";
    case LutFunction::kHardSwish:
      return "hard_swish";
    case LutFunction::kLeakyRelu:
      return "leaky_relu";
    case LutFunction::kElu:
      return "elu";
    case LutFunction::kSilu:
      return "silu";
    case LutFunction::kIdentity:
      return "identity";
  }
  return "?";
}

std::optional<LutFunction> lut_function_of(std::string_view name) {
  for (const LutFunction f : {LutFunction::kSigmoid, LutFunction::kTanh, LutFunction::kHardSigmoid,
                              LutFunction::kHardSwish, LutFunction::kLeakyRelu, LutFunction::kElu,
                              LutFunction::kSilu, LutFunction::kIdentity}) {
    if (lut_function_name(f) == name) return f;
  }
  return std::nullopt;
}

float default_alpha(LutFunction f) {
  switch (f) {
    case LutFunction::kHardSigmoid:
      return 0.2F;
    case LutFunction::kLeakyRelu:
      return 0.01F;
    case LutFunction::kElu:
    case LutFunction::kSilu:
      return 1.0F;
    default:
      return 0.0F;
  }
}

float default_beta(LutFunction f) { return f == LutFunction::kHardSigmoid ? 0.5F : 0.0F; }

namespace {

float sigmoid(float x) { return 1.0F / (1.0F + std::exp(-x)); }

float apply(LutFunction f, float alpha, float beta, float x) {
  switch (f) {
    case LutFunction::kSigmoid:
      return sigmoid(x);
    case LutFunction::kTanh:
      return std::tanh(x);
    case LutFunction::kHardSigmoid:
      return std::max(0.0F, std::min(1.0F, alpha * x + beta));
    case LutFunction::kHardSwish: {
      const float sixth = 1.0F / 6.0F;
      return x * std::max(0.0F, std::min(1.0F, sixth * x + 0.5F));
    }
    case LutFunction::kLeakyRelu:
      return x >= 0.0F ? x : alpha * x;
    case LutFunction::kElu:
      return x >= 0.0F ? x : alpha * (std::exp(x) - 1.0F);
    case LutFunction::kSilu:
      return x * sigmoid(alpha * x);
    case LutFunction::kIdentity:
      return x;
  }
  return x;
}

}  // namespace

std::array<int8_t, 256> lut_table(LutFunction f, float alpha, float beta, const LutQuant& q) {
  std::array<int8_t, 256> t{};
  for (int i = 0; i < 256; ++i) {
    const int32_t in = i - 128;
    const float x = static_cast<float>(in - q.x_zero_point) * q.x_scale;
    const float y = apply(f, alpha, beta, x);
    // QuantizeLinear: y / scale (a division), clamped to the int8 range less the zero point,
    // rounded half to even (the current rounding mode), the zero point added.
    const float lo = static_cast<float>(-128 - q.y_zero_point);
    const float hi = static_cast<float>(127 - q.y_zero_point);
    float v = y / q.y_scale;
    if (std::isnan(v)) v = 0.0F;  // none of the functions gives NaN on finite inputs
    v = std::clamp(v, lo, hi);
    t[static_cast<size_t>(i)] =
        static_cast<int8_t>(static_cast<int32_t>(std::nearbyint(v)) + q.y_zero_point);
  }
  return t;
}

}  // namespace npugen::net
