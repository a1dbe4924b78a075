// The NPU top's golden model (issue 15, phase 1): networks compiled for a top and run on its
// golden model (the sequencer's and the planar engine's models behind the host-port
// arbiter) give every layer's tensor equal, bit for bit, to the plain reference network
// interpreter's: the digits CNN on its test images, and random small networks of every
// layer kind on designs whose T, L and P differ. The arbiter's evaluation order holds (the
// planar engine's requests do not depend on its readies, the sequencer's responses not on
// its requests); the top's own registers; the program text round trip; the compiler's
// refusals.
#include <fmt/format.h>

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <deque>
#include <filesystem>
#include <optional>
#include <random>
#include <tuple>

#include "../sequencer/random_layers.hpp"
#include "net/network_file.hpp"
#include "npugen/compiler/compile.hpp"
#include "npugen/compiler/row_bands.hpp"
#include "npugen/golden/network/reference.hpp"
#include "npugen/golden/npu/model.hpp"
#include "npugen/golden/npu/program.hpp"
#include "npugen/golden/npu/system_memory.hpp"
#include "npugen/golden/sequencer/lowering.hpp"
#include "npugen/golden/tasks/list.hpp"
#include "util/npy.hpp"

using namespace npugen::golden;
using namespace npugen::compiler;
using test::draw;
namespace fs = std::filesystem;

namespace {

const fs::path kNetworks = fs::path(NPUGEN_SOURCE_DIR) / "networks";

NpuDesign npu_design(unsigned tiles, unsigned lanes, unsigned p, uint64_t act_words,
                     uint64_t weight_rows) {
  NpuDesign d;
  SequencerDesign& s = d.seq;
  s.array.tiles = tiles, s.array.lanes = lanes;
  s.array.weight_width = s.array.act_width = 8;
  s.array.acc_width = 32;
  s.array.tree_stages = 1;
  s.agu.tiles = tiles, s.agu.lanes = lanes;
  s.agu.max_height = s.agu.max_width = 32, s.agu.max_channels = 256, s.agu.max_batch = 4;
  s.agu.max_kernel = 5, s.agu.max_stride = 3, s.agu.max_pad = 4;
  s.agu.act_words = act_words, s.agu.weight_rows = weight_rows;
  s.post.lanes = p, s.post.max_channels = 256;
  s.seq.cache_rows = 64;
  PlanarParams& pl = d.planar;
  pl.lanes = lanes, pl.words = 1, pl.act_words = 2 * act_words;
  pl.max_window = 3, pl.max_stride = 2, pl.max_pad = 1;
  pl.max_height = pl.max_width = 32, pl.max_channels = 64, pl.max_batch = 4;
  TaskParams& t = d.tasks;
  t.neural_engines = t.planar_engines = 1;
  t.buffer_words = pl.act_words;
  t.memory_words = 1 << 16;
  return d;
}

NpuDesign even_design() { return npu_design(8, 8, 4, 1024, 2048); }
NpuDesign odd_design() { return npu_design(3, 5, 1, 1024, 2048); }

reference::Tensor random_input(std::mt19937_64& rng, const net::Network& n, int batch) {
  return test::random_tensor(rng, batch, n.input.h, n.input.w, n.input.c);
}

// A zero point from -60 to 60 and a clamp: relu (at the zero point) or nearly none.
Requant random_range(std::mt19937_64& rng, Requant r) {
  r.zero_point = draw(rng, -60, 60);
  const bool relu = rng() % 2 != 0;
  r.act_min = relu ? r.zero_point : draw(rng, -128, -100);
  r.act_max = draw(rng, 100, 127);
  return r;
}

int32_t q31(std::mt19937_64& rng) {
  return static_cast<int32_t>((int64_t{1} << 30) + static_cast<int64_t>(rng() % (1U << 30)));
}

// Builds a network layer by layer (random arithmetic); tensor t's zero point in zp[t].
class NetBuilder {
 public:
  NetBuilder(std::mt19937_64& rng, int h, int w, int c) : rng_(rng) {
    n_.input = {h, w, c};
    n_.input_zero_point = draw(rng, -60, 60);
    n_.has_arithmetic = true;
    zp_.push_back(n_.input_zero_point);
  }
  [[nodiscard]] size_t last() const { return n_.layers.size(); }
  /// The next layer reads tensor t (not the last).
  NetBuilder& from(size_t t) {
    from_ = t;
    return *this;
  }
  [[nodiscard]] const net::Shape& shape(size_t t) const { return n_.shape_of(t); }

  size_t conv(int k, int kh, int kw, int stride, std::array<int, 4> pad) {
    const net::Shape x = shape(input());
    net::Layer l = layer("conv", net::Op::kConv);
    reference::ConvLayer& c = l.conv;
    c = test::random_layer(rng_, x.c, k, kh, kw);
    c.stride_y = c.stride_x = stride;
    c.pad_top = pad[0], c.pad_bottom = pad[1], c.pad_left = pad[2], c.pad_right = pad[3];
    c.input_zero_point = zp_[input()];
    scale(c, kh * kw * x.c);
    l.out = {(x.h + pad[0] + pad[1] - kh) / stride + 1, (x.w + pad[2] + pad[3] - kw) / stride + 1,
             k};
    l.zero_point = c.output[0].zero_point;
    return push(std::move(l));
  }
  size_t fc(int k) {
    const net::Shape x = shape(input());
    net::Layer l = layer("fc", net::Op::kFc);
    l.conv = test::random_layer(rng_, static_cast<int>(x.elements()), k, 1, 1);
    l.conv.input_zero_point = zp_[input()];
    scale(l.conv, static_cast<int>(x.elements()));
    l.out = {1, 1, k};
    l.zero_point = l.conv.output[0].zero_point;
    return push(std::move(l));
  }
  size_t pool(net::Op op, int k, int stride, std::array<int, 4> pad) {
    const net::Shape x = shape(input());
    net::Layer l = layer(op == net::Op::kMaxPool ? "max" : "avg", op);
    l.window = reference::PoolWindow{k, k, stride, stride, pad[0], pad[1], pad[2], pad[3]};
    clamp(l, zp_[input()]);
    l.out = {(x.h + pad[0] + pad[1] - k) / stride + 1, (x.w + pad[2] + pad[3] - k) / stride + 1,
             x.c};
    l.zero_point = zp_[input()];
    return push(std::move(l));
  }
  size_t add(size_t other) {
    net::Layer l = layer("add", net::Op::kAdd);
    l.inputs.push_back(other);
    reference::AddParams& a = l.add;
    a.a_zero_point = zp_[input()], a.b_zero_point = zp_[other];
    a.a_multiplier = q31(rng_), a.b_multiplier = q31(rng_);
    a.a_shift = draw(rng_, -3, 0), a.b_shift = draw(rng_, -3, 0);
    a.output = random_range(rng_, Requant{q31(rng_), draw(rng_, -20, -17), 0, 0, 0});
    l.act_min = a.output.act_min, l.act_max = a.output.act_max;
    l.out = shape(input());
    l.zero_point = a.output.zero_point;
    return push(std::move(l));
  }
  size_t gain_bias() {
    const net::Shape x = shape(input());
    net::Layer l = layer("gain", net::Op::kGainBias);
    l.gain.input_zero_point = zp_[input()];
    const Requant range = random_range(rng_, Requant{});
    for (int c = 0; c < x.c; ++c) {
      l.gain.bias.push_back(draw(rng_, -40, 40));
      Requant r = range;
      r.multiplier = q31(rng_), r.shift = draw(rng_, -3, 0);
      l.gain.output.push_back(r);
    }
    l.act_min = range.act_min, l.act_max = range.act_max;
    l.out = x;
    l.zero_point = range.zero_point;
    return push(std::move(l));
  }
  size_t reduce(net::Op op, reference::ReduceAxis axis) {
    const net::Shape x = shape(input());
    net::Layer l = layer(op == net::Op::kReduceSum ? "rsum" : "rmax", op);
    l.axis = axis;
    const bool spatial = axis == reference::ReduceAxis::kSpatial;
    l.out = spatial ? net::Shape{1, 1, x.c} : net::Shape{x.h, x.w, 1};
    if (op == net::Op::kReduceSum) {
      l.reduce_input_zero_point = zp_[input()];
      const Requant r = random_range(rng_, Requant{q31(rng_), draw(rng_, -4, -1), 0, 0, 0});
      l.reduce_output.assign(static_cast<size_t>(l.out.c), r);
      l.act_min = r.act_min, l.act_max = r.act_max;
      l.zero_point = r.zero_point;
    } else {
      clamp(l, zp_[input()]);
      l.zero_point = zp_[input()];
    }
    return push(std::move(l));
  }
  size_t activation() {
    net::Layer l = layer("act", net::Op::kActivation);
    l.act_min = zp_[input()], l.act_max = draw(rng_, 100, 127);
    l.out = shape(input());
    l.zero_point = zp_[input()];
    return push(std::move(l));
  }
  /// A nearest-neighbour resize of the last tensor by fy x fx.
  size_t resize(int fy, int fx) {
    net::Layer l = layer("resize", net::Op::kResize);
    l.resize_h = fy, l.resize_w = fx;
    const net::Shape x = shape(input());
    l.out = {x.h * fy, x.w * fx, x.c};
    l.zero_point = zp_[input()];
    return push(std::move(l));
  }
  /// A concat of tensors `ts` (one zero point: the first's).
  size_t concat(const std::vector<size_t>& ts) {
    net::Layer l = layer("concat", net::Op::kConcat);
    l.inputs = ts;
    l.out = shape(ts[0]);
    l.out.c = 0;
    for (const size_t t : ts) l.out.c += shape(t).c;
    l.zero_point = zp_[ts[0]];
    return push(std::move(l));
  }
  [[nodiscard]] const net::Network& network() const { return n_; }

