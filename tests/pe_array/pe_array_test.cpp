// The golden model against the plain reference (dense matrix product), which shares
// no code with it, over random shapes, formats and stimulus.
#include <catch2/catch.hpp>
#include <random>

#include "npugen/golden/pe_array/dense_reference.hpp"
#include "npugen/golden/pe_array/model.hpp"

using npugen::golden::PeArrayModel;
using npugen::golden::PeArrayParams;
namespace reference = npugen::golden::reference;

namespace {

uint32_t random_raw(std::mt19937_64& rng, unsigned width) {
  const uint32_t mask = width >= 32 ? ~uint32_t{0} : ((uint32_t{1} << width) - 1);
  // A quarter of the values are the extremes, which exercise the wrap-around.
  switch (rng() % 8) {
    case 0:
      return mask;
    case 1:
      return mask >> 1;
    case 2:
      return (mask >> 1) + 1;
    default:
      return static_cast<uint32_t>(rng()) & mask;
  }
}

struct Run {
  std::vector<uint64_t> acc;
  uint64_t valid_edge = 0;  // cycle in which acc_valid was first seen
  uint64_t last_edge = 0;   // cycle whose edge took the last step
  uint64_t held = 0;        // cycles the results waited for acc_ready
};

// Feeds W (T x C x L) and A (C x L) through the model as one dot product of C steps, with
// random bubbles and, when `backpressure`, random cycles without acc_ready (the results
// must hold, and no step is taken meanwhile), and returns the accumulators when they
// leave.
Run run_model(const PeArrayParams& p, const std::vector<uint32_t>& w,
              const std::vector<uint32_t>& a, unsigned steps, bool backpressure,
              std::mt19937_64& rng) {
  PeArrayModel model(p);
  std::vector<uint32_t> row(size_t{p.tiles} * p.lanes);
  Run run;
  bool seen = false;
  std::vector<uint64_t> shown;
  uint64_t edge = 0;
  unsigned c = 0;
  bool offering = false;
  while (true) {
    npugen::golden::PeArrayInputs in;
    if (!offering && c < steps && rng() % 4 != 0) {
      for (unsigned t = 0; t < p.tiles; ++t) {
        for (unsigned l = 0; l < p.lanes; ++l) {
          row[size_t{t} * p.lanes + l] = w[(size_t{t} * steps + c) * p.lanes + l];
        }
      }
      offering = true;
    }
    if (offering) {
      in = {true, c == 0, c + 1 == steps, row,
            std::span<const uint32_t>(a).subspan(size_t{c} * p.lanes, p.lanes)};
    }
    in.acc_ready = !backpressure || rng() % 3 == 0;
    const auto out = model.outputs(in);
    if (out.acc_valid) {
      if (!seen) {
        seen = true;
        run.valid_edge = edge;
        shown.assign(out.acc.begin(), out.acc.end());
      }
      CHECK(std::vector<uint64_t>(out.acc.begin(), out.acc.end()) == shown);
      CHECK(out.step_ready == in.acc_ready);
      if (in.acc_ready) {
        run.acc = shown;
        return run;
      }
      ++run.held;
    }
    if (in.valid && out.step_ready) {
      if (in.last) run.last_edge = edge;
      offering = false;
      ++c;
    }
    model.tick(in);
    ++edge;
    REQUIRE(edge < steps * 16 + 256);
  }
}

}  // namespace

TEST_CASE("golden PE array equals the dense reference", "[golden]") {
  std::mt19937_64 rng(12345);
  uint64_t held = 0;
  for (int trial = 0; trial < 400; ++trial) {
    PeArrayParams p;
    p.tiles = 1 + static_cast<unsigned>(rng() % 6);
    p.lanes = 1 + static_cast<unsigned>(rng() % 9);
    p.weight_width = 2 + static_cast<unsigned>(rng() % 31);
    p.act_width = 2 + static_cast<unsigned>(rng() % 31);
    p.weight_signed = rng() % 2 == 0;
    p.act_signed = rng() % 2 == 0;
    const unsigned min_acc = p.weight_width + p.act_width;
    p.acc_width = min_acc + static_cast<unsigned>(rng() % (65 - min_acc));
    p.tree_stages = static_cast<unsigned>(rng() % 4);
    const unsigned steps = 1 + static_cast<unsigned>(rng() % 40);

    std::vector<uint32_t> w(size_t{p.tiles} * steps * p.lanes);
    std::vector<uint32_t> a(size_t{steps} * p.lanes);
    for (auto& x : w) x = random_raw(rng, p.weight_width);
    for (auto& x : a) x = random_raw(rng, p.act_width);

    const auto expected = reference::dense_dot_products(w, a, p.tiles, steps, p.lanes,
                                                        {p.weight_width, p.weight_signed},
                                                        {p.act_width, p.act_signed}, p.acc_width);
    const bool backpressure = trial % 2 == 1;
    const Run got = run_model(p, w, a, steps, backpressure, rng);
    INFO("trial " << trial << ": T=" << p.tiles << " L=" << p.lanes << " C=" << steps
                  << " w=" << p.weight_width << (p.weight_signed ? "s" : "u")
                  << " a=" << p.act_width << (p.act_signed ? "s" : "u") << " acc=" << p.acc_width
                  << " stages=" << p.tree_stages);
    CHECK(got.acc == expected);
    // The results show latency() cycles after the cycle whose edge took the last step.
    CHECK(got.valid_edge - got.last_edge == p.latency());
    CHECK(p.latency() == p.tree_stages + 1);
    held += got.held;
  }
  CHECK(held > 100);  // results did wait for acc_ready
}

TEST_CASE("the reference decodes formats exactly", "[golden]") {
  // 1 x 1 x 1: (-128) * (-128) = 16384; in a 16-bit signed accumulator that is 0x4000.
  CHECK(reference::dense_dot_products({0x80}, {0x80}, 1, 1, 1, {8, true}, {8, true}, 16) ==
        std::vector<uint64_t>{0x4000});
  // Unsigned 255 * 255 = 65025.
  CHECK(reference::dense_dot_products({0xFF}, {0xFF}, 1, 1, 1, {8, false}, {8, false}, 16) ==
        std::vector<uint64_t>{65025});
  // Mixed: signed -1 times unsigned 255 = -255, as 16 raw bits.
  CHECK(reference::dense_dot_products({0xFF}, {0xFF}, 1, 1, 1, {8, true}, {8, false}, 16) ==
        std::vector<uint64_t>{0xFF01});
  // Sums wrap modulo 2^acc_width: 4 x (127 * 127) = 64516 wraps to 64516 - 65536 in 16 bits.
  CHECK(reference::dense_dot_products({127, 127, 127, 127}, {127, 127, 127, 127}, 1, 1, 4,
                                      {8, true}, {8, true}, 16) == std::vector<uint64_t>{64516});
}

TEST_CASE("the golden model rejects inputs of the wrong size", "[golden]") {
  PeArrayParams p;
  p.tiles = 2;
  p.lanes = 3;
  PeArrayModel model(p);
  std::vector<uint32_t> w(5), a(3);
  CHECK_THROWS(model.tick(npugen::golden::PeArrayInputs{true, true, true, w, a}));
}
