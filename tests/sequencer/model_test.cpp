// The sequencer's golden model on whole layers: inputs, weights and parameters written
// through its host port, layer registers through its APB port, the layer run to its end;
// every output tensor equals the plain reference's direct convolution or fully connected
// layer (TFLite int8), in every dataflow, on designs whose T, L and P differ; the counters
// show the dataflows' weight reuse.
#include "npugen/golden/sequencer/model.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "npugen/golden/agu/reference.hpp"
#include "npugen/golden/sequencer/lowering.hpp"
#include "random_layers.hpp"

using namespace npugen::golden;

using test::draw;
using test::random_layer;
using test::random_tensor;

namespace {

SequencerDesign design(unsigned tiles, unsigned lanes, unsigned p, unsigned cache_rows) {
  SequencerDesign d;
  d.array.tiles = tiles, d.array.lanes = lanes;
  d.array.weight_width = d.array.act_width = 8;
  d.array.acc_width = 32;
  d.array.tree_stages = 1;
  d.agu.tiles = tiles, d.agu.lanes = lanes;
  d.agu.max_height = d.agu.max_width = 16, d.agu.max_channels = 256, d.agu.max_batch = 4;
  d.agu.max_kernel = 5, d.agu.max_stride = 3, d.agu.max_pad = 4;
  d.agu.act_words = 4096, d.agu.weight_rows = 4096;
  d.post.lanes = p, d.post.max_channels = 128;
  d.seq.cache_rows = cache_rows;
  return d;
}

// Drives the model through its ports, a cycle at a time.
class Driver {
 public:
  explicit Driver(const SequencerDesign& d) : m_(d) {}
  SequencerModel& model() { return m_; }

  void tick() {
    m_.tick(in_);
    ++cycles_;
  }
  void apb_write(uint32_t addr, uint32_t value) {
    in_.apb = ApbRequest{true, false, true, addr, value};
    tick();
    in_.apb.penable = true;
    REQUIRE_FALSE(m_.outputs(in_).apb.pslverr);
    tick();
    in_.apb = ApbRequest{};
  }
  uint32_t apb_read(uint32_t addr) {
    in_.apb = ApbRequest{true, false, false, addr, 0};
    tick();
    in_.apb.penable = true;
    const uint32_t v = m_.outputs(in_).apb.prdata;
    tick();
    in_.apb = ApbRequest{};
    return v;
  }
  void mem_write(MemTarget target, uint64_t addr, std::vector<uint8_t> data) {
    in_.mem = MemRequest{true, true, target, addr, std::move(data)};
    while (!m_.outputs(in_).mem_ready) tick();
    tick();
    in_.mem = MemRequest{};
  }
  // Loads a lowered layer's weights and parameters and the input words.
  void load(const LoweredLayer& low, const LayerPlacement& at) {
    for (size_t r = 0; r < low.weight_rows.size(); ++r) {
      mem_write(MemTarget::kWeights, at.wgt_base + r, low.weight_rows[r]);
    }
    for (size_t g = 0; g < low.params.size(); ++g) {
      const auto bits = param_group_bytes(m_.design(), low.params[g]);
      mem_write(MemTarget::kParams, at.param_base + g, bits);
    }
  }
  void program(unsigned group, const AguLayer& regs) {
    for (const auto& w : agu_csr::layer_writes(regs)) {
      apb_write(sequencer_csr::kAguWindow + agu_csr::kGroupOffset + group * agu_csr::kGroupStride +
                    w.offset,
                w.value);
    }
    REQUIRE_FALSE(m_.outputs(in_).cfg_err);  // the layer was taken
  }
  void run_until_layers(uint32_t layers) {
    for (int guard = 0; m_.layers_done() < layers; ++guard) {
      REQUIRE(guard < 2'000'000);
      tick();
    }
  }
  uint64_t cycles() const { return cycles_; }

 private:
  SequencerModel m_;
  SequencerInputs in_;
  uint64_t cycles_ = 0;
};

}  // namespace