 private:
  net::Layer layer(const char* kind, net::Op op) {
    net::Layer l;
    l.name = fmt::format("{}{}", kind, n_.layers.size());
    l.op = op;
    l.inputs = {input()};
    return l;
  }
  // Shifts that keep most outputs inside int8: an accumulator of `taps` random products
  // is about 5000 sqrt(taps).
  void scale(reference::ConvLayer& c, int taps) {
    const int shift = -7 - static_cast<int>(ceil_log2(static_cast<uint64_t>(taps))) / 2;
    const Requant range = random_range(rng_, Requant{});
    for (Requant& r : c.output) {
      r.shift = shift + draw(rng_, -1, 1);
      r.zero_point = range.zero_point, r.act_min = range.act_min, r.act_max = range.act_max;
    }
    for (int32_t& b : c.bias) b /= 8;
  }
  void clamp(net::Layer& l, int zp) {
    l.act_min = rng_() % 2 != 0 ? zp : -128;
    l.act_max = draw(rng_, 100, 127);
  }
  [[nodiscard]] size_t input() const { return from_.value_or(last()); }
  size_t push(net::Layer l) {
    from_.reset();
    zp_.push_back(l.zero_point);
    n_.layers.push_back(std::move(l));
    return n_.layers.size();
  }

  std::mt19937_64& rng_;
  net::Network n_;
  std::vector<int32_t> zp_;
  std::optional<size_t> from_;
};

// Compiles and runs a network on the golden model; every layer equals the reference. The
// task unit sequences it, or the host (then layers finish in order).
ProgramRun check_network(const NpuDesign& d, const net::Network& n, const reference::Tensor& x,
                         Sequencing how = Sequencing::kTasks, bool zero_skip = true,
                         bool weights_by_dma = false) {
  const Program p = compile_network(
      d, n, x.n, {.sequencing = how, .zero_skip = zero_skip, .weights_by_dma = weights_by_dma});
  const ProgramRun run = run_program(d, p, x, 5'000'000);
  const auto want = reference::run_network(n, x);
  REQUIRE(run.layers.size() == n.layers.size());
  for (size_t i = 0; i < n.layers.size(); ++i) {
    const reference::Tensor& got = run.layers[i];
    const reference::Tensor& w = want[i + 1];
    INFO("layer " << i << " " << n.layers[i].name << " (" << net::op_name(n.layers[i].op) << "), T "
                  << d.seq.tiles() << " L " << d.lanes() << " P " << d.seq.post.lanes);
    REQUIRE(got.n == w.n);
    REQUIRE(got.h == w.h);
    REQUIRE(got.w == w.w);
    REQUIRE(got.c == w.c);
    REQUIRE(got.data == w.data);
    if (i > 0 && how == Sequencing::kHost) CHECK(run.finished_at[i] > run.finished_at[i - 1]);
  }
  // With the task unit the DMA stores the output in system memory too.
  REQUIRE(run.stored.size() == p.outputs.size());
  for (size_t k = 0; k < p.outputs.size(); ++k) {
    REQUIRE(p.outputs[k].at.has_value() == (how == Sequencing::kTasks));
    if (p.outputs[k].at) CHECK(run.stored[k].data == want.at(p.outputs[k].layer + 1).data);
  }
  return run;
}

net::Network read_network(const fs::path& file) {
  const auto r = npugen::net::read_network_file(file);
  for (const auto& diag : r.diagnostics) FAIL(diag.format());
  REQUIRE(r.file);
  return r.file->network;
}

reference::Tensor digits_images(int n) {
  const auto a = npugen::util::read_npy(kNetworks / "digits" / "test_images.npy");
  reference::Tensor t;
  t.n = n;
  t.h = static_cast<int>(a.shape.at(1));
  t.w = static_cast<int>(a.shape.at(2));
  t.c = static_cast<int>(a.shape.at(3));
  const size_t count = static_cast<size_t>(n) * t.h * t.w * t.c;
  t.data.assign(a.values.begin(), a.values.begin() + static_cast<std::ptrdiff_t>(count));
  return t;
}

std::string compile_error(const NpuDesign& d, const net::Network& n, int batch, int* layer,
                          const CompileOptions& how = {}) {
  try {
    (void)compile_network(d, n, batch, how);
  } catch (const CompileError& e) {
    *layer = e.layer;
    return e.what();
  }
  FAIL("compiled");
  return "";
}

}  // namespace

TEST_CASE("the digits CNN on the NPU's golden model equals the reference interpreter", "[npu]") {
  const net::Network n = read_network(kNetworks / "digits" / "digits.yaml");
  const reference::Tensor x = digits_images(4);
  for (const NpuDesign& d : {even_design(), odd_design()}) {
    const Program p = compile_network(d, n, 4);
    REQUIRE(p.layers.size() == 5);
    CHECK(p.layers[0].neural);
    CHECK_FALSE(p.layers[1].neural);
    // conv1: 4 images x 8 x 8 pixels x 3 x 3 x 1 channel word x ceil(8 / T) blocks.
    // conv1 over the packed input (InputPacking): 4 images x 8 x 8 pixels x ceil(9 / L)
    // words of its 3 x 3 x 1 window x ceil(8 / T) blocks; unpacked, 3 x 3 x 1 channel word.
    const unsigned blocks = (8 + d.seq.tiles() - 1) / d.seq.tiles();
    CHECK(p.packing.on);
    CHECK(p.input == ProgramTensor{0, 0, 4, 8, 8, 9, {}});
    CHECK(p.layers[0].mapping_bound == 4 * 64 * ((9 + d.lanes() - 1) / d.lanes()) * blocks);
    const Program unpacked =
        compile_network(d, n, 4, {.sequencing = Sequencing::kTasks, .pack_input = false});
    CHECK_FALSE(unpacked.packing.on);
    CHECK(unpacked.layers[0].mapping_bound == 4 * 64 * 9 * blocks);
    CHECK(unpacked.layers[0].macs == p.layers[0].macs);
    CHECK(p.layers[0].macs == 4 * 64 * 8 * 9);
    CHECK(p.layers[4].macs == 4 * 10 * 64);
    CHECK(p.layers[4].out ==
          ProgramTensor{p.layers[4].out.buf, p.layers[4].out.base, 4, 1, 1, 10, {}});
    for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
      const auto t0 = std::chrono::steady_clock::now();
      const ProgramRun run = check_network(d, n, x, how);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::string layers;
      for (size_t i = 0; i < p.layers.size(); ++i) {
        layers += fmt::format(" {} {}", p.layers[i].name, run.finished_at[i]);
      }
      WARN(
          fmt::format("digits CNN, 4 images, T {} L {} P {}, sequenced by the {}: {} cycles "
                      "({:.2f} s); layers finish at{}",
                      d.seq.tiles(), d.lanes(), d.seq.post.lanes,
                      how == Sequencing::kTasks ? "task unit" : "host", run.cycles, s, layers));
    }
  }
}

TEST_CASE("a network of several outputs keeps each to the end, each stored by the DMA", "[npu]") {
  net::Network n = read_network(kNetworks / "digits" / "digits.yaml");
  const reference::Tensor x = digits_images(2);
  // conv1's output, which pool1 reads and nothing after it, is an output too: its space must
  // not go to a later layer, and the DMA stores it when conv1 is done.
  n.outputs = {{1, "features"}, {5, "logits"}};
  for (const NpuDesign& d : {even_design(), odd_design()}) {
    const Program p = compile_network(d, n, 2);
    REQUIRE(p.outputs.size() == 2);
    CHECK(p.outputs[0] == ProgramOutput{0, "features", p.outputs[0].at});
    CHECK(p.outputs[1].layer == 4);
    REQUIRE(p.outputs[0].at.has_value());
    REQUIRE(p.outputs[1].at.has_value());
    CHECK(*p.outputs[0].at != *p.outputs[1].at);
    // conv1's descriptor stores its output (header bit 26, word 3).
    const uint64_t d0 = p.descriptors.front();
    CHECK(((p.memory[d0] >> task_desc::kOutMemoryBit) & 1U) == 1);
    CHECK(p.memory[d0 + 3] == *p.outputs[0].at);
    CHECK(parse_program(program_text(p)) == p);
    // No later layer writes over conv1's output in its buffer (nor, with the host's program,
    // which reads the outputs from the buffers at the end).
    for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
      const Program q = compile_network(d, n, 2, {.sequencing = how});
      const ProgramTensor& kept = q.layers[0].out;
      for (size_t j = 1; j < q.layers.size(); ++j) {
        const ProgramTensor& o = q.layers[j].out;
        if (o.mem || kept.mem || o.buf != kept.buf) continue;
        const bool apart =
            o.base + o.words(d.lanes()) <= kept.base || kept.base + kept.words(d.lanes()) <= o.base;
        CHECK(apart);
      }
    }
    // Both outputs equal the reference's after the run (check_network: every stored output),
    // with the task unit and with the host (which reads them from the buffers).
    for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
      const ProgramRun run = check_network(d, n, x, how);
      CHECK(run.stored.size() == 2);
    }
  }
}

TEST_CASE("a concat copies each input into its words of the output, a task each", "[npu]") {
  std::mt19937_64 rng(34);
  // 16 channels (two words of L = 8), a conv of 8, then both and the input again.
  NetBuilder b(rng, 6, 5, 16);
  const size_t conv = b.conv(8, 3, 3, 1, {1, 1, 1, 1});
  const size_t cat = b.concat({0, conv, 0});
  const net::Network& n = b.network();
  REQUIRE(n.layers[cat - 1].out.c == 40);
  const NpuDesign d = even_design();
  for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
    const Program p = compile_network(d, n, 2, {.sequencing = how});
    CHECK(p.layers.back().tasks == 3);  // a copy an input
    // Its bound: each input's words once.
    CHECK(p.layers.back().mapping_bound == 2 * 6 * 5 * (2 + 1 + 2));
    check_network(d, n, random_input(rng, n, 2), how);
  }
  // An input that ends inside a word (8 channels over L = 5) is refused, naming the key.
  NetBuilder odd(rng, 4, 4, 8);
  odd.concat({0, 0});
  CHECK_THROWS_WITH(compile_network(odd_design(), odd.network(), 1),
                    Catch::Contains("has 8 channels, not a multiple of the 5 lanes of a word "
                                    "(pe_array.lanes)"));
}

