// The conv dataflow's golden path (the address generator's stream, the array steps, the
// accumulators, the folded bias and the post unit) against the plain reference's direct
// convolution and fully connected layer, on random layers.
#include "npugen/golden/sequencer/conv_run.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace npugen::golden;

namespace {

int draw(std::mt19937_64& rng, int lo, int hi) {
  return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

reference::ConvLayer random_layer(std::mt19937_64& rng, int channels, int filters, int kh, int kw) {
  reference::ConvLayer l;
  l.filters = filters, l.kernel_h = kh, l.kernel_w = kw;
  l.weights.resize(static_cast<size_t>(filters * kh * kw * channels));
  for (auto& w : l.weights) w = static_cast<int8_t>(draw(rng, -128, 127));
  l.input_zero_point = draw(rng, -128, 127);
  for (int k = 0; k < filters; ++k) {
    l.bias.push_back(draw(rng, -20000, 20000));
    Requant r;
    r.multiplier =
        static_cast<int32_t>((int64_t{1} << 30) + static_cast<int64_t>(rng() % (1U << 30)));
    r.shift = draw(rng, -12, 0);
    r.zero_point = draw(rng, -128, 127);
    r.act_min = rng() % 2 ? r.zero_point : -128;
    l.output.push_back(r);
  }
  return l;
}

reference::Tensor random_input(std::mt19937_64& rng, int n, int h, int w, int c) {
  reference::Tensor t;
  t.n = n, t.h = h, t.w = w, t.c = c;
  t.data.resize(static_cast<size_t>(n * h * w * c));
  for (auto& x : t.data) x = static_cast<int8_t>(draw(rng, -128, 127));
  return t;
}

}  // namespace

TEST_CASE("the conv dataflow computes TFLite's convolution exactly", "[sequencer]") {
  std::mt19937_64 rng(404);
  for (int trial = 0; trial < 150; ++trial) {
    AguParams p;
    p.lanes = static_cast<unsigned>(draw(rng, 1, 5));
    p.tiles = static_cast<unsigned>(draw(rng, 1, 6));
    p.max_height = p.max_width = 16, p.max_channels = 32, p.max_batch = 3;
    p.max_kernel = 5, p.max_stride = 4, p.max_pad = 4;
    const int kh = draw(rng, 1, 4), kw = draw(rng, 1, 4);
    const reference::Tensor in =
        random_input(rng, draw(rng, 1, 2), draw(rng, 1, 7), draw(rng, 1, 7), draw(rng, 1, 11));
    reference::ConvLayer l = random_layer(rng, in.c, draw(rng, 1, 13), kh, kw);
    l.stride_y = draw(rng, 1, 3), l.stride_x = draw(rng, 1, 3);
    l.pad_top = draw(rng, 0, kh - 1), l.pad_bottom = draw(rng, 0, kh - 1);
    l.pad_left = draw(rng, 0, kw - 1), l.pad_right = draw(rng, 0, kw - 1);
    if (kh > in.h + l.pad_top + l.pad_bottom || kw > in.w + l.pad_left + l.pad_right) continue;
    INFO("trial " << trial);
    ConvRunStats stats;
    const reference::Tensor got = conv_run(p, in, l, &stats);
    const reference::Tensor want = reference::conv2d_direct(in, l);
    REQUIRE(got.data == want.data);
    // One array step per address set: the mapping bound.
    const uint64_t words = (static_cast<uint64_t>(in.c) + p.lanes - 1) / p.lanes;
    const uint64_t blocks = (static_cast<uint64_t>(l.filters) + p.tiles - 1) / p.tiles;
    CHECK(stats.steps == blocks * static_cast<uint64_t>(in.n * want.h * want.w * kh * kw) * words);
  }
}

TEST_CASE("the conv dataflow computes TFLite's fully connected layer exactly", "[sequencer]") {
  std::mt19937_64 rng(405);
  for (int trial = 0; trial < 60; ++trial) {
    AguParams p;
    p.lanes = static_cast<unsigned>(draw(rng, 1, 8));
    p.tiles = static_cast<unsigned>(draw(rng, 1, 8));
    p.max_channels = 1024, p.max_batch = 4;
    const reference::Tensor in =
        random_input(rng, draw(rng, 1, 4), draw(rng, 1, 4), draw(rng, 1, 4), draw(rng, 1, 9));
    const reference::ConvLayer l = random_layer(rng, in.h * in.w * in.c, draw(rng, 1, 20), 1, 1);
    // The input flattened in (h, w, c) order: a 1 x 1 image of H x W x C channels.
    reference::Tensor flat = in;
    flat.h = flat.w = 1;
    flat.c = in.h * in.w * in.c;
    INFO("trial " << trial);
    CHECK(conv_run(p, flat, l).data == reference::fully_connected(in, l).data);
  }
}
