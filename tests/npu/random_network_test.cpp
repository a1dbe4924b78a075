// The NPU bench's random networks (tb/npu/random_network): every network a valid design
// gets is one it can run. An NPU whose address generator has fc alone takes an fc's input as
// agu.max_channels channels at most, in whole words of L: its networks' first fc fits that,
// and a design whose one word of L channels already exceeds it gets no fc at all.
#include "npu/random_network.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "npugen/compiler/compile.hpp"
#include "npugen/golden/npu/program.hpp"

using namespace npugen::golden;
using namespace npugen::compiler;

namespace {

NpuDesign fc_only(unsigned lanes, unsigned max_channels) {
  NpuDesign d;
  SequencerDesign& s = d.seq;
  s.array.tiles = 2, s.array.lanes = lanes;
  s.array.weight_width = s.array.act_width = 8;
  s.array.acc_width = 32;
  s.array.tree_stages = 1;
  s.agu.tiles = 2, s.agu.lanes = lanes;
  s.agu.max_height = s.agu.max_width = 8, s.agu.max_channels = max_channels;
  s.agu.max_batch = 4, s.agu.max_kernel = 3, s.agu.max_stride = 2, s.agu.max_pad = 1;
  s.agu.act_words = 256, s.agu.weight_rows = 64;
  s.agu.dataflows = dataflow_bit(Dataflow::kFc);
  s.post.lanes = 1, s.post.max_channels = 16;
  s.seq.cache_rows = 8;
  PlanarParams& pl = d.planar;
  pl.lanes = lanes, pl.words = 1, pl.act_words = 512;
  pl.max_window = 3, pl.max_stride = 2, pl.max_pad = 1;
  pl.max_height = pl.max_width = 8, pl.max_channels = 4, pl.max_batch = 4;
  TaskParams& t = d.tasks;
  t.neural_engines = t.planar_engines = 1;
  t.buffer_words = pl.act_words;
  t.memory_words = 4096;
  return d;
}

// Draws of `d` that the compiler takes, of 200 (a few are refused for other reasons, and
// drawn again by the bench).
int compiled(const NpuDesign& d, bool& any_fc) {
  std::mt19937_64 rng(5);
  int ok = 0;
  for (int i = 0; i < 200; ++i) {
    const net::Network n = npugen::tb::random_network(d, rng);
    for (const auto& l : n.layers) any_fc = any_fc || l.op == net::Op::kFc;
    // Sequenced by the host, or (a network taller or wider than the engines' registers,
    // which the host's programs refuse) by the task unit, as the bench draws them.
    for (const Sequencing how : {Sequencing::kHost, Sequencing::kTasks}) {
      try {
        (void)compile_network(d, n, 1, {.sequencing = how});
        ++ok;
        break;
      } catch (const CompileError&) {
      }
    }
  }
  return ok;
}

}  // namespace

TEST_CASE("random networks of an fc-only NPU of one channel compile", "[npu][random_network]") {
  SECTION("one lane: the first layer an fc of one input feature") {
    const NpuDesign d = fc_only(1, 1);
    CHECK(npugen::tb::fc_possible(d));
    bool any_fc = false;
    CHECK(compiled(d, any_fc) >= 180);
    CHECK(any_fc);
  }
  SECTION("four lanes: no fc fits a word, planar networks") {
    const NpuDesign d = fc_only(4, 1);
    CHECK_FALSE(npugen::tb::fc_possible(d));
    bool any_fc = false;
    CHECK(compiled(d, any_fc) >= 180);
    CHECK_FALSE(any_fc);
  }
  SECTION("an fc's input fits agu.max_channels in whole words") {
    const NpuDesign d = fc_only(2, 5);
    CHECK(npugen::tb::fc_fits(d, net::Shape{1, 2, 3}) == false);  // 2 x 2 words of 2: 8
    CHECK(npugen::tb::fc_fits(d, net::Shape{1, 2, 1}));           // 2 words of 2: 4
    bool any_fc = false;
    CHECK(compiled(d, any_fc) >= 180);
    CHECK(any_fc);
  }
}