TEST_CASE("a resize copies its input fy x fx times, each to a position of the output blocks",
          "[npu]") {
  std::mt19937_64 rng(35);
  NetBuilder b(rng, 5, 4, 11);  // 11 channels: two words of L = 8, the second partial
  b.conv(11, 3, 3, 1, {1, 1, 1, 1});
  const size_t up = b.resize(2, 3);
  b.concat({up, up});  // not word-aligned: refused below on L = 8
  const net::Network& n = b.network();
  net::Network resize_only = n;
  resize_only.layers.pop_back();
  const NpuDesign d = even_design();
  for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
    const Program p = compile_network(d, resize_only, 2, {.sequencing = how});
    CHECK(p.layers.back().tasks == 6);
    CHECK(p.layers.back().mapping_bound == 6 * 2 * 5 * 4 * 2);  // six copies of the input
    CHECK(p.layers.back().out.h == 10);
    check_network(d, resize_only, random_input(rng, resize_only, 2), how);
  }
  CHECK_THROWS_WITH(compile_network(d, n, 1), Catch::Contains("its input 0 has 11 channels"));
}

TEST_CASE("task sequencing: one descriptor a layer, its regions and the engine's registers",
          "[npu]") {
  const net::Network n = read_network(kNetworks / "digits" / "digits.yaml");
  const NpuDesign d = even_design();
  const Program p = compile_network(d, n, 2);
  REQUIRE(p.sequencing == Sequencing::kTasks);
  REQUIRE(p.descriptors.size() == p.layers.size());
  // The DMA's areas follow the descriptors: the input (its one reader, conv1, loads it) and
  // the output (fc1 stores it); a buffer word is 2 memory words (L = 8).
  REQUIRE(p.input_at.has_value());
  REQUIRE(p.outputs.size() == 1);
  REQUIRE(p.outputs[0].layer + 1 == p.layers.size());
  REQUIRE(p.outputs[0].at.has_value());
  const uint64_t output_at = *p.outputs[0].at;
  CHECK(output_at == *p.input_at + 2 * p.input.words(d.lanes()));
  CHECK(p.memory.size() == output_at + 2 * p.layers.back().out.words(d.lanes()));
  const uint64_t first = p.descriptors.front(), last = p.descriptors.back();
  CHECK(((p.memory[first] >> task_desc::kInMemoryBit) & 1U) == 1);
  CHECK(p.memory[first + 2] == *p.input_at);
  CHECK(((p.memory[last] >> task_desc::kOutMemoryBit) & 1U) == 1);
  CHECK(p.memory[last + 3] == output_at);
  for (size_t i = 1; i + 1 < p.descriptors.size(); ++i) {
    CHECK(((p.memory[p.descriptors[i]] >> task_desc::kInMemoryBit) & 3U) == 0);
  }
  const std::vector<Task> tasks = decode_task_list(std::vector<uint32_t>(
      p.memory.begin(), p.memory.begin() + static_cast<std::ptrdiff_t>(*p.input_at)));
  REQUIRE(tasks.size() == p.layers.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    INFO("layer " << p.layers[i].name);
    const Task& t = tasks[i];
    CHECK(t.kind() == (p.layers[i].neural ? EngineKind::kNeural : EngineKind::kPlanar));
    const ProgramTensor& out = p.layers[i].out;
    CHECK(t.out.base == out.buf * d.act_words() + out.base);
    CHECK(t.out.words == out.words(d.lanes()));
    const ProgramTensor& in = i == 0 ? p.input : p.layers[i - 1].out;
    CHECK(t.in[0].base == in.buf * d.act_words() + in.base);
    CHECK(t.in[0].words == in.words(d.lanes()));
    CHECK(t.in[1].empty());
  }
  // The host writes weights and parameters, then does what the C driver does: nothing else.
  const auto& st = p.steps;
  size_t k = 0;
  while (k < st.size() && st[k].kind == ProgramStep::Kind::kHostWrite) ++k;
  const std::vector<ProgramStep> driver = npu_driver_steps(0, 0, p.layers.size());
  REQUIRE(st.size() == k + driver.size());
  CHECK(std::equal(driver.begin(), driver.end(), st.begin() + static_cast<std::ptrdiff_t>(k)));
  REQUIRE(driver.size() == 9);
  const uint32_t queue0 = npu_csr::kTasksWindow + tasks_csr::queue_register(0, 0);
  CHECK(driver[0].kind == ProgramStep::Kind::kApbRead);  // COUNT: the queue is empty
  CHECK(driver[0].apb_addr == queue0 + tasks_csr::kCount);
  CHECK(driver[1].apb_addr == npu_csr::kOwnWindow + npu_csr::kStatus);      // an old TASKS_DONE
  CHECK(driver[2].apb_addr == npu_csr::kTasksWindow + tasks_csr::kStatus);  // an old ERR
  CHECK(driver[3].apb_addr == npu_csr::kOwnWindow + npu_csr::kIrqEnable);
  CHECK(driver[4].apb_addr == queue0 + tasks_csr::kHead);
  CHECK(driver[5].apb_addr == queue0 + tasks_csr::kCount);
  CHECK(driver[5].apb_data == p.layers.size());
  CHECK(driver[6].kind == ProgramStep::Kind::kWaitIrq);
  CHECK(driver[7].kind == ProgramStep::Kind::kApbRead);
  CHECK(driver[8].apb_data == 1U << npu_csr::kTasksDoneBit);

  // Host sequencing has no descriptors.
  const Program h = compile_network(d, n, 2, {.sequencing = Sequencing::kHost});
  CHECK(h.memory.empty());
  CHECK(h.descriptors.empty());

  // Descriptors beyond the system memory, a second gain_bias layer: refused, naming why.
  NpuDesign small = d;
  small.tasks.memory_words = 64;
  int layer = 0;
  CHECK_THAT(compile_error(small, n, 2, &layer),
             Catch::Matchers::Contains("do not fit the system memory"));
  std::mt19937_64 rng(5);
  NetBuilder b(rng, 4, 4, 8);
  b.conv(8, 3, 3, 1, {1, 1, 1, 1});
  b.gain_bias();
  b.gain_bias();
  CHECK_THAT(compile_error(d, b.network(), 1, &layer, {.dma = false}),
             Catch::Matchers::Contains("a second gain_bias layer"));
  CHECK(layer == 2);
  CHECK_NOTHROW(compile_network(d, b.network(), 1, {.sequencing = Sequencing::kHost}));
  // With the DMA each layer's gains are loaded before it.
  const Program g = compile_network(d, b.network(), 1);
  CHECK(std::none_of(g.steps.begin(), g.steps.end(), [](const ProgramStep& s) {
    return s.kind == ProgramStep::Kind::kHostWrite && s.target == HostTarget::kPlanarGains;
  }));
  check_network(d, b.network(), random_input(rng, b.network(), 1));
}

TEST_CASE("random networks of every layer kind equal the reference interpreter", "[npu]") {
  int networks = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed * 7919);
    const NpuDesign d = seed % 2 != 0 ? even_design() : odd_design();
    NetBuilder b(rng, draw(rng, 6, 10), draw(rng, 6, 10), draw(rng, 1, 11));
    b.conv(draw(rng, 3, 13), 3, 3, 1, {1, 1, 1, 1});
    const size_t pooled = b.pool(net::Op::kMaxPool, 3, 2, {1, draw(rng, 0, 1), 1, draw(rng, 0, 1)});
    const int kw = draw(rng, 1, 3), pw = kw > 1 ? 1 : 0;
    b.conv(b.shape(pooled).c, 3, kw, 1, {1, 1, pw, pw});  // the same H x W unless kw is 2
    if (b.shape(b.last()) == b.shape(pooled)) {
      b.add(pooled);  // the shortcut: an older layer
    } else {
      b.activation();
    }
    b.gain_bias();
    b.activation();
    b.conv(draw(rng, 5, 17), draw(rng, 2, 3), draw(rng, 2, 3), 2,
           {draw(rng, 0, 1), 1, 1, draw(rng, 0, 1)});  // stride 2, uneven padding
    const net::Shape s = b.shape(b.last());
    b.pool(net::Op::kAvgPool, 2, 1,
           {0, s.h < 2 ? 1 : draw(rng, 0, 1), s.w < 2 ? 1 : draw(rng, 0, 1), 0});
    const auto axis =
        seed % 3 == 0 ? reference::ReduceAxis::kChannels : reference::ReduceAxis::kSpatial;
    if (seed % 4 < 2) {
      b.reduce(net::Op::kReduceSum, axis);
      b.fc(draw(rng, 2, 12));
      b.reduce(net::Op::kReduceMax, reference::ReduceAxis::kChannels);
    } else {
      b.reduce(net::Op::kReduceMax, axis);
      b.fc(draw(rng, 2, 12));
      b.reduce(net::Op::kReduceSum, reference::ReduceAxis::kSpatial);
    }
    const int batch = draw(rng, 1, 3);
    INFO("seed " << seed << " batch " << batch);
    const reference::Tensor x = random_input(rng, b.network(), batch);
    // A third host-sequenced; of the others, every other one with its weights, parameters
    // and gains loaded by the DMA before each layer.
    check_network(d, b.network(), x, seed % 3 == 0 ? Sequencing::kHost : Sequencing::kTasks, true,
                  seed % 3 == 1);
    ++networks;
  }
  CHECK(networks == 40);
}

