// The address generator's golden model against the plain im2col reference (every
// dataflow), the refusal rules, and the activation traffic of seed 004's example.
#include <catch2/catch.hpp>
#include <random>

#include "npugen/golden/agu/model.hpp"
#include "npugen/golden/agu/reference.hpp"

using namespace npugen::golden;

namespace {

unsigned draw(std::mt19937_64& rng, unsigned lo, unsigned hi) {
  return lo + static_cast<unsigned>(rng() % (hi - lo + 1));
}

AguParams small_params(std::mt19937_64& rng) {
  AguParams p;
  p.lanes = 1 + static_cast<unsigned>(rng() % 5);
  p.tiles = 1 + static_cast<unsigned>(rng() % 6);
  p.max_height = 12, p.max_width = 12, p.max_channels = 20, p.max_batch = 3;
  p.max_kernel = 5, p.max_stride = 5, p.max_pad = 4;
  p.act_words = rng() % 2 ? 1000 : 1U << 16;  // 1000: addresses wrap
  p.weight_rows = rng() % 2 ? 300 : 1U << 16;
  p.mec_window = rng() % 3 == 0 ? 0 : draw(rng, 1, 120);  // small windows wrap
  return p;
}

// The registers the address generator passes on, drawn at random (a valid layer).
void draw_pass_through(std::mt19937_64& rng, AguLayer& l) {
  l.in_buf = static_cast<unsigned>(rng() % 2), l.out_buf = 1 - l.in_buf;
  l.pad_value = static_cast<int>(rng() % 256) - 128;
  l.zero_point = static_cast<int>(rng() % 256) - 128;
  l.act_min = static_cast<int>(rng() % 256) - 128;
  l.act_max = l.act_min + static_cast<int>(rng() % static_cast<uint64_t>(128 - l.act_min));
  l.param_base = static_cast<unsigned>(rng() % 65536);
}

// A write in its access phase (the model acts on that cycle's edge).
void write(AguModel& m, uint32_t addr, uint32_t value) {
  AguInputs in;
  in.apb = ApbRequest{true, true, true, addr, value};
  m.tick(in);
}

void program(AguModel& m, unsigned g, const AguLayer& l) {
  for (const auto& w : agu_csr::layer_writes(l)) {
    write(m, agu_csr::kGroupOffset + g * agu_csr::kGroupStride + w.offset, w.value);
  }
}

// Every set of the layer the model streams, taken at once.
std::vector<AddressSet> stream(AguModel& m) {
  std::vector<AddressSet> out;
  AguInputs in;
  in.set_ready = true;
  for (int guard = 0; guard < 1'000'000; ++guard) {
    const AguOutputs o = m.outputs(in);
    if (o.set_valid) {
      AddressSet s = o.set;
      if (s.pad) s.act_addr = 0;
      out.push_back(s);
    }
    m.tick(in);
    if (o.set_valid && o.set.layer_end) break;
  }
  return out;
}

}  // namespace

TEST_CASE("the address generator model streams the im2col reference", "[agu]") {
  std::mt19937_64 rng(2026);
  int layers = 0;
  while (layers < 400) {
    const AguParams p = small_params(rng);
    const auto flow = static_cast<Dataflow>(rng() % kDataflowCount);
    const bool batch = flow == Dataflow::kFcBatch;
    const unsigned kh = batch ? 1 : draw(rng, 1, 5), kw = batch ? 1 : draw(rng, 1, 5);
    AguLayer l = AguLayer::dense(
        p, batch ? 1 : draw(rng, 1, 12), batch ? 1 : draw(rng, 1, 12), draw(rng, 1, 20),
        draw(rng, 1, batch ? std::min(3U, p.tiles) : 3), draw(rng, 1, 20), kh, kw, draw(rng, 1, 5),
        draw(rng, 1, 5), draw(rng, 0, kh - 1), draw(rng, 0, kh - 1), draw(rng, 0, kw - 1),
        draw(rng, 0, kw - 1), rng() % p.act_words, rng() % p.weight_rows, rng() % p.act_words);
    l.dataflow = flow;
    if (flow == Dataflow::kConv && p.mec_window > 0 && rng() % 2 == 0) l.order = Order::kMec;
    if (rng() % 4 == 0) l.out_pixel_stride += rng() % 5;  // a view of a wider tensor
    if (rng() % 4 == 0) l.out_row_stride += rng() % 7;
    draw_pass_through(rng, l);
    if (!agu_refusal(p, l).empty() || l.address_sets(p) > 20000) continue;
    const unsigned g = layers % 2;
    AguModel m(p);
    if (g == 1) {
      // Reach group 1 as the consumer: run a 1x1 layer on group 0 first.
      program(m, 0, AguLayer::dense(p, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0));
      REQUIRE(stream(m).size() == 1);
    }
    program(m, g, l);
    REQUIRE(m.enabled(g));
    const auto got = stream(m);
    const auto want = im2col_reference(p, l, g);
    REQUIRE(got.size() == l.address_sets(p));
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("layer " << layers << " set " << i);
      REQUIRE(got[i] == want[i]);
    }
    CHECK_FALSE(m.enabled(g));
    ++layers;
  }
}