TEST_CASE("the sequencer model runs layers equal to the plain reference", "[sequencer]") {
  std::mt19937_64 rng(1313);
  const SequencerDesign designs[] = {design(4, 4, 2, 64), design(3, 5, 1, 16), design(8, 4, 4, 8),
                                     design(2, 6, 2, 200)};
  int layers = 0;
  uint64_t preloads = 0, bypassed = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const SequencerDesign& d = designs[trial % 4];
    Driver drv(d);
    const auto flow = static_cast<Dataflow>(trial % 3);
    const bool flat = flow != Dataflow::kConv;
    const int n =
        draw(rng, 1, flow == Dataflow::kFcBatch ? std::min(4, static_cast<int>(d.tiles())) : 2);
    const reference::Tensor in = random_tensor(rng, n, draw(rng, 1, flat ? 2 : 6),
                                               draw(rng, 1, flat ? 2 : 6), draw(rng, 1, 9));
    const int kh = flat ? in.h : draw(rng, 1, std::min(3, in.h + 1));
    const int kw = flat ? in.w : draw(rng, 1, std::min(3, in.w + 1));
    reference::ConvLayer l = random_layer(rng, in.c, draw(rng, 1, 11), kh, kw);
    if (!flat) {
      l.stride_y = draw(rng, 1, 2), l.stride_x = draw(rng, 1, 2);
      l.pad_top = draw(rng, 0, kh - 1), l.pad_bottom = draw(rng, 0, kh - 1);
      l.pad_left = draw(rng, 0, kw - 1), l.pad_right = draw(rng, 0, kw - 1);
      if (kh > in.h + l.pad_top + l.pad_bottom || kw > in.w + l.pad_left + l.pad_right) continue;
    }
    LayerPlacement at;
    at.in_buf = static_cast<unsigned>(trial % 2), at.out_buf = 1 - at.in_buf;
    at.in_base = static_cast<uint64_t>(draw(rng, 0, 100)),
    at.out_base = static_cast<uint64_t>(draw(rng, 0, 100));
    at.wgt_base = static_cast<uint64_t>(draw(rng, 0, 100)),
    at.param_base = static_cast<unsigned>(draw(rng, 0, 3));
    const LoweredLayer low = lower_layer(d, flow, in, l, at);
    REQUIRE(agu_refusal(d.agu, low.regs).empty());
    const auto words = tensor_words(in, d.lanes());
    for (size_t i = 0; i < words.size(); ++i) {
      drv.mem_write(static_cast<MemTarget>(at.in_buf), at.in_base + i, words[i]);
    }
    drv.load(low, at);
    drv.program(0, low.regs);
    drv.run_until_layers(1);
    const SequencerModel& m = drv.model();
    const reference::Tensor got =
        read_tensor(low.out_shape, d.lanes(), at.out_base,
                    [&](uint64_t a) { return m.buffer_word(at.out_buf, a); });
    const reference::Tensor want =
        flat ? reference::fully_connected(in, l) : reference::conv2d_direct(in, l);
    INFO("in " << in.n << "x" << in.h << "x" << in.w << "x" << in.c << " K " << l.filters << " k "
               << kh << "x" << kw << " s " << l.stride_y << l.stride_x << " rows "
               << low.regs.kernel_h * low.regs.kernel_w * low.regs.channel_words(d.lanes()));
    INFO("trial " << trial << " " << dataflow_name(flow) << " T " << d.tiles() << " L " << d.lanes()
                  << " P " << d.post.lanes);
    REQUIRE(got.data == want.data);
    CHECK(m.steps() == low.regs.steps(d.agu));
    preloads += m.preload_reads();
    bypassed += (drv.apb_read(sequencer_csr::kOwnWindow + sequencer_csr::kStatus) >>
                 sequencer_csr::kCacheBypassBit) &
                1U;
    ++layers;
  }
  CHECK(layers > 40);
  CHECK(preloads > 0);  // filter blocks preloaded into the other cache set
  CHECK(bypassed > 0);  // blocks longer than the cache streamed from the store
}