TEST_CASE("the DMA loads rows of a host-port target, W_t memory words a row", "[npu]") {
  DmaRows rows;
  rows.buffer = 2, rows.weights = 6, rows.params = 5, rows.gains = 4;
  rows.row_bytes = 24, rows.row_addr_bits = 6;
  DmaModel dma(8, 16, 10, rows);
  DmaInputs in;
  in.cmd_valid = true;
  in.cmd.target = DmaTarget::kParams;
  in.cmd.mem = 100;
  in.cmd.buf = 62;  // rows 62, 63, then 0: a row address wraps at 6 bits
  in.cmd.words = 3;
  std::deque<uint32_t> answers;  // the memory: word a holds a, answered the next cycle
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> written;
  uint64_t cycle = 0, done_at = 0;
  while (done_at == 0 && cycle < 100) {
    const DmaOutputs o = dma.outputs(in);
    DmaInputs now = in;
    now.mem_ready = o.mem_req;
    now.mem_rvalid = !answers.empty();
    now.mem_rdata = answers.empty() ? 0 : answers.front();
    now.row_ready = o.row_valid && cycle % 3 != 0;  // the port busy a cycle in three
    REQUIRE_FALSE(o.hp_valid);
    if (o.row_valid) REQUIRE(o.row_target == DmaTarget::kParams);
    if (now.row_ready) written.emplace_back(o.row_addr, o.row_data);
    if (o.done) done_at = cycle;
    if (!answers.empty()) answers.pop_front();
    if (now.mem_ready) answers.push_back(static_cast<uint32_t>(o.mem_addr) * 0x01010101U);
    dma.tick(now);
    in.cmd_valid = false;
    ++cycle;
  }
  REQUIRE(written.size() == 3);
  for (unsigned r = 0; r < 3; ++r) {
    CHECK(written[r].first == (62 + r) % 64);
    REQUIRE(written[r].second.size() == 24);
    for (unsigned b = 0; b < 24; ++b) {  // word j of row r: 100 + 5r + j; 0 above 5 words
      const unsigned word = 100 + 5 * r + b / 4;
      CHECK(written[r].second[b] == (b < 20 ? static_cast<uint8_t>(word) : 0));
    }
  }
  CHECK(done_at >= 15);  // 15 memory words, one a cycle at best
}

TEST_CASE("placement: a planar layer writes its input's buffer when the other is full", "[npu]") {
  std::mt19937_64 rng(31);
  NpuDesign d = npu_design(8, 8, 4, 256, 2048);
  d.planar.max_channels = 128;
  NetBuilder b(rng, 4, 4, 8);  // the input: A, 16 words, read at the end
  const size_t wide = b.conv(128, 3, 3, 1, {1, 1, 1, 1});  // B, 256 words: full
  b.conv(8, 1, 1, 1, {0, 0, 0, 0});                        // A, after the input
  b.activation();                                          // B is full: A
  b.add(0);                                                // the input's last reader
  b.from(wide).reduce(net::Op::kReduceMax, reference::ReduceAxis::kChannels);  // its last reader
  // Sequenced by the host: first fit.
  const Program p = compile_network(d, b.network(), 1, {.sequencing = Sequencing::kHost});
  CHECK(p.input == ProgramTensor{0, 0, 1, 4, 4, 8, {}});
  CHECK(p.layers[0].out == ProgramTensor{1, 0, 1, 4, 4, 128, {}});
  CHECK(p.layers[1].out == ProgramTensor{0, 16, 1, 4, 4, 8, {}});
  CHECK(p.layers[2].out == ProgramTensor{0, 32, 1, 4, 4, 8, {}});
  CHECK(p.layers[3].out == ProgramTensor{0, 16, 1, 4, 4, 8, {}});  // conv1's space, freed
  CHECK(p.layers[4].out == ProgramTensor{0, 0, 1, 4, 4, 1, {}});   // every space of A freed
  check_network(d, b.network(), random_input(rng, b.network(), 1), Sequencing::kHost);
  // Sequenced by the task unit: next fit (freed space is reused once the buffer has gone
  // round, so that a layer need not wait for older readers of the words it writes).
  const Program t = compile_network(d, b.network(), 1);
  CHECK(t.layers[0].out == p.layers[0].out);
  CHECK(t.layers[2].out == p.layers[2].out);
  CHECK(t.layers[3].out == ProgramTensor{0, 48, 1, 4, 4, 8, {}});  // after the last placement
  CHECK(t.layers[4].out == ProgramTensor{0, 64, 1, 4, 4, 1, {}});
  check_network(d, b.network(), random_input(rng, b.network(), 1));
  CHECK_THROWS_WITH(
      run_program(d, compile_network(d, b.network(), 1), random_input(rng, b.network(), 1), 100),
      "the program did not finish in 100 cycles (0 of 5 layers done)");
  // One image more does not fit: without row bands it is refused, with them the wide
  // tensor stays in system memory and the reduction over it loads one image at a time.
  int layer = -2;
  CHECK(compile_error(d, b.network(), 2, &layer, {.row_bands = false})
            .rfind("layer conv0: its output", 0) == 0);
  CHECK(layer == 0);
  const Program two = compile_network(d, b.network(), 2);
  CHECK(two.layers[4].tasks == 2);  // a band an image
  check_network(d, b.network(), random_input(rng, b.network(), 2));
}

TEST_CASE("host sequencing tiles a layer whose filters exceed the weight store", "[npu]") {
  // conv 3x3 over 16 channels, 32 filters: 9 x ceil(16 / L) weight rows a block of T filters.
  for (const auto& [tiles, lanes, rows, want_tiles] :
       {std::tuple{8U, 8U, 40U, 2U}, std::tuple{3U, 5U, 200U, 3U}}) {
    INFO("T " << tiles << " L " << lanes << ", " << rows << " weight rows");
    const NpuDesign d = npu_design(tiles, lanes, 1, 1024, rows);
    std::mt19937_64 rng(tiles * 100 + rows);
    NetBuilder b(rng, 5, 6, 16);
    b.conv(32, 3, 3, 1, {1, 1, 1, 1});
    b.conv(7, 1, 1, 1, {0, 0, 0, 0});  // reads every channel the tiles wrote
    const Program p = compile_network(d, b.network(), 2, {.sequencing = Sequencing::kHost});
    size_t waits = 0;
    for (const ProgramStep& s : p.steps) waits += s.kind == ProgramStep::Kind::kWaitSeqDone;
    CHECK(waits == want_tiles + 1);         // the tiles, then the second layer
    CHECK(p.layers[0].weight_rows > rows);  // written again for every tile
    check_network(d, b.network(), random_input(rng, b.network(), 2), Sequencing::kHost);
    // With the task unit and its DMA each tile's weights are loaded before it; without the
    // DMA every layer's are written first: refused, with the ways out.
    // (Unpacked, as the host's: packed, the input would stay in system memory, above A.)
    const Program t = compile_network(d, b.network(), 2, {.pack_input = false});
    CHECK(p.layers[0].weight_rows == t.layers[0].weight_rows);
    CHECK(t.layers[0].tasks == want_tiles);
    check_network(d, b.network(), random_input(rng, b.network(), 2));
    int layer = -1;
    CHECK_THAT(compile_error(d, b.network(), 2, &layer, {.dma = false}),
               Catch::Matchers::Contains("sequenced by the host (--sequencing host), or with the "
                                         "DMA (without --host-io), it would run in tiles of "
                                         "output channels"));
    CHECK(layer == 0);
  }
  // Not even one tile (lcm(L, T) filters) fits: refused, naming it.
  const NpuDesign tiny = npu_design(3, 5, 1, 1024, 60);
  std::mt19937_64 rng(3);
  NetBuilder b(rng, 5, 6, 16);
  b.conv(32, 3, 3, 1, {1, 1, 1, 1});
  int layer = -1;
  std::string message;
  try {
    (void)compile_network(tiny, b.network(), 1, {.sequencing = Sequencing::kHost});
  } catch (const CompileError& e) {
    message = e.what();
  }
  CHECK_THAT(message, Catch::Matchers::Contains("nor do 15 filters, the smallest tile"));
  (void)layer;
}

TEST_CASE("the arbiter's evaluation order holds on a whole run", "[npu]") {
  // The model evaluates the planar engine without its readies, then the sequencer, then the
  // planar engine with them: its requests must not depend on its readies or responses, nor
  // the sequencer's responses on its request.
  std::mt19937_64 rng(99);
  const NpuDesign d = odd_design();
  NetBuilder b(rng, 6, 6, 7);
  b.conv(6, 3, 3, 1, {1, 1, 1, 1});
  const size_t pooled = b.pool(net::Op::kMaxPool, 2, 2, {0, 0, 0, 0});
  b.conv(6, 1, 1, 1, {0, 0, 0, 0});
  b.add(pooled);
  b.gain_bias();
  b.fc(4);
  const reference::Tensor x = random_input(rng, b.network(), 2);
  const Program p = compile_network(d, b.network(), 2);
  ProgramDriver driver(d, p, x);
  NpuModel m(d);
  SystemMemory memory(program_memory(p, x), MemoryTiming{});
  uint64_t planar_requests = 0, responses = 0;
  while (!driver.done()) {
    REQUIRE(m.cycle() < 1'000'000);
    NpuInputs in = driver.inputs();
    memory.serve(in);
    const NpuOutputs out = m.outputs(in);
    // A write is a request: never flagged without one offered (the owners queue full).
    REQUIRE((!out.sys_req_write || out.sys_req_valid));
    driver.observe(in, out);
    // The planar engine with no readies against all of them and responses.
    PlanarInputs quiet, busy;
    busy.a_req_ready = busy.b_req_ready = busy.w_ready = true;
    busy.a_rsp_valid = busy.b_rsp_valid = true;
    busy.a_rsp_data.assign(d.lanes(), static_cast<int8_t>(rng()));
    busy.b_rsp_data.assign(d.lanes(), static_cast<int8_t>(rng()));
    const PlanarOutputs p0 = m.planar().outputs(quiet), p1 = m.planar().outputs(busy);
    REQUIRE(p0.a_req_valid == p1.a_req_valid);
    REQUIRE(p0.b_req_valid == p1.b_req_valid);
    REQUIRE(p0.a_req_addr == p1.a_req_addr);
    REQUIRE(p0.b_req_addr == p1.b_req_addr);
    REQUIRE(p0.w_valid == p1.w_valid);
    REQUIRE(p0.w_addr == p1.w_addr);
    REQUIRE(p0.w_data == p1.w_data);
    planar_requests += p0.a_req_valid || p0.b_req_valid || p0.w_valid;
    // The sequencer with no request against a random one.
    SequencerInputs none, some;
    some.mem.valid = true;
    some.mem.write = rng() % 2 != 0;
    some.mem.target = static_cast<MemTarget>(rng() % 4);
    some.mem.addr = rng() % 64;
    some.mem.data.assign((d.seq.mem_data_bits() + 7) / 8, static_cast<uint8_t>(rng()));
    const SequencerOutputs s0 = m.sequencer().outputs(none), s1 = m.sequencer().outputs(some);
    REQUIRE(s0.mem_rsp_valid == s1.mem_rsp_valid);
    REQUIRE(s0.mem_rdata == s1.mem_rdata);
    responses += s0.mem_rsp_valid;
    m.tick(in);
    memory.tick(in, out);
  }
  CHECK(planar_requests > 100);
  CHECK(responses > 50);
}