TEST_CASE("MEC order: every reused word is the one its window slot holds", "[agu]") {
  // The window as the sequencer keeps it: each set that reads the buffer writes its word's
  // input position to its slot; each reused set must find its own position there. Checks
  // the slot arithmetic by what it means, not by a second formula.
  std::mt19937_64 rng(404);
  int layers = 0;
  uint64_t reused = 0;
  while (layers < 300) {
    AguParams p = small_params(rng);
    const unsigned kh = draw(rng, 1, 5), kw = draw(rng, 1, 5);
    AguLayer l = AguLayer::dense(p, draw(rng, 1, 12), draw(rng, 1, 12), draw(rng, 1, 20),
                                 draw(rng, 1, 3), draw(rng, 1, 9), kh, kw, draw(rng, 1, 5),
                                 draw(rng, 1, 5), draw(rng, 0, kh - 1), draw(rng, 0, kh - 1),
                                 draw(rng, 0, kw - 1), draw(rng, 0, kw - 1));
    const unsigned window = kh * kw * l.channel_words(p.lanes);
    p.mec_window = window + (rng() % 2 == 0 ? 0 : draw(rng, 1, 20));  // tight or roomier
    l.order = Order::kMec;
    if (!agu_refusal(p, l).empty() || l.address_sets(p) > 20000) continue;
    const auto sets = im2col_reference(p, l, 0);
    const int64_t cw = l.channel_words(p.lanes);
    std::vector<int64_t> slot(p.mec_window, -1);
    size_t i = 0;
    for (unsigned kb = 0; kb < l.filter_blocks(p.tiles); ++kb) {
      for (unsigned n = 0; n < l.batch; ++n) {
        for (unsigned ow = 0; ow < l.out_width(); ++ow) {
          for (unsigned oh = 0; oh < l.out_height(); ++oh) {
            for (unsigned y = 0; y < kh; ++y) {
              for (unsigned x = 0; x < kw; ++x) {
                for (int64_t cb = 0; cb < cw; ++cb, ++i) {
                  const AddressSet& s = sets.at(i);
                  REQUIRE(s.win < p.mec_window);
                  if (s.pad) continue;
                  const int64_t ih = int64_t{oh} * l.stride_y + y - l.pad_top;
                  const int64_t iw = int64_t{ow} * l.stride_x + x - l.pad_left;
                  const int64_t where = ((int64_t{n} * l.height + ih) * l.width + iw) * cw + cb;
                  INFO("layer " << layers << " set " << i);
                  if (s.reuse) {
                    REQUIRE(slot[s.win] == where);
                    ++reused;
                  } else {
                    slot[s.win] = where;
                  }
                }
              }
            }
          }
        }
      }
    }
    REQUIRE(i == sets.size());
    ++layers;
  }
  CHECK(reused > 10000);
}

TEST_CASE("the MEC order is refused where it cannot run", "[agu]") {
  AguParams p;
  p.lanes = 4, p.tiles = 4, p.mec_window = 0;
  AguLayer l = AguLayer::dense(p, 8, 8, 8, 1, 4, 3, 3, 1, 1, 1, 1, 1, 1);
  l.order = Order::kMec;
  CHECK(agu_refusal(p, l).find("not generated") != std::string::npos);
  p.mec_window = 17;  // a 3 x 3 window of 2 channel words is 18
  CHECK(agu_refusal(p, l).find("more than the MEC window's 17") != std::string::npos);
  p.mec_window = 18;
  CHECK(agu_refusal(p, l).empty());
  l.dataflow = Dataflow::kFc;
  CHECK(agu_refusal(p, l).find("for conv layers") != std::string::npos);
}