TEST_CASE("MEC order: the same outputs as im2col, fewer buffer reads, the rest from the window",
          "[sequencer]") {
  std::mt19937_64 rng(2004);
  int layers = 0;
  uint64_t from_window = 0;
  for (int trial = 0; trial < 40; ++trial) {
    SequencerDesign d = design(trial % 2 ? 3 : 4, trial % 2 ? 5 : 4, 1, 64);
    const reference::Tensor in =
        random_tensor(rng, draw(rng, 1, 2), draw(rng, 1, 7), draw(rng, 1, 7), draw(rng, 1, 12));
    const int kh = draw(rng, 1, 4), kw = draw(rng, 1, 4);
    reference::ConvLayer l = random_layer(rng, in.c, draw(rng, 1, 9), kh, kw);
    l.stride_y = draw(rng, 1, 3), l.stride_x = draw(rng, 1, 3);
    l.pad_top = draw(rng, 0, std::min(kh - 1, 4)), l.pad_bottom = draw(rng, 0, std::min(kh - 1, 4));
    l.pad_left = draw(rng, 0, std::min(kw - 1, 4)), l.pad_right = draw(rng, 0, std::min(kw - 1, 4));
    if (kh > in.h + l.pad_top + l.pad_bottom || kw > in.w + l.pad_left + l.pad_right) continue;
    const unsigned window = static_cast<unsigned>(kh * kw) * ((in.c + d.lanes() - 1) / d.lanes());
    d.agu.mec_window = window + static_cast<unsigned>(draw(rng, 0, 5));  // tight or roomier
    const LayerPlacement at;
    LoweredLayer low = lower_layer(d, Dataflow::kConv, in, l, at);
    const reference::Tensor want = reference::conv2d_direct(in, l);
    uint64_t buffer_reads[2] = {};
    for (const Order order : {Order::kIm2col, Order::kMec}) {
      low.regs.order = order;
      REQUIRE(agu_refusal(d.agu, low.regs).empty());
      Driver drv(d);
      const auto words = tensor_words(in, d.lanes());
      for (size_t i = 0; i < words.size(); ++i) drv.mem_write(MemTarget::kBufferA, i, words[i]);
      drv.load(low, at);
      drv.program(0, low.regs);
      drv.run_until_layers(1);
      const SequencerModel& m = drv.model();
      const reference::Tensor got =
          read_tensor(low.out_shape, d.lanes(), 0, [&](uint64_t a) { return m.buffer_word(1, a); });
      INFO("trial " << trial << " " << order_name(order));
      REQUIRE(got.data == want.data);
      // The buffer reads are the reference's count for the order, a filter block each.
      const ActivationTraffic t = activation_traffic(d.agu, low.regs);
      const uint64_t blocks = low.regs.filter_blocks(d.tiles());
      buffer_reads[order == Order::kMec] = m.act_reads();
      CHECK(m.act_reads() == (order == Order::kMec ? t.mec_read : t.read) * blocks);
      if (order == Order::kMec) {
        CHECK(m.act_reads() + m.window_reads() == t.read * blocks);
        CHECK(drv.apb_read(sequencer_csr::kOwnWindow + sequencer_csr::kWindowReads) ==
              m.window_reads());
        from_window += m.window_reads();
      } else {
        CHECK(m.window_reads() == 0);
      }
    }
    CHECK(buffer_reads[1] <= buffer_reads[0]);
    ++layers;
  }
  CHECK(layers > 25);
  CHECK(from_window > 500);
}

