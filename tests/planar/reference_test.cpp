// The planar engine's arithmetic (issue 14): the divider the hardware uses
// for average pooling against TFLite's rounding, for every count and every sum an int8
// window reaches; the plain reference of each mode on cases worked by hand.
#include "npugen/golden/planar/reference.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "npugen/golden/planar/arith.hpp"
#include "npugen/golden/planar/divide.hpp"

using namespace npugen::golden;

namespace {

reference::Tensor tensor(int h, int w, int c, std::vector<int8_t> data) {
  reference::Tensor t;
  t.h = h, t.w = w, t.c = c;
  t.data = std::move(data);
  return t;
}

// A random tensor of 1 or 2 images, up to max_hw x max_hw x max_c; `extreme`: every value
// -128 or 127.
reference::Tensor random_tensor(std::mt19937_64& rng, int max_hw, int max_c, bool extreme) {
  auto draw = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  reference::Tensor x;
  x.n = draw(1, 2), x.h = draw(1, max_hw), x.w = draw(1, max_hw), x.c = draw(1, max_c);
  x.data.resize(static_cast<size_t>(x.n * x.h * x.w * x.c));
  for (auto& v : x.data) {
    v = static_cast<int8_t>(extreme ? (rng() % 2 ? 127 : -128) : draw(-128, 127));
  }
  return x;
}

}  // namespace

TEST_CASE("the average pool's divider is exact for every count and every int8 window sum",
          "[planar]") {
  // Windows up to 15 x 15 (the 4-bit kernel fields' largest): for tables of several sizes,
  // every count n up to the table's and every sum of n int8 values, the reciprocal multiply
  // equals TFLite's rounded division.
  uint64_t checked = 0;
  for (const unsigned max_count : {1U, 2U, 9U, 25U, 49U, 100U, 225U}) {
    const PoolDivider d = PoolDivider::for_counts(max_count);
    for (unsigned n = 1; n <= max_count; ++n) {
      const int32_t lo = -128 * static_cast<int32_t>(n), hi = 127 * static_cast<int32_t>(n);
      for (int32_t sum = lo; sum <= hi; ++sum, ++checked) {
        if (d.divide(sum, n) != reference::average(sum, n)) {
          FAIL("table " << max_count << " (shift " << d.shift << "): " << sum << " / " << n
                        << " gives " << d.divide(sum, n) << ", TFLite "
                        << reference::average(sum, n));
        }
      }
    }
  }
  CHECK(checked > 8'000'000);
  // The multiplier's width for the largest table: a 15-bit magnitude times this.
  CHECK(PoolDivider::for_counts(225).reciprocal_bits() <= 24);
  CHECK(PoolDivider::for_counts(9).reciprocal_bits() <= 16);
}

TEST_CASE("TFLite's average rounds half away from zero", "[planar]") {
  CHECK(reference::average(10, 4) == 3);    // 2.5
  CHECK(reference::average(-10, 4) == -3);  // -2.5
  CHECK(reference::average(9, 4) == 2);     // 2.25
  CHECK(reference::average(-9, 4) == -2);
  CHECK(reference::average(0, 7) == 0);
  CHECK(reference::average(-128 * 9, 9) == -128);
}

TEST_CASE("pooling counts only the valid positions of a padded window", "[planar]") {
  // A 2 x 2 input in a 3 x 3 window with padding 1: every output sees the 4 inputs.
  reference::PoolWindow w;
  w.kernel_h = w.kernel_w = 3;
  w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = 1;
  const reference::Tensor up = tensor(2, 2, 1, {1, 2, 3, 4});
  const reference::Tensor avg = reference::avg_pool(up, w, -128, 127);
  REQUIRE(avg.h == 2);
  REQUIRE(avg.w == 2);
  for (const int8_t v : avg.data) CHECK(v == 3);  // 10 / 4 = 2.5 -> 3
  const reference::Tensor down = tensor(2, 2, 1, {-1, -2, -3, -4});
  for (const int8_t v : reference::avg_pool(down, w, -128, 127).data) CHECK(v == -3);
  // Max over the valid positions only: all negative, no padded zero wins.
  for (const int8_t v : reference::max_pool(down, w, -128, 127).data) CHECK(v == -1);
  // The clamp after the pool.
  for (const int8_t v : reference::max_pool(down, w, 0, 127).data) CHECK(v == 0);
  // Stride 2 with no padding: one output of the four inputs per channel.
  reference::PoolWindow s;
  s.kernel_h = s.kernel_w = 2;
  s.stride_y = s.stride_x = 2;
  const reference::Tensor two = tensor(2, 2, 2, {1, -1, 2, -2, 3, -3, 4, -4});
  const reference::Tensor m = reference::max_pool(two, s, -128, 127);
  REQUIRE(m.data.size() == 2);
  CHECK(m.data[0] == 4);
  CHECK(m.data[1] == -1);
}