// A generated table of the largest C by kernel size (what the RTL compares C with) against
// agu_refusal's direct rule, KH x KW x ceil(C/L) <= the window, for every kernel size and C
// of a layer in the order and dataflow given.
namespace {
void check_largest_c(const AguParams& p, Order order, Dataflow flow,
                     unsigned (AguParams::*max_c)(unsigned, unsigned) const) {
  for (unsigned kh = 1; kh <= p.max_kernel; ++kh) {
    for (unsigned kw = 1; kw <= p.max_kernel; ++kw) {
      for (unsigned c = 1; c <= p.max_channels; ++c) {
        AguLayer l = AguLayer::dense(p, 10, 10, c, 1, 4, kh, kw, 1, 1, 0, 0, 0, 0);
        l.order = order, l.dataflow = flow;
        INFO("L " << p.lanes << " kernel " << kh << "x" << kw << " C " << c);
        CHECK(agu_refusal(p, l).empty() == (c <= (p.*max_c)(kh, kw)));
      }
    }
  }
}
}  // namespace

TEST_CASE("the RTL's MEC table of largest C agrees with the refusal rule", "[agu]") {
  for (const unsigned lanes : {1U, 3U, 8U}) {
    for (const unsigned window : {1U, 7U, 23U, 200U}) {
      AguParams p;
      p.lanes = lanes, p.tiles = 4, p.mec_window = window;
      p.max_kernel = 7, p.max_pad = 6, p.max_channels = 300, p.max_height = p.max_width = 20;
      INFO("MEC window " << window);
      check_largest_c(p, Order::kMec, Dataflow::kConv, &AguParams::mec_max_channels);
    }
  }
}

TEST_CASE("the RTL's zero_skip table of largest C agrees with the refusal rule", "[agu][zs]") {
  // And a zero_skip layer is one filter block: at most T filters.
  for (const unsigned lanes : {1U, 3U, 8U}) {
    for (const unsigned window : {1U, 9U, 32U}) {
      AguParams p;
      p.lanes = lanes, p.tiles = 4, p.zs_window = window;
      p.dataflows |= dataflow_bit(Dataflow::kZeroSkip);
      p.max_kernel = 5, p.max_pad = 4, p.max_channels = 100, p.max_height = p.max_width = 20;
      INFO("staging slot " << window);
      check_largest_c(p, Order::kIm2col, Dataflow::kZeroSkip, &AguParams::zs_max_channels);
      AguLayer l = AguLayer::dense(p, 10, 10, 1, 1, 5, 1, 1, 1, 1, 0, 0, 0, 0);
      l.dataflow = Dataflow::kZeroSkip;
      CHECK(agu_refusal(p, l).find("at most 4 filters") != std::string::npos);
    }
  }
}

TEST_CASE("the reference addresses are the NHWC formulas", "[agu]") {
  // A 2x3 input of 5 channels (2 words of L = 4), one 3x3 kernel with padding 1, 2 filters.
  AguParams p;
  p.lanes = 4, p.tiles = 2;
  const AguLayer l = AguLayer::dense(p, 2, 3, 5, 1, 2, 3, 3, 1, 1, 1, 1, 1, 1, 100, 7, 40);
  const auto sets = im2col_reference(p, l, 0);
  REQUIRE(sets.size() == 2 * 3 * 9 * 2);  // OH x OW x KH x KW x channel words
  // Output pixel (0, 0): kernel (0, 0) is padded; kernel (1, 1) reads input (0, 0).
  CHECK(sets[0].pad);
  CHECK(sets[0].first);
  const AddressSet& centre = sets[(1 * 3 + 1) * 2];
  CHECK_FALSE(centre.pad);
  CHECK(centre.act_addr == 100);
  CHECK(centre.wrow == 7 + (1 * 3 + 1) * 2);
  CHECK(sets[17].last);
  // Output pixel (1, 2) (the last): word 40 + (1 * 3 + 2) * ceil(2 / 4).
  CHECK(sets.back().out_addr == 40 + 5 * 1);
  CHECK(sets.back().out_lane == 0);
  CHECK(sets.back().layer_end);
  CHECK(sets.back().filters == 2);
  CHECK(sets.front().layer_first);
  CHECK(sets.front().block_first);
}