TEST_CASE("chained layers: the next layer waits for the buffer it reads", "[sequencer]") {
  // conv A -> B, then conv B -> A programmed while the first runs, then fc_batch A -> B:
  // each reads what the one before wrote.
  std::mt19937_64 rng(77);
  const SequencerDesign d = design(4, 4, 2, 64);
  Driver drv(d);
  reference::Tensor x = random_tensor(rng, 2, 5, 5, 6);
  const auto words = tensor_words(x, d.lanes());
  for (size_t i = 0; i < words.size(); ++i) drv.mem_write(MemTarget::kBufferA, i, words[i]);
  const reference::ConvLayer l1 = random_layer(rng, 6, 7, 3, 3);
  reference::ConvLayer l1p = l1;
  l1p.pad_top = l1p.pad_bottom = l1p.pad_left = l1p.pad_right = 1;
  const reference::Tensor y1 = reference::conv2d_direct(x, l1p);
  const reference::ConvLayer l2 = random_layer(rng, 7, 5, 2, 2);
  const reference::Tensor y2 = reference::conv2d_direct(y1, l2);
  reference::ConvLayer l3 = random_layer(rng, 5, 6, y2.h, y2.w);
  const reference::Tensor y3 = reference::fully_connected(y2, l3);
  const LayerPlacement p1{0, 1, 0, 0, 0, 0}, p2{1, 0, 0, 500, 400, 8}, p3{0, 1, 500, 900, 800, 16};
  const LoweredLayer a = lower_layer(d, Dataflow::kConv, x, l1p, p1);
  const LoweredLayer b = lower_layer(d, Dataflow::kConv, y1, l2, p2);
  const LoweredLayer c = lower_layer(d, Dataflow::kFcBatch, y2, l3, p3);
  drv.load(a, p1);
  drv.load(b, p2);
  drv.load(c, p3);
  drv.program(0, a.regs);
  drv.program(1, b.regs);  // while layer 1 runs
  drv.run_until_layers(1);
  drv.program(0, c.regs);
  drv.run_until_layers(3);
  const SequencerModel& m = drv.model();
  auto word = [&](unsigned buf) {
    return [&m, buf](uint64_t addr) { return m.buffer_word(buf, addr); };
  };
  CHECK(read_tensor(a.out_shape, d.lanes(), 0, word(1)).data == y1.data);
  CHECK(read_tensor(b.out_shape, d.lanes(), 500, word(0)).data == y2.data);
  CHECK(read_tensor(c.out_shape, d.lanes(), 900, word(1)).data == y3.data);
  CHECK(m.hazard_waits() > 0);  // layer 2 waited for layer 1's last result
}

TEST_CASE("weight reads: conv reuses cached blocks, fc_batch reads each weight once a batch",
          "[sequencer]") {
  std::mt19937_64 rng(5);
  const SequencerDesign d = design(4, 4, 2, 64);
  // conv: 2 images of 6 x 6 x 8, 8 filters 3 x 3 (two blocks of 18 rows).
  const reference::Tensor x = random_tensor(rng, 2, 6, 6, 8);
  const reference::ConvLayer conv = random_layer(rng, 8, 8, 3, 3);
  // fc over 4 images of 24 features, 8 neurons: fc and fc_batch.
  const reference::Tensor f = random_tensor(rng, 4, 1, 1, 24);
  const reference::ConvLayer fc = random_layer(rng, 24, 8, 1, 1);
  auto run = [&](Dataflow flow, const reference::Tensor& in, const reference::ConvLayer& l) {
    Driver drv(d);
    const LayerPlacement at{0, 1, 0, 0, 0, 0};
    const LoweredLayer low = lower_layer(d, flow, in, l, at);
    const auto words = tensor_words(in, d.lanes());
    for (size_t i = 0; i < words.size(); ++i) drv.mem_write(MemTarget::kBufferA, i, words[i]);
    drv.load(low, at);
    drv.program(0, low.regs);
    drv.run_until_layers(1);
    return drv.model().weight_reads();
  };
  // conv: each block's 18 rows once (filled or preloaded), not once per pixel.
  CHECK(run(Dataflow::kConv, x, conv) == 2 * 18);
  // fc: each image reads the 2 blocks' 6 rows; fc_batch: each neuron's 6 words once.
  CHECK(run(Dataflow::kFc, f, fc) == 4 * 2 * 6);
  CHECK(run(Dataflow::kFcBatch, f, fc) == 8 * 6);
}

TEST_CASE("the sequencer's and the post unit's register maps are consistent", "[sequencer]") {
  for (const SequencerDesign& d : {design(4, 4, 2, 64), design(3, 5, 1, 16)}) {
    CHECK(sequencer_csr::register_map(d).problems().empty());
    CHECK(post_csr::register_map(d.post).problems().empty());
    CHECK(agu_csr::register_map(d.agu).problems().empty());
    // The windows hold each block's map.
    CHECK(agu_csr::register_map(d.agu).end() <= sequencer_csr::kWindowBytes);
    CHECK(post_csr::register_map(d.post).end() <= sequencer_csr::kWindowBytes);
    CHECK(sequencer_csr::register_map(d).end() <= sequencer_csr::kWindowBytes);
  }
}