TEST_CASE("TFLite ADD with equal scales adds the values", "[planar]") {
  // Input scales s, output scale s: input multipliers s / (2 s) = 0.5 (2^30, shift 0),
  // output multiplier 2 s / (2^20 s) = 2^-19 (2^30, shift -18), as TFLite prepares them.
  reference::AddParams p;
  p.a_multiplier = p.b_multiplier = 1 << 30;
  p.output.multiplier = 1 << 30;
  p.output.shift = -18;
  const reference::Tensor a = tensor(1, 4, 1, {10, -100, 127, 0});
  const reference::Tensor b = tensor(1, 4, 1, {5, -50, 127, -1});
  const reference::Tensor y = reference::add(a, b, p);
  CHECK(y.data == std::vector<int8_t>{15, -128, 127, -1});  // -150 and 254 clamped
  // Zero points: the inputs less theirs, the output plus its own.
  p.a_zero_point = 10, p.b_zero_point = -5, p.output.zero_point = 3;
  // (10 - 10) + (5 + 5) + 3; -110 - 45 + 3 and 117 + 132 + 3 clamped; -10 + 4 + 3.
  CHECK(reference::add(a, b, p).data == std::vector<int8_t>{13, -128, 127, -3});
}

TEST_CASE("reductions over H x W and over the channels", "[planar]") {
  // 1 x 2 x 2 x 3: channel c of pixel p is 10 p + c - 20.
  std::vector<int8_t> v;
  for (int p = 0; p < 4; ++p) {
    for (int c = 0; c < 3; ++c) v.push_back(static_cast<int8_t>(10 * p + c - 20));
  }
  const reference::Tensor x = tensor(2, 2, 3, v);
  // A global average pool: the sum of x - x_zp over 4 pixels, scaled by 1/4 (2^30 with
  // shift -1 is 0.25), plus y_zp.
  Requant quarter;
  quarter.multiplier = 1 << 30;
  quarter.shift = -1;
  quarter.zero_point = 1;
  const reference::Tensor mean =
      reference::reduce_sum(x, reference::ReduceAxis::kSpatial, -2, {quarter, quarter, quarter});
  REQUIRE(mean.h == 1);
  REQUIRE(mean.c == 3);
  // Channel c: (sum of 10 p + c - 20 + 2 over p) / 4 = (60 + 4 c - 72) / 4 = c - 3, + 1.
  CHECK(mean.data == std::vector<int8_t>{-2, -1, 0});
  CHECK(reference::reduce_max(x, reference::ReduceAxis::kSpatial, -128, 127).data ==
        std::vector<int8_t>{10, 11, 12});
  // Over the channels: pixel p's 3 values; the sum unscaled (1.0 = 2^30 shifted left 1).
  Requant one;
  one.multiplier = 1 << 30;
  one.shift = 1;
  const reference::Tensor sums =
      reference::reduce_sum(x, reference::ReduceAxis::kChannels, 0, {one});
  REQUIRE(sums.c == 1);
  CHECK(sums.data == std::vector<int8_t>{-57, -27, 3, 33});  // 30 p + 3 - 60
  CHECK(reference::reduce_max(x, reference::ReduceAxis::kChannels, -5, 127).data ==
        std::vector<int8_t>{-5, -5, 2, 12});
}

TEST_CASE("gain and bias per channel, then the clamp", "[planar]") {
  reference::GainBias g;
  g.input_zero_point = 3;
  g.bias = {10, -7};
  Requant half;  // 0.5
  half.multiplier = 1 << 30;
  half.zero_point = -5;
  Requant twice = half;  // 2.0: 0.5 shifted left by 2
  twice.shift = 2;
  twice.zero_point = 0;
  twice.act_min = 0;  // ReLU
  g.output = {half, twice};
  const reference::Tensor x = tensor(1, 2, 2, {9, 9, 4, 1});
  const reference::Tensor y = reference::gain_bias(x, g);
  CHECK(y.data[0] == 3 + 10 - 5);  // (9 - 3) x 0.5 = 3
  CHECK(y.data[1] == 12 - 7);      // (9 - 3) x 2 = 12
  CHECK(y.data[2] == 1 + 10 - 5);  // (4 - 3) x 0.5 = 0.5, rounded away from zero
  CHECK(y.data[3] == 0);           // (1 - 3) x 2 - 7 = -11, ReLU
  CHECK(reference::clamp(x, 2, 5).data == std::vector<int8_t>{5, 5, 4, 2});
}