TEST_CASE("output words and lanes when tiles and lanes differ", "[agu]") {
  // T = 3 filters at once, L = 2 channels a word, K = 7: blocks of filters 0-2, 3-5, 6; a
  // pixel's outputs take ceil(7/2) = 4 words. Filter 3 is word 1, lane 1; filter 6 word 3,
  // lane 0.
  AguParams p;
  p.lanes = 2, p.tiles = 3;
  const AguLayer l = AguLayer::dense(p, 1, 2, 2, 1, 7, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 10);
  const auto sets = im2col_reference(p, l, 0);
  REQUIRE(sets.size() == 3 * 2);  // blocks x pixels x one channel word
  CHECK(sets[0].out_addr == 10);
  CHECK(sets[1].out_addr == 14);  // pixel 1: 10 + 4 words
  CHECK((sets[2].out_addr == 11 && sets[2].out_lane == 1 && sets[2].block_first));
  CHECK((sets[5].out_addr == 14 + 3 && sets[5].out_lane == 0 && sets[5].filters == 1));
}

TEST_CASE("the fc_batch order: feature loads, then each neuron's weight words", "[agu]") {
  // 2 images of 5 features (3 words of L = 2), 5 neurons on T = 4 tiles.
  AguParams p;
  p.lanes = 2, p.tiles = 4;
  AguLayer l = AguLayer::dense(p, 1, 1, 5, 2, 5, 1, 1, 1, 1, 0, 0, 0, 0, 100, 20, 60);
  l.dataflow = Dataflow::kFcBatch;
  REQUIRE(agu_refusal(p, l).empty());
  const auto sets = im2col_reference(p, l, 0);
  REQUIRE(sets.size() == 2 * 3 + 5 * 3);
  REQUIRE(l.address_sets(p) == sets.size());
  // Image 1's second feature word: word 100 + 3 + 1, into tile 1's cache.
  CHECK((sets[4].load && sets[4].tile == 1 && sets[4].act_addr == 104 && !sets[4].first));
  // Neuron 2 (block 0, tile 2), word 1: weight row 20 + 1; its result goes to word 61, lane 0.
  const AddressSet& s = sets[6 + 2 * 3 + 1];
  CHECK((!s.load && s.tile == 2 && s.wrow == 21 && s.out_addr == 61 && s.out_lane == 0));
  // Neuron 4 (block 1, tile 0): rows 23.., word 62, and the block starts there.
  const AddressSet& z4 = sets[6 + 4 * 3];
  CHECK((z4.tile == 0 && z4.wrow == 23 && z4.out_addr == 62 && z4.block_first && z4.first));
  CHECK((sets.back().layer_end && sets.back().filters == 2 && sets.back().last));
  CHECK(sets.front().layer_first);
  CHECK(sets.front().layer.out_stride == 3);  // ceil(5 / 2) words an image
}