TEST_CASE("the NPU top's own registers, windows and host port", "[npu]") {
  const NpuDesign d = even_design();
  const regmap::RegisterMap map = npu_csr::register_map(d);
  CHECK(map.problems().empty());
  CHECK(map.addr_bits() <= 9);
  NpuModel m(d);
  auto cycle = [&](const NpuInputs& in) {
    const NpuOutputs o = m.outputs(in);
    m.tick(in);
    return o;
  };
  auto apb = [&](bool write, uint32_t addr, uint32_t data = 0) {
    NpuInputs in;
    in.apb = ApbRequest{true, false, write, addr, data};
    cycle(in);
    in.apb.penable = true;
    return cycle(in).apb;
  };
  const uint32_t own = npu_csr::kOwnWindow;
  CHECK(apb(false, own + npu_csr::kInfo).prdata == (8U | 10U << npu_csr::kInfoActBitsLsb));
  CHECK(apb(false, npu_csr::kPlanarWindow + planar_csr::kInfo).prdata ==
        m.planar().register_map().reg("INFO")->reset_value());
  CHECK(apb(false, npu_csr::kSequencerWindow + sequencer_csr::kOwnWindow + sequencer_csr::kInfo)
            .prdata == 64U);
  CHECK(apb(false, own + 0x20).pslverr);  // beyond BASE3
  CHECK_FALSE(apb(true, own + npu_csr::kBase + 8, 0x1234).pslverr);
  CHECK(apb(false, own + npu_csr::kBase + 8).prdata == 0x1234);
  CHECK(apb(false, npu_csr::kPlanarWindow + 0x1fc).pslverr);
  CHECK_FALSE(apb(true, own + npu_csr::kCycles, 5).pslverr);
  CHECK(apb(false, own + npu_csr::kCycles).prdata == 5);  // idle: no count
  CHECK_FALSE(apb(true, own + npu_csr::kIrqEnable, 0xffU).pslverr);
  CHECK(apb(false, own + npu_csr::kIrqEnable).prdata == npu_csr::kIrqSources);

  // The host port: a word written into buffer B and read back the next cycle; a gain row
  // written whatever the target's state.
  const size_t bytes = (d.host_data_bits() + 7) / 8;
  NpuInputs w;
  w.host = HostRequest{true, true, HostTarget::kBufferB, 17, std::vector<uint8_t>(bytes, 0)};
  for (unsigned l = 0; l < 8; ++l) w.host.data[l] = static_cast<uint8_t>(0xa0 + l);
  CHECK(cycle(w).host_ready);
  CHECK(m.buffer_word(1, 17)[3] == 0xa3);
  NpuInputs r;
  r.host = HostRequest{true, false, HostTarget::kBufferB, 17, {}};
  const NpuOutputs taken = cycle(r);
  CHECK(taken.host_ready);
  CHECK_FALSE(taken.host_rsp_valid);
  const NpuOutputs answer = cycle(NpuInputs{});
  CHECK(answer.host_rsp_valid);
  REQUIRE(answer.host_rdata.size() == bytes);
  CHECK(answer.host_rdata[7] == 0xa7);
  CHECK(answer.host_rdata[8] == 0);
  NpuInputs g;
  g.host = HostRequest{true, true, HostTarget::kPlanarGains, 0, std::vector<uint8_t>(bytes, 0)};
  CHECK(cycle(g).host_ready);

  // A planar task completes: STATUS.PLANAR_DONE sticky, the interrupt, write 1 to clear.
  // (an activation of B's word 17 into A's word 0)
  const PlanarTask t =
      PlanarTask::dense(d.planar, PlanarOp::kActivation, 1, 1, 8, 1, 1024 + 17, 0, 0);
  for (const auto& wr : planar_csr::task_writes(t)) {
    CHECK_FALSE(
        apb(true, npu_csr::kPlanarWindow + planar_csr::kGroupOffset + wr.offset, wr.value).pslverr);
  }
  bool done = false, busy = false;
  for (int i = 0; i < 100 && !done; ++i) {
    const NpuOutputs o = cycle(NpuInputs{});
    done = o.planar_done;
    busy = busy || o.busy;
  }
  REQUIRE(done);
  CHECK(busy);
  CHECK(m.buffer_word(0, 0)[3] == 0xa3);
  const NpuOutputs after = cycle(NpuInputs{});
  CHECK(after.irq);
  CHECK((apb(false, own + npu_csr::kStatus).prdata & 3U) == 2U);
  CHECK(apb(false, own + npu_csr::kCycles).prdata > 5);
  apb(true, own + npu_csr::kStatus, 2);
  CHECK((apb(false, own + npu_csr::kStatus).prdata & 3U) == 0U);
  CHECK_FALSE(cycle(NpuInputs{}).irq);

  NpuDesign bad = d;
  bad.planar.act_words = d.act_words();
  CHECK_THROWS_AS(NpuModel(bad), std::invalid_argument);
  bad = d;
  bad.planar.words = 2;
  CHECK_THROWS_AS(NpuModel(bad), std::invalid_argument);
}

