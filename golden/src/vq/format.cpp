#include "npugen/golden/vq/format.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace npugen::golden {
namespace {

struct FloatLayout {
  int exponent_bits;
  int mantissa_bits;
  [[nodiscard]] int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  [[nodiscard]] uint32_t max_finite() const {
    return ((uint32_t{1} << exponent_bits) - 2) << mantissa_bits |
           ((uint32_t{1} << mantissa_bits) - 1);
  }
};

FloatLayout layout_of(WeightKind kind) {
  return kind == WeightKind::kFp16 ? FloatLayout{5, 10} : FloatLayout{8, 7};
}

double decode_float(uint32_t bits, FloatLayout f) {
  const uint32_t man_mask = (uint32_t{1} << f.mantissa_bits) - 1;
  const uint32_t exp_mask = (uint32_t{1} << f.exponent_bits) - 1;
  const bool negative = ((bits >> (f.exponent_bits + f.mantissa_bits)) & 1U) != 0;
  const uint32_t e = (bits >> f.mantissa_bits) & exp_mask;
  const uint32_t m = bits & man_mask;
  double v = 0;
  if (e == exp_mask) {
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), 1 - f.bias() - f.mantissa_bits);
  } else {
    v = std::ldexp(static_cast<double>(m | (man_mask + 1)),
                   static_cast<int>(e) - f.bias() - f.mantissa_bits);
  }
  return negative ? -v : v;
}

uint32_t encode_float(double x, FloatLayout f) {
  const uint32_t sign = std::signbit(x) ? uint32_t{1} << (f.exponent_bits + f.mantissa_bits) : 0;
  const double a = std::fabs(x);
  const double largest = decode_float(f.max_finite(), f);
  if (a >= largest) return sign | f.max_finite();
  const int min_exponent = 1 - f.bias();  // of the normal numbers
  int e = 0;
  std::frexp(a, &e);  // a = frac * 2^e, frac in [0.5, 1)
  --e;                // a = (2 frac) * 2^e
  if (a == 0 || e < min_exponent) {
    // Subnormal (or zero): a multiple of 2^(min_exponent - mantissa_bits).
    const double m = std::nearbyint(std::ldexp(a, f.mantissa_bits - min_exponent));
    return sign | static_cast<uint32_t>(m);  // m == 2^mantissa_bits is the smallest normal
  }
  double m = std::nearbyint(std::ldexp(a, f.mantissa_bits - e));  // in [2^mb, 2^(mb+1)]
  if (m == std::ldexp(1.0, f.mantissa_bits + 1)) {
    m /= 2;
    ++e;
  }
  const auto biased = static_cast<uint32_t>(e + f.bias());
  if (biased >= (uint32_t{1} << f.exponent_bits) - 1) return sign | f.max_finite();
  const uint32_t man = static_cast<uint32_t>(m) & ((uint32_t{1} << f.mantissa_bits) - 1);
  return sign | (biased << f.mantissa_bits) | man;
}

}  // namespace

double format_max(WeightFormat f) {
  switch (f.kind) {
    case WeightKind::kInt:
      return std::ldexp(1.0, static_cast<int>(f.width) - 1) - 1;
    case WeightKind::kUint:
      return std::ldexp(1.0, static_cast<int>(f.width)) - 1;
    default:
      return decode_float(layout_of(f.kind).max_finite(), layout_of(f.kind));
  }
}

double format_min(WeightFormat f) {
  switch (f.kind) {
    case WeightKind::kInt:
      return -std::ldexp(1.0, static_cast<int>(f.width) - 1);
    case WeightKind::kUint:
      return 0;
    default:
      return -format_max(f);
  }
}

double decode_weight(WeightFormat f, uint32_t bits) {
  bits &= format_mask(f);
  switch (f.kind) {
    case WeightKind::kInt: {
      const unsigned shift = 32 - f.width;
      return static_cast<double>(static_cast<int32_t>(bits << shift) >> shift);
    }
    case WeightKind::kUint:
      return static_cast<double>(bits);
    default:
      return decode_float(bits, layout_of(f.kind));
  }
}

uint32_t encode_weight(WeightFormat f, double value) {
  if (std::isnan(value)) throw std::invalid_argument("NaN has no weight encoding");
  if (f.is_float()) return encode_float(value, layout_of(f.kind));
  const double r = std::nearbyint(std::fmin(std::fmax(value, format_min(f)), format_max(f)));
  if (f.kind == WeightKind::kUint) return static_cast<uint32_t>(r);
  return static_cast<uint32_t>(static_cast<int64_t>(r)) & format_mask(f);
}

}  // namespace npugen::golden