TEST_CASE("layers the hardware cannot do are refused", "[agu]") {
  AguParams p;
  p.max_height = 8, p.max_width = 8, p.max_kernel = 3, p.max_stride = 2, p.max_pad = 1;
  p.max_batch = 16;
  const AguLayer ok = AguLayer::dense(p, 8, 8, 3, 1, 4, 3, 3, 2, 2, 1, 1, 1, 1);
  CHECK(agu_refusal(p, ok).empty());
  auto refused = [&](auto change) {
    AguLayer l = ok;
    change(l);
    return !agu_refusal(p, l).empty();
  };
  CHECK(refused([](AguLayer& l) { l.height = 9; }));
  CHECK(refused([](AguLayer& l) { l.stride_x = 0; }));
  CHECK(refused([](AguLayer& l) { l.stride_y = 3; }));
  CHECK(refused([](AguLayer& l) { l.kernel_w = 4; }));
  CHECK(refused([](AguLayer& l) { l.pad_left = 2; }));
  CHECK(refused([](AguLayer& l) { l.kernel_h = 1; }));  // pad 1 not below kernel 1
  CHECK(refused([](AguLayer& l) { l.channels = 0; }));
  CHECK(refused([](AguLayer& l) {
    l.height = 1, l.pad_top = 0, l.pad_bottom = 0;  // kernel 3 > padded height 1
  }));
  CHECK(refused([](AguLayer& l) { l.dataflow = static_cast<Dataflow>(3); }));
  CHECK(refused([](AguLayer& l) { l.dataflow = Dataflow::kFcBatch; }));  // 8 x 8, 3 x 3
  CHECK(refused([](AguLayer& l) { l.out_buf = l.in_buf; }));
  CHECK(refused([](AguLayer& l) { l.act_min = 5, l.act_max = 4; }));
  AguLayer fc = AguLayer::dense(p, 1, 1, 30, p.tiles, 10, 1, 1, 1, 1, 0, 0, 0, 0);
  fc.dataflow = Dataflow::kFcBatch;
  CHECK(agu_refusal(p, fc).empty());
  fc.batch = p.tiles + 1;  // more images than tiles
  CHECK_FALSE(agu_refusal(p, fc).empty());
  AguParams conv_only = p;
  conv_only.dataflows = dataflow_bit(Dataflow::kConv);
  AguLayer fc1 = ok;
  fc1.dataflow = Dataflow::kFc;
  CHECK_FALSE(agu_refusal(conv_only, fc1).empty());  // fc not generated
  // The model refuses the enable and sets CFG_ERR; a write to an enabled group too.
  AguModel m(p);
  AguLayer bad = ok;
  bad.stride_x = 0;
  program(m, 0, bad);
  CHECK_FALSE(m.enabled(0));
  CHECK(m.outputs({}).cfg_err);
  write(m, agu_csr::kStatus, 1);
  CHECK_FALSE(m.outputs({}).cfg_err);
  program(m, 0, ok);
  CHECK(m.enabled(0));
  write(m, agu_csr::kGroupOffset + agu_csr::kInShape, 0);
  CHECK(m.outputs({}).cfg_err);
}

TEST_CASE("the layer switch costs no cycle when the next group is enabled", "[agu]") {
  AguParams p;
  p.lanes = 2, p.tiles = 2;
  AguModel m(p);
  const AguLayer a = AguLayer::dense(p, 3, 3, 3, 1, 3, 2, 2, 1, 1, 0, 0, 0, 0);
  program(m, 0, a);
  program(m, 1, a);
  // Programming took cycles: group 0's layer is already offered (not yet taken).
  AguInputs in;
  in.set_ready = true;
  uint64_t sets = 0;
  for (uint64_t cycle = 0; cycle < 2 * a.address_sets(p); ++cycle) {
    const AguOutputs o = m.outputs(in);
    REQUIRE(o.set_valid);
    CHECK(o.set.group == (cycle < a.address_sets(p) ? 0U : 1U));
    ++sets;
    m.tick(in);
  }
  CHECK(sets == 2 * a.address_sets(p));
  CHECK_FALSE(m.outputs(in).set_valid);
  CHECK(m.layers_done() == 2);
}

TEST_CASE("activation traffic of seed 004's example: 75 words touched, 243 unrolled", "[agu]") {
  // A 5 x 5 image of 3 components, two 3 x 3 filters, stride 1, no padding; one element a
  // word (L = 1) as in the seed.
  AguParams p;
  p.lanes = 1, p.tiles = 2;
  const AguLayer l = AguLayer::dense(p, 5, 5, 3, 1, 2, 3, 3, 1, 1, 0, 0, 0, 0);
  const ActivationTraffic t = activation_traffic(p, l);
  CHECK(t.touched == 75);
  CHECK(t.materialised == 243);
  CHECK(t.read == 243);
  // MEC: each of the 3 columns reads its first pixel's 27 words and 9 new ones for each
  // pixel below; 135 = OW x H x KW x C, the size of MEC's lowered matrix.
  CHECK(t.mec_read == 135);
  AguParams mec = p;
  mec.mec_window = 27;
  AguLayer m = l;
  m.order = Order::kMec;
  uint64_t from_buffer = 0;
  for (const AddressSet& s : im2col_reference(mec, m, 0)) from_buffer += !s.pad && !s.reuse;
  CHECK(from_buffer == 135);
}

TEST_CASE("the address generator's register map is consistent", "[agu]") {
  AguParams p;
  CHECK(agu_csr::register_map(p).problems().empty());
  p.act_words = 1U << 24;
  p.weight_rows = 3;
  CHECK(agu_csr::register_map(p).problems().empty());
}