TEST_CASE("the engine's separable pooling, ADD and gain equal the plain reference", "[planar]") {
  std::mt19937_64 rng(1001);
  auto draw = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  const PoolDivider divider = PoolDivider::for_counts(15 * 15);
  int pools = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // Extremes half the time.
    const reference::Tensor x = random_tensor(rng, 9, 5, trial % 2 == 0);
    reference::PoolWindow r;
    r.kernel_h = draw(1, trial % 10 == 0 ? 15 : 4), r.kernel_w = draw(1, trial % 10 == 0 ? 15 : 4);
    r.stride_y = draw(1, 4), r.stride_x = draw(1, 4);
    r.pad_top = draw(0, r.kernel_h - 1), r.pad_bottom = draw(0, r.kernel_h - 1);
    r.pad_left = draw(0, r.kernel_w - 1), r.pad_right = draw(0, r.kernel_w - 1);
    if (r.kernel_h > x.h + r.pad_top + r.pad_bottom ||
        r.kernel_w > x.w + r.pad_left + r.pad_right) {
      continue;
    }
    const planar::Window w{r.kernel_h, r.kernel_w,   r.stride_y, r.stride_x,
                           r.pad_top,  r.pad_bottom, r.pad_left, r.pad_right};
    const int32_t lo = draw(-128, 0), hi = draw(lo, 127);
    INFO("trial " << trial);
    CHECK(planar::pool(x, w, planar::Pool::kMax, divider, lo, hi).data ==
          reference::max_pool(x, r, lo, hi).data);
    CHECK(planar::pool(x, w, planar::Pool::kAverage, divider, lo, hi).data ==
          reference::avg_pool(x, r, lo, hi).data);
    ++pools;
  }
  CHECK(pools > 250);
  // ADD and the gain, element by element, over every pair of int8 inputs for random scales.
  for (int trial = 0; trial < 20; ++trial) {
    reference::AddParams p;
    p.a_zero_point = draw(-128, 127), p.b_zero_point = draw(-128, 127);
    p.a_multiplier = (1 << 30) + draw(0, (1 << 30) - 1), p.a_shift = draw(-10, 0);
    p.b_multiplier = (1 << 30) + draw(0, (1 << 30) - 1), p.b_shift = draw(-10, 0);
    p.output.multiplier = (1 << 30) + draw(0, (1 << 30) - 1), p.output.shift = draw(-25, -10);
    p.output.zero_point = draw(-128, 127);
    p.output.act_min = draw(-128, 0), p.output.act_max = draw(p.output.act_min, 127);
    const planar::AddScales s{p.a_zero_point, p.b_zero_point, p.left_shift, p.a_multiplier,
                              p.b_multiplier, p.a_shift,      p.b_shift,    p.output};
    reference::Tensor a, b;
    a.w = b.w = 256 * 256;
    for (int i = 0; i < 256 * 256; ++i) {
      a.data.push_back(static_cast<int8_t>(i / 256 - 128));
      b.data.push_back(static_cast<int8_t>(i % 256 - 128));
    }
    const reference::Tensor want = reference::add(a, b, p);
    for (size_t i = 0; i < a.data.size(); ++i) {
      if (planar::add(a.data[i], b.data[i], s) != want.data[i]) {
        FAIL("add trial " << trial << ": " << int{a.data[i]} << " + " << int{b.data[i]});
      }
    }
    reference::GainBias g;
    g.input_zero_point = draw(-128, 127);
    Requant r;
    r.multiplier = (1 << 30) + draw(0, (1 << 30) - 1), r.shift = draw(-8, 4);
    r.zero_point = draw(-128, 127), r.act_min = draw(-128, 0), r.act_max = draw(r.act_min, 127);
    g.bias = {draw(-100000, 100000)};
    g.output = {r};
    reference::Tensor x;
    x.w = 256;
    for (int v = -128; v < 128; ++v) x.data.push_back(static_cast<int8_t>(v));
    const reference::Tensor gy = reference::gain_bias(x, g);
    for (size_t i = 0; i < x.data.size(); ++i) {
      CHECK(planar::gain_bias(x.data[i], g.input_zero_point, g.bias[0], r) == gy.data[i]);
    }
  }
}

TEST_CASE("the engine's reductions equal the plain reference", "[planar]") {
  std::mt19937_64 rng(77);
  auto draw = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  for (int trial = 0; trial < 300; ++trial) {
    const reference::Tensor x = random_tensor(rng, 12, 20, trial % 3 == 0);
    const auto lanes = static_cast<unsigned>(draw(1, 8));
    const int32_t zp = draw(-128, 127);
    const bool spatial = trial % 2 == 0;
    std::vector<Requant> out(spatial ? static_cast<size_t>(x.c) : 1);
    for (auto& r : out) {
      r.multiplier = (1 << 30) + draw(0, (1 << 30) - 1), r.shift = draw(-12, 0);
      r.zero_point = draw(-128, 127), r.act_min = draw(-128, 0), r.act_max = draw(r.act_min, 127);
    }
    const auto raxis = spatial ? reference::ReduceAxis::kSpatial : reference::ReduceAxis::kChannels;
    const auto paxis = spatial ? planar::Axis::kSpatial : planar::Axis::kChannels;
    INFO("trial " << trial);
    CHECK(planar::reduce_sum(x, paxis, lanes, zp, out).data ==
          reference::reduce_sum(x, raxis, zp, out).data);
    const int32_t lo = draw(-128, 0), hi = draw(lo, 127);
    CHECK(planar::reduce_max(x, paxis, lanes, lo, hi).data ==
          reference::reduce_max(x, raxis, lo, hi).data);
  }
}
