#include "npugen/golden/post/requant.hpp"

#include <algorithm>
#include <limits>

namespace npugen::golden {

int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == std::numeric_limits<int32_t>::min() && b == std::numeric_limits<int32_t>::min()) {
    return std::numeric_limits<int32_t>::max();
  }
  const int64_t product = int64_t{a} * int64_t{b};
  const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  // C++ division truncates toward zero, as gemmlowp's does.
  return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}

int32_t rounding_divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  // x * 2^left, wrapping at 32 bits.
  const auto shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, multiplier), right);
}

int32_t requantize(int32_t acc, const Requant& r) {
  const int64_t y =
      int64_t{multiply_by_quantized_multiplier(acc, r.multiplier, r.shift)} + r.zero_point;
  return static_cast<int32_t>(std::clamp<int64_t>(y, r.act_min, r.act_max));
}

}  // namespace npugen::golden