TEST_CASE("a program's text parses back to it, and a malformed text names its line", "[npu]") {
  const net::Network n = read_network(kNetworks / "digits" / "digits.yaml");
  for (int k = 0; k < 4; ++k) {  // packed input but for k = 3
    const NpuDesign d = k == 1 ? odd_design() : even_design();
    Program p = compile_network(
        d, n, 2,
        {.sequencing = k == 2 ? Sequencing::kHost : Sequencing::kTasks, .pack_input = k != 3});
    CHECK(p.packing.on == (k != 3));
    const std::string text = program_text(p);
    CHECK(parse_program(text) == p);
    CHECK(program_text(parse_program(text)) == text);
    p.layers[0].name = "a name with spaces, 100% \"odd\"";
    p.layers[1].name = "";
    CHECK(parse_program(program_text(p)) == p);
  }
  const Program p = compile_network(even_design(), n, 1);
  const std::string text = program_text(p);
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  auto with = [&](size_t line, const std::string& replacement) {
    std::string t;
    for (size_t i = 0; i < lines.size(); ++i) t += (i == line ? replacement : lines[i]) + "\n";
    return t;
  };
  auto message = [](const std::string& t) -> std::string {
    try {
      (void)parse_program(t);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "parsed";
  };
  const size_t outputs_line = 7 + p.layers.size();  // "outputs 1", then its one output
  const size_t first_step = outputs_line + 3;
  CHECK(message(with(0, "npugen-program 1")).rfind("line 1:", 0) == 0);
  CHECK(message(with(1, "lanes x")).rfind("line 2:", 0) == 0);
  CHECK(message(with(2, "sequencing later")) == "line 3: 'later' is not tasks or host");
  CHECK(message(with(4, "layer conv1 conv neural B 0 1 8 8")).rfind("line 5:", 0) == 0);
  CHECK(message(with(4, "memory_io x")) ==
        "line 5: input address 'x' is not a number from 0 "
        "to 18446744073709551615");
  CHECK(message(with(5, "packing 8 8 1 3 3 1 1 1 1 -129")) ==
        "line 6: zero point '-129' is not an integer from -128 to 127");
  CHECK(message(with(7, "layer conv1 convolution neural B 0 1 8 8 8 1 1 1 1 0 1")) ==
        "line 8: 'convolution' is not a layer kind");
  CHECK(message(with(outputs_line, "outputs 9")) ==
        fmt::format("line {}: count '9' is not a number from 0 to 5", outputs_line + 1));
  CHECK(message(with(outputs_line + 1, "output 5 fc1 -")) ==
        fmt::format("line {}: layer '5' is not a number from 0 to 4", outputs_line + 2));
  CHECK(message(with(outputs_line + 1, "output 4 fc1"))
            .rfind(fmt::format("line {}: expected 'output LAYER NAME AT|-'", outputs_line + 2),
                   0) == 0);
  CHECK(message(with(first_step, "host weights 0 0g")) ==
        fmt::format("line {}: data is not hex bytes", first_step + 1));
  CHECK(message(with(first_step + 2, "jump 3")).rfind(fmt::format("line {}:", first_step + 3), 0) ==
        0);
  CHECK(message(with(first_step + 2, "layer_done 5")) ==
        fmt::format("line {}: layer 5 is not one of the 5 layers", first_step + 3));
  CHECK(message(with(first_step + 2, "apb 0x1000000000 0"))
            .rfind(fmt::format("line {}: address", first_step + 3), 0) == 0);
  CHECK(message(text.substr(0, text.find("\nhost") + 1)) ==
        fmt::format("line {}: the program ends early", first_step + 1));
  CHECK(message(text + "more\n") == fmt::format("line {}: text after 'end'", lines.size() + 1));
}

TEST_CASE("the compiler refuses what the design cannot run, naming the layer", "[npu]") {
  std::mt19937_64 rng(5);
  int layer = -2;
  {  // an output larger than the other buffer
    const NpuDesign d = npu_design(8, 8, 4, 256, 2048);
    NetBuilder b(rng, 8, 8, 8);
    b.conv(8, 3, 3, 1, {1, 1, 1, 1});
    b.conv(40, 1, 1, 1, {0, 0, 0, 0});
    const std::string m = compile_error(d, b.network(), 1, &layer, {.row_bands = false});
    CHECK(layer == 1);
    CHECK(m ==
          "layer conv1: its output (1x8x8x40, 320 words) does not fit buffer A (256 words, 0 in "
          "use; agu.act_words)");
    // The ways out: the task unit, and its DMA.
    CHECK(compile_error(d, b.network(), 1, &layer, {.sequencing = Sequencing::kHost}) ==
          m.substr(0, m.size() - 1) +
              "); with the task unit (--sequencing tasks) it would stay in system memory and "
              "its layers run in row bands");
    CHECK(compile_error(d, b.network(), 1, &layer, {.dma = false}) ==
          m.substr(0, m.size() - 1) +
              "); with the DMA (without --host-io) it would stay in system memory and its "
              "layers run in row bands");
    // The input itself.
    CHECK_THROWS_WITH(compile_network(d, b.network(), 5, {.row_bands = false}),
                      "the input (5 image(s) of 8x8x8, 320 words) does not fit buffer A (256 "
                      "words; agu.act_words)");
  }
  {  // more weight rows than the store holds
    const NpuDesign d = npu_design(8, 8, 4, 1024, 64);
    NetBuilder b(rng, 6, 6, 16);
    b.conv(16, 3, 3, 1, {1, 1, 1, 1});  // 2 blocks x 9 x 2 words: 36 rows
    b.activation();
    b.conv(16, 3, 3, 1, {1, 1, 1, 1});
    const std::string m = compile_error(d, b.network(), 1, &layer, {.dma = false});
    CHECK(layer == 2);
    CHECK(m ==
          "layer conv2: 36 weight rows do not fit the weight store (64 rows, 36 in use; "
          "agu.weight_rows); sequenced by the host (--sequencing host), or with the DMA "
          "(without --host-io), it would run in tiles of output channels");
    // With the DMA each layer's weights are loaded just before it.
    CHECK_NOTHROW(compile_network(d, b.network(), 1));
    // Sequenced by the host, each layer's weights are written just before it: both fit.
    CHECK_NOTHROW(compile_network(d, b.network(), 1, {.sequencing = Sequencing::kHost}));
  }
  {  // more parameter groups than the post unit's table holds
    NpuDesign d = npu_design(8, 8, 4, 1024, 2048);
    d.seq.post.max_channels = 16;  // 4 groups of 4
    NetBuilder b(rng, 6, 6, 3);
    b.conv(8, 3, 3, 1, {1, 1, 1, 1});
    b.conv(16, 3, 3, 1, {1, 1, 1, 1});
    const std::string m = compile_error(d, b.network(), 1, &layer, {.dma = false});
    CHECK(layer == 1);
    CHECK(m ==
          "layer conv1: 4 parameter groups do not fit the post unit's table (4 groups of 4 "
          "channels, 2 in use; post.max_channels); sequenced by the host (--sequencing host), "
          "or with the DMA (without --host-io), it would run in tiles of output channels");
  }
  {  // a kernel above the generated maxima: the sequencer's, the planar engine's
    const NpuDesign d = even_design();
    NetBuilder b(rng, 9, 9, 3);
    b.conv(4, 7, 7, 1, {3, 3, 3, 3});
    std::string m = compile_error(d, b.network(), 1, &layer, {.pack_input = false});
    CHECK(layer == 0);
    CHECK(m ==
          "layer conv0: the sequencer cannot run it: kernel height 7 is outside 1 to 5 "
          "(agu.max_kernel)");
    // Packed (its windows as channels, in system memory above buffer A), it runs as a 1 x 1.
    CHECK(compile_network(d, b.network(), 1).packing.on);
    NetBuilder c(rng, 9, 9, 3);
    c.conv(4, 3, 3, 1, {1, 1, 1, 1});
    c.pool(net::Op::kMaxPool, 4, 2, {0, 0, 0, 0});
    m = compile_error(d, c.network(), 1, &layer);
    CHECK(layer == 1);
    CHECK(m ==
          "layer max1: the planar engine cannot run it: kernel height 4 is outside 1 to 3 "
          "(planar.max_window)");
    NpuDesign no_avg = d;
    no_avg.planar.modes &= ~planar_op_bit(PlanarOp::kAvgPool);
    NetBuilder e(rng, 9, 9, 3);
    e.pool(net::Op::kAvgPool, 2, 2, {0, 0, 0, 0});
    m = compile_error(no_avg, e.network(), 1, &layer);
    CHECK(layer == 0);
    CHECK(m ==
          "layer avg0: avg_pool is not generated by this design's planar engine "
          "(planar.modes)");
  }
  {  // a shape-only network file
    const net::Network n = read_network(kNetworks / "residual_block.yaml");
    CHECK_FALSE(n.has_arithmetic);
    const std::string m = compile_error(even_design(), n, 1, &layer);
    CHECK(layer == 0);
    CHECK(m.rfind("layer conv_a: the network has no weights or quantization", 0) == 0);
  }
}

TEST_CASE("a VQ layer: the zero vector first, every run of weights one of the codebook's",
          "[npu][vq]") {
  const net::Network n = read_network(kNetworks / "digits" / "digits_vq.yaml");
  const net::Network dense = read_network(kNetworks / "digits" / "digits.yaml");
  for (const size_t i : {size_t{2}, size_t{4}}) {  // conv2, fc1
    const net::Layer& l = n.layers[i];
    REQUIRE(l.vq.vector_length == 4);
    REQUIRE(l.vq.codebook.size() == 256 * 4);
    for (unsigned j = 0; j < 4; ++j) CHECK(l.vq.codebook[j] == 0);
    const std::vector<int8_t>& w = l.conv.weights;
    REQUIRE(w.size() == dense.layers[i].conv.weights.size());
    for (size_t v = 0; v < w.size() / 4; ++v) {
      bool found = false;
      for (size_t c = 0; c < 256 && !found; ++c) {
        found = std::equal(w.begin() + static_cast<std::ptrdiff_t>(v * 4),
                           w.begin() + static_cast<std::ptrdiff_t>(v * 4 + 4),
                           l.vq.codebook.begin() + static_cast<std::ptrdiff_t>(c * 4));
      }
      CHECK(found);
    }
  }
  net::Layer bad = n.layers[0];  // conv1: one input channel
  CHECK_THROWS_AS(net::make_vq_layer(bad, 1, 2, 16), std::invalid_argument);
  CHECK_THROWS_AS(net::make_vq_layer(bad, 8, 3, 16), std::invalid_argument);
  CHECK_THROWS_AS(net::make_vq_layer(bad, 8, 2, 1), std::invalid_argument);
}

TEST_CASE("VQ layers through the golden model's VQ loader equal the reference interpreter",
          "[npu][vq]") {
  const net::Network n = read_network(kNetworks / "digits" / "digits_vq.yaml");
  const reference::Tensor x = digits_images(4);
  NpuDesign d = even_design();
  VqParams q;  // seed 002's example: 256 rows of 4 int8 weights, 4 copies
  q.rows = 256, q.row_weights = 4, q.copies = 4, q.min_vector_length = 2;
  q.weight = WeightFormat{WeightKind::kInt, 8};
  d.vq = q;
  for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
    const Program p = compile_network(d, n, 4, {.sequencing = how});
    size_t rows = 0, book = 0;
    for (const ProgramStep& s : p.steps) {
      rows += s.kind == ProgramStep::Kind::kHostWrite && s.target == HostTarget::kVqRow;
      book += s.kind == ProgramStep::Kind::kHostWrite && s.target == HostTarget::kVqCodebook;
    }
    CHECK(rows == p.layers[2].weight_rows + p.layers[4].weight_rows);
    CHECK(book == 2 * 256);  // two layers' codebooks of 256 vectors, one a row (m = M)
    const ProgramRun run = check_network(d, n, x, how);
    CHECK(run.cycles > 0);
  }
  // Without the loader the compiler refuses the layer, naming it and the key.
  try {
    (void)compile_network(even_design(), n, 4);
    FAIL("a VQ layer compiled for a design without the loader");
  } catch (const CompileError& e) {
    CHECK(e.layer == 2);
    CHECK_THAT(e.what(), Catch::Contains("vq.enabled"));
  }
}

TEST_CASE("the VQ loader decodes a row in B + 3 cycles and writes it whole", "[npu][vq]") {
  VqParams q;
  q.rows = 16, q.row_weights = 4, q.copies = 2, q.min_vector_length = 2;
  q.weight = WeightFormat{WeightKind::kInt, 8};
  const unsigned row = 16;  // T x L: 2 beats of 8 weights with m = 4
  VqLoadModel m(q, row);
  std::vector<uint8_t> book(4);
  for (unsigned r = 0; r < 4; ++r) {  // codebook rows r: weights 4r + j
    for (unsigned j = 0; j < 4; ++j) book[j] = static_cast<uint8_t>(4 * r + j);
    VqLoadInputs in;
    in.cb_we = true, in.cb_row = r, in.cb_data = &book;
    CHECK(m.outputs(in).in_ready);
    m.tick(in);
  }
  // Indices 3, 0, 2, 1 (4 bits each): the row's vectors are codebook rows 3, 0, 2, 1.
  const std::vector<uint8_t> data = {0x03, 0x12};
  VqLoadInputs in;
  in.in_valid = true, in.row = 5, in.data = &data;
  CHECK(m.beats() == 2);
  m.tick(in);
  unsigned cycles = 1;
  VqLoadInputs idle;
  while (!m.outputs(idle).st_valid) {
    CHECK(m.outputs(idle).busy);
    CHECK_FALSE(m.outputs(in).in_ready);
    m.tick(idle);
    ++cycles;
    REQUIRE(cycles < 10);
  }
  const VqLoadOutputs o = m.outputs(idle);
  CHECK(o.st_row == 5);
  const unsigned want[4] = {3, 0, 2, 1};
  for (unsigned v = 0; v < 4; ++v) {
    for (unsigned j = 0; j < 4; ++j) CHECK(o.st_data[v * 4 + j] == 4 * want[v] + j);
  }
  idle.st_ready = true;
  m.tick(idle);
  ++cycles;
  CHECK(cycles == 2 + 3);  // B + 3 from the transfer's edge to the idle loader
  CHECK_FALSE(m.outputs({}).busy);
}

