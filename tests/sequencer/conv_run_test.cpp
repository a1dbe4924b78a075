// The conv dataflow's golden path (the address generator's stream, the array steps, the
// accumulators, the folded bias and the post unit) against the plain reference's direct
// convolution and fully connected layer, on random layers.
#include "npugen/golden/sequencer/conv_run.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "random_layers.hpp"

using namespace npugen::golden;

using test::draw;
using test::random_layer;

reference::Tensor random_input(std::mt19937_64& rng, int n, int h, int w, int c) {
  return test::random_tensor(rng, n, h, w, c);
}

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
    reference::ConvLayer l = random_layer(rng, in.c, draw(rng, 1, 13), kh, kw, true);
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
    const reference::ConvLayer l =
        random_layer(rng, in.h * in.w * in.c, draw(rng, 1, 20), 1, 1, true);
    // The input flattened in (h, w, c) order: a 1 x 1 image of H x W x C channels.
    reference::Tensor flat = in;
    flat.h = flat.w = 1;
    flat.c = in.h * in.w * in.c;
    INFO("trial " << trial);
    CHECK(conv_run(p, flat, l).data == reference::fully_connected(in, l).data);
  }
}
