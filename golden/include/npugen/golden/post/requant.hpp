// The post unit's arithmetic: TFLite's int8 requantization, as the
// RTL computes it, stage by stage. docs/post.md defines it once in words; this is the
// golden model's coding, and golden/src/post/reference.cpp codes it again, apart,
// for the plain reference.
//
//   acc = sum((x - x_zp) * w) + bias[k]                        (int32, wrapping)
//   y   = clamp(MBQM(acc, M[k], shift[k]) + y_zp, act_min, act_max)
//   MBQM(x, M, s) = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x * 2^max(s, 0), M),
//                                       max(-s, 0))
//
// with gemmlowp's SaturatingRoundingDoublingHighMul (nudge 2^30, or 1 - 2^30 for a negative
// product, then a division by 2^31 that truncates; INT32_MIN x INT32_MIN saturates to
// INT32_MAX) and RoundingDivideByPOT (round half away from zero). x * 2^s wraps at 32 bits
// (TFLite leaves the overflow undefined; the hardware wraps).
#pragma once

#include <cstdint>

namespace npugen::golden {

/// TFLite's limits of a quantized multiplier's shift (QuantizeMultiplier gives -31 to 30).
inline constexpr int kMinShift = -31;
inline constexpr int kMaxShift = 30;

/// One output channel's requantization parameters.
struct Requant {
  int32_t multiplier = 1 << 30;  ///< M: Q31, normally in [2^30, 2^31)
  int shift = 0;                 ///< left (> 0) or right (< 0) shift
  int32_t zero_point = 0;        ///< y_zp
  int32_t act_min = -128;        ///< clamp (relu: y_zp), int8 by default
  int32_t act_max = 127;
};

/// gemmlowp's SaturatingRoundingDoublingHighMul.
int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b);
/// gemmlowp's RoundingDivideByPOT (exponent 0 to 31).
int32_t rounding_divide_by_pot(int32_t x, int exponent);
/// TFLite's MultiplyByQuantizedMultiplier.
int32_t multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift);
/// The post unit: accumulator (bias included) to the clamped output.
int32_t requantize(int32_t acc, const Requant& r);

}  // namespace npugen::golden