TEST_CASE(
    "zero skipping: the pruned digits CNN runs its sparse layers on the zero-skipping "
    "array, equal to the reference interpreter and in fewer cycles",
    "[npu][zs]") {
  const net::Network pruned = read_network(kNetworks / "digits" / "digits_pruned.yaml");
  const net::Network dense = read_network(kNetworks / "digits" / "digits.yaml");
  const reference::Tensor x = digits_images(4);
  NpuDesign d = even_design();
  d.seq.agu.dataflows |= dataflow_bit(Dataflow::kZeroSkip);
  ZeroSkipParams z;  // configs/npu_zs.yaml's array
  z.array = d.seq.array;
  z.intra = {2, 1}, z.inter = {1, 1};
  z.act_rows_per_cycle = 4, z.max_rows = 96, z.step_buffer_depth = 4;
  d.seq.zs = z;
  d.seq.agu.zs_window = z.max_rows / SequencerDesign::kZsSlots;  // as the generator derives it
  for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
    const Program p = compile_network(d, pruned, 4, {.sequencing = how});
    // conv1 reads 2 packed rows a pixel: dense. conv2 (9 rows, 2 blocks) and fc1 skip their
    // zeros: fewer steps a pixel than the dense array's rows, in store rows with the control.
    CHECK(p.layers[0].zs_steps == 0);
    CHECK(p.layers[2].zs_steps > 0);
    CHECK(p.layers[2].zs_steps < 2 * 9);
    CHECK(p.layers[4].zs_steps > 0);
    CHECK(p.layers[2].weight_rows == p.layers[2].zs_steps);
    CHECK(p.layers[2].weight_bits == p.layers[2].weight_rows * d.seq.store_row_bytes() * 8);
    const Program off = compile_network(d, pruned, 4, {.sequencing = how, .zero_skip = false});
    for (const ProgramLayer& l : off.layers) CHECK(l.zs_steps == 0);
    CHECK(parse_program(program_text(p)) == p);  // zs_steps round-trips
    const ProgramRun on_run = check_network(d, pruned, x, how);
    const ProgramRun off_run = check_network(d, pruned, x, how, false);
    CHECK(on_run.cycles < off_run.cycles);
    WARN(fmt::format("pruned digits, 4 images, {}: {} cycles zero-skipped, {} dense",
                     how == Sequencing::kTasks ? "task unit" : "host", on_run.cycles,
                     off_run.cycles));
  }
  // The dense network has nothing to skip: every layer dense, as on a design without zs.
  for (const ProgramLayer& l : compile_network(d, dense, 4).layers) CHECK(l.zs_steps == 0);
  // A window larger than a staging slot (zs.max_rows / 3) stays dense.
  d.seq.zs->max_rows = 3 * 8;  // slots of 8 words: conv2's 9-row window does not fit
  d.seq.agu.zs_window = 8;
  const Program small = compile_network(d, pruned, 4);
  CHECK(small.layers[2].zs_steps == 0);
  CHECK(small.layers[4].zs_steps > 0);  // fc1: 2 x 2 pixels x 2 words = 8 rows
}

TEST_CASE("row bands: each band's windows read its input rows, padded where the layer is",
          "[npu][bands]") {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 2000; ++trial) {
    BandGeometry g;
    g.kernel = draw(rng, 1, 5);
    g.stride = draw(rng, 1, 3);
    g.pad_top = draw(rng, 0, g.kernel - 1);
    const int pad_bottom = draw(rng, 0, g.kernel - 1);
    g.height = draw(rng, std::max(1, g.kernel - g.pad_top - pad_bottom), 30);
    g.out_height = (g.height + g.pad_top + pad_bottom - g.kernel) / g.stride + 1;
    const int rows = draw(rng, 1, g.out_height + 1), images = draw(rng, 1, 3);
    INFO("H " << g.height << " K " << g.kernel << " S " << g.stride << " pads " << g.pad_top << " "
              << pad_bottom << ", bands of " << rows);
    const std::vector<RowBand> bands = row_bands(g, rows, images);
    int next = 0, image = 0, most = 0;
    for (const RowBand& b : bands) {
      if (b.image != image) {
        REQUIRE(next == g.out_height);
        image = b.image, next = 0;
      }
      REQUIRE(b.out_first == next);  // the output rows, in order, once each
      REQUIRE(b.out_rows >= 1);
      REQUIRE(b.out_rows <= rows);
      next += b.out_rows;
      // The band's windows are the layer's: the same input rows, the same padding.
      REQUIRE((b.in_rows + b.pad_top + b.pad_bottom - g.kernel) / g.stride + 1 == b.out_rows);
      REQUIRE(b.in_first - b.pad_top == b.out_first * g.stride - g.pad_top);
      REQUIRE(b.in_first >= 0);
      REQUIRE(b.in_first + b.in_rows <= g.height);
      REQUIRE(b.pad_top == std::max(0, g.pad_top - b.out_first * g.stride));
      REQUIRE(b.pad_bottom <= pad_bottom);
      most = std::max(most, b.in_rows);
    }
    REQUIRE(image == images - 1);
    REQUIRE(next == g.out_height);
    REQUIRE(band_input_rows(g, rows) == most);
  }
  CHECK_THROWS_WITH(row_bands(BandGeometry{4, 1, 1, 2, 6}, 1, 1),
                    "output rows 0 to 0 read padding only (window 1, top padding 2)");
}

TEST_CASE("row bands: tensors above a buffer stay in system memory, bit-exact", "[npu][bands]") {
  std::mt19937_64 rng(43);
  const NpuDesign d = npu_design(8, 8, 4, 256, 2048);  // buffers of 256 words
  auto in_memory = [](const Program& p, size_t layer) {
    return p.layers.at(layer).out.mem.has_value();
  };
  SECTION("an input above buffer A: the first layer's bands load their rows") {
    NetBuilder b(rng, 12, 12, 16);  // 288 words
    b.conv(8, 3, 3, 1, {1, 1, 1, 1});
    b.pool(net::Op::kMaxPool, 2, 2, {0, 0, 0, 0});
    b.pool(net::Op::kMaxPool, 2, 2, {0, 0, 0, 0});
    b.fc(10);
    const Program p = compile_network(d, b.network(), 1);
    CHECK(p.input.mem.has_value());
    CHECK(p.layers[0].tasks > 1);
    check_network(d, b.network(), random_input(rng, b.network(), 1));
  }
  SECTION("a conv output above a buffer: stored by bands, pooled and convolved in bands") {
    for (const int batch : {1, 3}) {
      NetBuilder b(rng, 8, 8, 8);
      b.conv(40, 3, 3, 1, {1, 1, 1, 1});              // 8 x 8 x 40: 320 words, in memory
      b.activation();                                 // planar, memory to memory
      b.pool(net::Op::kMaxPool, 2, 2, {0, 0, 0, 0});  // reads it: the other engine's
      b.conv(16, 1, 1, 1, {0, 0, 0, 0});
      b.fc(10);
      const Program p = compile_network(d, b.network(), batch);
      CHECK(in_memory(p, 0));
      CHECK(in_memory(p, 1));
      CHECK_FALSE(in_memory(p, 2));
      CHECK(p.layers[0].tasks >= 2 * static_cast<uint64_t>(batch));
      CHECK(p.layers[2].tasks >= static_cast<uint64_t>(batch));
      check_network(d, b.network(), random_input(rng, b.network(), batch));
    }
  }
  SECTION("the same engine reads what it stored; strides and padding across bands") {
    NetBuilder b(rng, 9, 9, 8);
    b.conv(40, 3, 3, 1, {1, 1, 1, 1});  // 9 x 9 x 40: 405 words
    b.conv(16, 3, 3, 2, {1, 1, 1, 1});  // stride 2 over it: 5 x 5
    b.conv(48, 5, 5, 1, {2, 2, 2, 2});  // 5 x 5 x 48: 150 words
    const Program p = compile_network(d, b.network(), 2);
    CHECK(in_memory(p, 0));
    check_network(d, b.network(), random_input(rng, b.network(), 2));
  }
  SECTION("an fc over an input in memory: a band an image") {
    const NpuDesign tiny = npu_design(8, 8, 4, 64, 2048);  // buffers of 64 words
    NetBuilder b(rng, 5, 5, 8);                            // 25 words an image: three do not fit
    b.fc(10);
    const Program p = compile_network(tiny, b.network(), 3);
    CHECK(p.input.mem.has_value());
    CHECK(p.layers[0].tasks == 3);
    check_network(tiny, b.network(), random_input(rng, b.network(), 3));
  }
  SECTION("tiles of output channels over an input in memory") {
    const NpuDesign small = npu_design(8, 8, 4, 256, 40);  // 40 weight rows: 2 blocks of 18
    NetBuilder b(rng, 12, 12, 16);                         // 288 words
    b.conv(32, 3, 3, 2, {1, 1, 1, 1});                     // 4 blocks: 72 rows, two tiles
    b.conv(8, 1, 1, 1, {0, 0, 0, 0});                      // reads every tile's channels
    const Program p = compile_network(small, b.network(), 1);
    CHECK(p.input.mem.has_value());
    CHECK(p.layers[0].tasks > 2);  // each tile in bands
    CHECK(p.layers[0].weight_rows == 72);
    check_network(small, b.network(), random_input(rng, b.network(), 1));
  }
  SECTION("the network's output in memory") {
    NetBuilder b(rng, 8, 8, 8);
    b.conv(16, 3, 3, 1, {1, 1, 1, 1});
    b.conv(40, 3, 3, 1, {1, 1, 1, 1});  // the output: 320 words
    const Program p = compile_network(d, b.network(), 1);
    CHECK(in_memory(p, 1));
    CHECK(p.outputs.at(0).at == p.layers[1].out.mem);
    check_network(d, b.network(), random_input(rng, b.network(), 1));
  }
  SECTION("odd T, L and P") {
    const NpuDesign o = npu_design(3, 5, 1, 200, 2048);
    NetBuilder b(rng, 7, 9, 13);        // 7 x 9 x 3 words: 189
    b.conv(17, 3, 3, 1, {1, 1, 1, 1});  // 7 x 9 x 4 words: 252, in memory
    b.pool(net::Op::kAvgPool, 3, 2, {1, 1, 1, 1});
    b.conv(7, 3, 3, 1, {1, 1, 1, 1});
    const Program p = compile_network(o, b.network(), 2);
    CHECK(p.input.mem.has_value());
    CHECK(in_memory(p, 0));
    check_network(o, b.network(), random_input(rng, b.network(), 2));
  }
  SECTION("an add of two tensors in memory loads its second input's rows too") {
    NetBuilder b(rng, 8, 8, 8);
    const size_t wide = b.conv(40, 3, 3, 1, {1, 1, 1, 1});
    b.activation();
    b.add(wide);  // both inputs in memory
    const Program p = compile_network(d, b.network(), 1);
    CHECK(in_memory(p, 0));
    CHECK(in_memory(p, 1));
    CHECK(p.layers[2].tasks > 1);
    check_network(d, b.network(), random_input(rng, b.network(), 1));
  }
  SECTION("what row bands refuse") {
    int layer = -2;
    NetBuilder c(rng, 2, 32, 64);  // a row of 256 words: a band's input of 3 rows does not fit
    c.conv(8, 3, 3, 1, {1, 1, 1, 1});
    CHECK(compile_error(d, c.network(), 1, &layer) ==
          "layer conv0: its input is in system memory (it does not fit a buffer), and the "
          "staging area of a band of one output row (2 input rows of 256 words, 0 output words) "
          "does not fit the buffers beside the tensors in use (A: 64 of 256 words, B: 0; "
          "agu.act_words)");
  }
}

