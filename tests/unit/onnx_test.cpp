// The ONNX reader's arithmetic (issue 16): float scales become (multiplier, shift) pairs as
// TFLite's QuantizeMultiplier makes them, and the pair reproduces the scale.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "net/onnx_reader.hpp"

using npugen::net::quantize_multiplier;

TEST_CASE("onnx: scales become TFLite's Q31 multipliers and shifts", "[onnx]") {
  int32_t m = 0;
  int shift = 0;
  quantize_multiplier(0.5, m, shift);
  CHECK(m == 1073741824);
  CHECK(shift == 0);
  quantize_multiplier(1.0, m, shift);
  CHECK(m == 1073741824);
  CHECK(shift == 1);
  quantize_multiplier(0.0, m, shift);
  CHECK(m == 0);
  CHECK(shift == 0);
  // A mantissa that rounds up to 2^31 moves to the next exponent.
  quantize_multiplier(std::nextafter(1.0, 0.0), m, shift);
  CHECK(m == 1073741824);
  CHECK(shift == 1);
  quantize_multiplier(1e-12, m, shift);  // below 2^-31 x 2^-1: nothing
  CHECK(m == 0);
  CHECK(shift == 0);
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> e(-30, 8);
  for (int i = 0; i < 10000; ++i) {
    const double real = std::pow(2.0, e(rng));
    quantize_multiplier(real, m, shift);
    REQUIRE(m >= (1 << 30));
    const double back = static_cast<double>(m) / 2147483648.0 * std::pow(2.0, shift);
    REQUIRE(std::abs(back - real) <= real * std::pow(2.0, -31));
  }
}
