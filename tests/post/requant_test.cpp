// The post unit's requantization (TFLite int8): the golden coding against the plain
// reference's, on every shift, edge multipliers and accumulators; gemmlowp's rounding
// rules by hand; the direct convolution and fully connected references on small cases
// computed by hand.
#include "npugen/golden/post/requant.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <random>

#include "npugen/golden/post/reference.hpp"

using namespace npugen::golden;

TEST_CASE("gemmlowp's rounding rules, by hand", "[post]") {
  // SaturatingRoundingDoublingHighMul(x, 2^30) = x / 2 rounded half up.
  CHECK(saturating_rounding_doubling_high_mul(100, 1 << 30) == 50);
  CHECK(saturating_rounding_doubling_high_mul(101, 1 << 30) == 51);
  CHECK(saturating_rounding_doubling_high_mul(-101, 1 << 30) == -50);
  CHECK(saturating_rounding_doubling_high_mul(-103, 1 << 30) == -51);
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  CHECK(saturating_rounding_doubling_high_mul(kMin, kMin) == std::numeric_limits<int32_t>::max());
  // RoundingDivideByPOT: half away from zero.
  CHECK(rounding_divide_by_pot(5, 1) == 3);
  CHECK(rounding_divide_by_pot(-5, 1) == -3);
  CHECK(rounding_divide_by_pot(6, 2) == 2);
  CHECK(rounding_divide_by_pot(-6, 2) == -2);
  CHECK(rounding_divide_by_pot(-7, 2) == -2);
  CHECK(rounding_divide_by_pot(7, 0) == 7);
  // MultiplyByQuantizedMultiplier: 0.75 (M = 0.75 x 2^31) with a left shift of 1 = x * 1.5.
  const auto three_quarters = static_cast<int32_t>(3LL << 29);
  CHECK(multiply_by_quantized_multiplier(10, three_quarters, 1) == 15);
  CHECK(multiply_by_quantized_multiplier(-10, three_quarters, 1) == -15);
  // ... and a right shift of 2 = x * 0.1875: 100 -> 18.75 -> 19, -100 -> -19.
  CHECK(multiply_by_quantized_multiplier(100, three_quarters, -2) == 19);
  CHECK(multiply_by_quantized_multiplier(-100, three_quarters, -2) == -19);
  // The clamp and the zero point.
  Requant r;
  r.multiplier = 1 << 30;
  r.zero_point = -3;
  CHECK(requantize(1000, r) == 127);
  CHECK(requantize(-1000, r) == -128);
  CHECK(requantize(11, r) == 3);  // 5.5 -> 6, + (-3)
  r.act_min = r.zero_point;       // relu
  CHECK(requantize(-11, r) == -3);
}

TEST_CASE("the golden requantization equals the plain reference's", "[post]") {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  std::mt19937_64 rng(13);
  std::vector<int32_t> multipliers = {0,    1,    -1,       1 << 30,
                                      kMax, kMin, kMin + 1, static_cast<int32_t>(3LL << 29)};
  for (int i = 0; i < 24; ++i) {
    multipliers.push_back(
        static_cast<int32_t>((1LL << 30) + static_cast<int64_t>(rng() % (1LL << 30))));
  }
  for (int i = 0; i < 4; ++i) multipliers.push_back(static_cast<int32_t>(rng()));
  std::vector<int32_t> accs = {0, 1, -1, kMin, kMax, kMin + 1, kMax - 1};
  for (int b = 1; b < 31; ++b) {
    for (const int64_t d : {-1, 0, 1}) {
      accs.push_back(static_cast<int32_t>((int64_t{1} << b) + d));
      accs.push_back(static_cast<int32_t>(-(int64_t{1} << b) + d));
    }
  }
  for (int v = -4096; v <= 4096; ++v) accs.push_back(v);  // every small accumulator
  for (int i = 0; i < 2000; ++i) accs.push_back(static_cast<int32_t>(rng()));
  uint64_t compared = 0;
  for (const int32_t m : multipliers) {
    for (int shift = kMinShift; shift <= kMaxShift; ++shift) {
      Requant r;
      r.multiplier = m;
      r.shift = shift;
      r.zero_point = static_cast<int32_t>(rng() % 256) - 128;
      const bool relu = rng() % 2 != 0;
      r.act_min = relu ? r.zero_point : -128;
      for (const int32_t acc : accs) {
        if (requantize(acc, r) != reference::requantize(acc, r)) {
          FAIL("acc " << acc << " M " << m << " shift " << shift << ": golden "
                      << requantize(acc, r) << ", reference " << reference::requantize(acc, r));
        }
        // The unclamped value too, so that the clamp hides no difference.
        Requant wide = r;
        wide.act_min = kMin;
        wide.act_max = kMax;
        wide.zero_point = 0;
        if (requantize(acc, wide) != reference::requantize(acc, wide)) {
          FAIL("unclamped: acc " << acc << " M " << m << " shift " << shift);
        }
        ++compared;
      }
    }
  }
  CHECK(compared > 10'000'000);
}

TEST_CASE("the direct convolution, by hand", "[post]") {
  // A 2 x 3 input of 2 channels, input zero point 1; one 2 x 2 filter, stride 1, padding 1
  // on top and left; bias 10; scale 1 (M = 2^30, shift 1), output zero point 0.
  reference::Tensor in;
  in.n = 1, in.h = 2, in.w = 3, in.c = 2;
  in.data = {1, 2, 3, 4,  5,  6,  //
             7, 8, 9, 10, 11, 12};
  reference::ConvLayer l;
  l.filters = 1, l.kernel_h = 2, l.kernel_w = 2, l.pad_top = 1, l.pad_left = 1;
  l.weights = {1, 0,  0, 1,  // kh 0: kw 0 (c0, c1), kw 1
               1, -1, 2, 0};
  l.bias = {10};
  l.input_zero_point = 1;
  Requant r;
  r.multiplier = 1 << 30;
  r.shift = 1;
  l.output = {r};
  const reference::Tensor out = reference::conv2d_direct(in, l);
  REQUIRE(out.h == 2);
  REQUIRE(out.w == 3);
  // Output (0, 0): only kernel (1, 1) is inside: input (0, 0) = (1, 2) - 1 = (0, 1):
  // 0 * 2 + 1 * 0 = 0; + 10.
  CHECK(out.at(0, 0, 0, 0) == 10);
  // Output (1, 1): kernel (0,0) -> input (0,0) (0,1): 0; (0,1) -> input (0,1) = (2,3): 3;
  // (1,0) -> input (1,0) = (6,7): 6 - 7 = -1; (1,1) -> input (1,1) = (8,9): 16. Sum 18 + 10.
  CHECK(out.at(0, 1, 1, 0) == 28);
  // fully_connected on a 1 x 1 x 4 input equals the 1 x 1 convolution of it.
  reference::Tensor v;
  v.n = 2, v.h = 1, v.w = 1, v.c = 4;
  v.data = {-128, 127, 3, -4, 5, 6, -7, 8};
  reference::ConvLayer fc;
  fc.filters = 3;
  fc.weights = {1, 2, 3, 4, -1, -2, -3, -4, 127, -128, 0, 1};
  fc.bias = {0, 100, -100};
  fc.input_zero_point = -128;
  fc.output = {r, r, r};
  CHECK(reference::fully_connected(v, fc).data == reference::conv2d_direct(v, fc).data);
}