TEST_CASE("layers above the engines' height and width run in bands and tiles of columns",
          "[npu][bands]") {
  // Registers of 11 rows and 9 columns (both engines) under inputs up to 28 x 26: the layers
  // run as bands of rows, each band as tiles of columns, in the buffers or in system memory
  // (the small buffers of the second design); equal to the plain reference, layer by layer.
  std::mt19937_64 rng(23);
  for (const bool small : {false, true}) {
    NpuDesign d = small ? npu_design(3, 5, 1, 600, 2048) : npu_design(8, 8, 4, 4096, 2048);
    d.seq.agu.max_height = d.planar.max_height = 11;
    d.seq.agu.max_width = d.planar.max_width = 9;
    int tiled = 0;  // networks with a layer in bands or tiles
    for (int i = 0; i < 12; ++i) {
      NetBuilder b(rng, draw(rng, 12, 28), draw(rng, 10, 26), draw(rng, 1, 9));
      const int k = draw(rng, 1, 3), s = draw(rng, 1, 2), p = draw(rng, 0, k - 1);
      const size_t c1 = b.conv(draw(rng, 2, 10), k, k, s, {p, draw(rng, 0, k - 1), p, 0});
      const int c = b.shape(c1).c;
      const size_t c2 = b.conv(c, 3, 3, 1, {1, 1, 1, 1});
      b.from(c1).add(c2);  // (on the small design, both inputs often in memory)
      b.pool(rng() % 2 == 0 ? net::Op::kMaxPool : net::Op::kAvgPool, draw(rng, 2, 3),
             draw(rng, 1, 2), {draw(rng, 0, 1), 0, draw(rng, 0, 1), draw(rng, 0, 1)});
      b.activation();
      const net::Network& n = b.network();
      const Program p0 = compile_network(d, n, 2);
      INFO("design " << (small ? "3x5, 600-word buffers" : "8x8") << ", network " << i << ": "
                     << n.input.h << "x" << n.input.w << "x" << n.input.c);
      uint64_t tasks = 0;
      for (const ProgramLayer& l : p0.layers) tasks += l.tasks;
      if (tasks > p0.layers.size()) ++tiled;  // some layer in bands or tiles
      check_network(d, n, random_input(rng, n, 2));
    }
    CHECK(tiled >= 10);
  }
}

TEST_CASE("a layer of more filters than the address generator's runs in tiles of output channels",
          "[npu][tiles]") {
  std::mt19937_64 rng(29);
  NpuDesign d = npu_design(8, 8, 4, 4096, 4096);
  d.seq.agu.max_channels = 44;  // tiles of 40 filters (multiples of lcm(L, T) = 8)
  // (Their inputs within the maximum: a longer reduction is not split.)
  NetBuilder conv(rng, 6, 5, 8);
  conv.conv(16, 1, 1, 1, {0, 0, 0, 0});
  conv.conv(100, 3, 3, 1, {1, 1, 1, 1});
  NetBuilder fc(rng, 1, 1, 40);
  fc.fc(90);
  for (const Sequencing how : {Sequencing::kTasks, Sequencing::kHost}) {
    for (const net::Network* n : {&conv.network(), &fc.network()}) {
      const Program p = compile_network(d, *n, 2, {.sequencing = how});
      CHECK(p.layers.back().tasks == (how == Sequencing::kTasks ? 3U : 1U));
      check_network(d, *n, random_input(rng, *n, 2), how);
    }
  }
  d.seq.agu.max_channels = 7;  // below one tile
  NetBuilder small(rng, 4, 4, 4);
  small.conv(6, 1, 1, 1, {0, 0, 0, 0});
  small.conv(9, 1, 1, 1, {0, 0, 0, 0});
  int layer = -2;
  CHECK(compile_error(d, small.network(), 1, &layer) ==
        "layer conv1: 9 filters are above the address generator's 7 (agu.max_channels), and a "
        "tile of output channels is a multiple of 8 filters (lcm of the lanes and the tiles)");
  CHECK(layer == 1);
}

TEST_CASE("a planar layer of more channels than the planar engine's runs in slices of channels",
          "[npu][slices]") {
  std::mt19937_64 rng(31);
  NpuDesign d = npu_design(8, 8, 4, 4096, 2048);
  d.planar.max_channels = 20;  // slices of 16 channels (whole words)
  NetBuilder b(rng, 7, 6, 44);
  const size_t pool = b.pool(net::Op::kMaxPool, 2, 1, {0, 1, 1, 0});
  const size_t avg = b.pool(net::Op::kAvgPool, 3, 1, {1, 1, 1, 1});
  b.from(pool).add(avg);
  b.activation();
  b.reduce(net::Op::kReduceSum, reference::ReduceAxis::kSpatial);
  const Program p = compile_network(d, b.network(), 2);
  for (const ProgramLayer& l : p.layers) CHECK(l.tasks == 3);  // 16 + 16 + 12 channels
  check_network(d, b.network(), random_input(rng, b.network(), 2));
  // Tall too: bands of rows, each in slices.
  d.planar.max_height = 5;
  NetBuilder t(rng, 9, 6, 44);
  t.pool(net::Op::kAvgPool, 3, 1, {1, 1, 1, 1});
  t.activation();
  const Program tall = compile_network(d, t.network(), 1);
  CHECK(tall.layers[0].tasks > 3);
  check_network(d, t.network(), random_input(rng, t.network(), 1));
  // Sequenced by the host, refused with the way out; a reduction over the channels, refused.
  int layer = -2;
  CHECK(compile_error(d, t.network(), 1, &layer, {.sequencing = Sequencing::kHost})
            .ends_with("with the task unit (--sequencing tasks) it would run in bands of rows "
                       "and tiles of columns"));
  d.planar.max_height = 32;
  CHECK(compile_error(d, b.network(), 1, &layer, {.sequencing = Sequencing::kHost}) ==
        "layer max0: the planar engine cannot run it: channels 44 is outside 1 to 20 "
        "(planar.max_channels); "
        "with the "
        "task unit (--sequencing tasks) it would run in slices of channels");
  NetBuilder c(rng, 3, 3, 44);
  c.reduce(net::Op::kReduceMax, reference::ReduceAxis::kChannels);
  CHECK(compile_error(d, c.network(), 1, &layer) ==
        "layer rmax0: the planar engine cannot run it: channels 44 is outside 1 to 20 "
        "(planar.max_channels)");
}

TEST_CASE("an output in system memory in tiles of output channels runs band by band",
          "[npu][tiles]") {
  // conv 3x3, 16 -> 80 channels on 8 x 8: its 640-word output is above the 512-word buffers;
  // its filters in tiles (weights by the DMA above a 64-row store, or the host's
  // beside 24 filters of the address generator). Each band runs every tile before the next,
  // and its rows are stored once with every channel.
  std::mt19937_64 rng(37);
  for (const bool by_dma : {true, false}) {
    NpuDesign d = npu_design(8, 8, 4, 512, by_dma ? 64 : 4096);
    if (!by_dma) d.seq.agu.max_channels = 24;
    NetBuilder b(rng, 8, 8, 16);
    b.conv(16, 1, 1, 1, {0, 0, 0, 0});
    b.conv(80, 3, 3, 1, {1, 1, 1, 1});
    b.pool(net::Op::kMaxPool, 2, 2, {0, 0, 0, 0});
    const Program p = compile_network(d, b.network(), 1);
    INFO((by_dma ? "weights by the DMA" : "the host's weights, 24 filters a tile"));
    REQUIRE(p.layers[1].out.mem.has_value());
    CHECK(p.layers[1].tasks > 4);  // bands x tiles
    check_network(d, b.network(), random_input(rng, b.network(), 1));
  }
}
