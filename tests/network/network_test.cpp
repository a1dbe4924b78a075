// The network file (docs/network.md) and the plain reference network interpreter: the
// digits CNN read from networks/digits and run by the interpreter against the integer
// inference its training script computed independently in numpy; hand-computed layers;
// and bad network files, each reported at its line.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "net/network_file.hpp"
#include "npugen/golden/network/reference.hpp"
#include "util/npy.hpp"

using namespace npugen;
namespace fs = std::filesystem;

namespace {

const fs::path kDigits = fs::path(NPUGEN_SOURCE_DIR) / "networks" / "digits";

golden::reference::Tensor tensor_of(const util::NpyArray& a) {
  golden::reference::Tensor t;
  t.n = static_cast<int>(a.shape.at(0));
  t.h = static_cast<int>(a.shape.at(1));
  t.w = static_cast<int>(a.shape.at(2));
  t.c = static_cast<int>(a.shape.at(3));
  t.data.assign(a.values.begin(), a.values.end());
  return t;
}

// A scratch folder with .npy files for small networks.
struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / fmt::format("npugen_net_{}", ::getpid());
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
  void npy(const std::string& name, util::NpyType type, const std::vector<size_t>& shape,
           const std::vector<int64_t>& values) const {
    std::ofstream(dir / name, std::ios::binary) << util::npy_bytes(type, shape, values);
  }
  [[nodiscard]] net::NetworkResult read(const std::string& text) const {
    return net::read_network_text(text, "n.yaml", dir);
  }
};

std::string first_error(const net::NetworkResult& r) {
  REQUIRE(!r.diagnostics.empty());
  return r.diagnostics.front().format();
}

}  // namespace

TEST_CASE("the digits CNN's reference run equals its training script's integer inference",
          "[network]") {
  const auto r = net::read_network_file(kDigits / "digits.yaml");
  for (const auto& d : r.diagnostics) FAIL(d.format());
  REQUIRE(r.file);
  const golden::net::Network& n = r.file->network;
  CHECK(n.has_arithmetic);
  REQUIRE(n.layers.size() == 5);
  CHECK(n.layers[4].out == golden::net::Shape{1, 1, 10});
  CHECK(n.layers[1].out == golden::net::Shape{4, 4, 8});
  CHECK(n.layers[0].conv.output[0].act_min == -128);  // relu at the zero point -128
  CHECK(n.layers[2].conv.input_zero_point == -128);   // pool1 keeps conv1's zero point
  CHECK(n.layers[4].conv.input_zero_point == -128);

  const auto images = util::read_npy(kDigits / "test_images.npy");
  const auto labels = util::read_npy(kDigits / "test_labels.npy");
  const auto logits = util::read_npy(kDigits / "expected_logits.npy");
  const auto tensors = golden::reference::run_network(n, tensor_of(images));
  const golden::reference::Tensor& out = tensors.back();
  REQUIRE(out.data.size() == logits.values.size());
  size_t differ = 0, correct = 0;
  for (size_t i = 0; i < out.data.size(); ++i) differ += out.data[i] != logits.values[i];
  CHECK(differ == 0);
  for (int img = 0; img < out.n; ++img) {
    int best = 0;
    for (int k = 1; k < 10; ++k) {
      if (out.data[static_cast<size_t>(img * 10 + k)] >
          out.data[static_cast<size_t>(img * 10 + best)])
        best = k;
    }
    correct += best == labels.values[static_cast<size_t>(img)];
  }
  // The training script measured 98.61 % (355 of 360).
  CHECK(correct == 355);
}

TEST_CASE("the reference interpreter on hand-computed layers", "[network]") {
  Scratch s;
  // 1x1 conv, two filters: 2x and -1x the input less its zero point 3; bias 1; M = 2^30,
  // shift 0 halves (x 0.5 with rounding half away from zero); output zero point -1.
  s.npy("w.npy", util::NpyType::kInt8, {2, 1, 1, 1}, {2, -1});
  s.npy("b.npy", util::NpyType::kInt32, {2}, {1, 1});
  const auto r = s.read(
      "input: {height: 2, width: 2, channels: 1, zero_point: 3}\n"
      "layers:\n"
      "  - {name: c, op: conv, kernel: 1, channels: 2, weights: w.npy, bias: b.npy,\n"
      "     output: {multiplier: 1073741824, shift: 0, zero_point: -1}}\n"
      "  - {name: p, op: max_pool, kernel: 2}\n"
      "  - {name: r, op: activation, clamp: [-1, 2]}\n");
  for (const auto& d : r.diagnostics) FAIL(d.format());
  REQUIRE(r.file);
  golden::reference::Tensor x;
  x.h = x.w = 2;
  x.data = {3, 4, 8, -6};  // less the zero point: 0, 1, 5, -9
  const auto t = golden::reference::run_network(r.file->network, x);
  // filter 0: (2 d + 1) / 2 -> 0.5 -> 1, 1.5 -> 2, 5.5 -> 6, -8.5 -> -8 (gemmlowp's doubling
  // high multiply: the nudge 1 - 2^30 and a truncating division take a negative half toward
  // zero); then the zero point -1.
  // filter 1: (-d + 1) / 2 -> 0.5 -> 1, 0, -2, 5; then -1.
  CHECK(t[1].data == std::vector<int8_t>{0, 0, 1, -1, 5, -3, -9, 4});
  CHECK(t[2].data == std::vector<int8_t>{5, 4});  // 2x2 max pool, stride 2 by default
  CHECK(t[3].data == std::vector<int8_t>{2, 2});  // clamp to [-1, 2]
  CHECK(r.file->network.layers[1].window.stride_y == 2);
}

TEST_CASE("a lut layer: a function's table as ONNX Runtime quantizes it, or a table given",
          "[network]") {
  Scratch s;
  std::vector<int64_t> table(256);
  for (int i = 0; i < 256; ++i) table[static_cast<size_t>(i)] = 127 - i;  // y = -1 - x
  s.npy("t.npy", util::NpyType::kInt8, {256}, table);
  const auto r = s.read(
      "input: {height: 1, width: 4, channels: 1, zero_point: 2}\n"
      "layers:\n"
      "  - {name: h, op: lut, function: hard_sigmoid, alpha: 0.25, beta: 0.5,\n"
      "     input_scale: 0.5, output_scale: 0.125, output_zero_point: -4}\n"
      "  - {name: t, op: lut, function: table, table: t.npy, clamp: [-6, 100]}\n"
      "  - {name: l, op: lut, function: leaky_relu, input_scale: 1, output_scale: 0.5,\n"
      "     inputs: [input]}\n");
  for (const auto& d : r.diagnostics) FAIL(d.format());
  REQUIRE(r.file);
  const auto& layers = r.file->network.layers;
  CHECK(layers[0].op == golden::net::Op::kLut);
  CHECK(layers[0].zero_point == -4);
  CHECK(layers[1].zero_point == -4);  // a table keeps its input's zero point
  golden::reference::Tensor x;
  x.w = 4;
  x.data = {2, 4, -6, 9};  // less the zero point, times 0.5: 0, 1, -4, 3.5
  const auto t = golden::reference::run_network(r.file->network, x);
  // hard_sigmoid 0.25 x + 0.5 clipped to [0, 1]: 0.5, 0.75, 0, 1; / 0.125: 4, 6, 0, 8; -4.
  CHECK(t[1].data == std::vector<int8_t>{0, 2, -4, 4});
  // The table -1 - x: -1, -3, 3, -5; clamped to [-6, 100].
  CHECK(t[2].data == std::vector<int8_t>{-1, -3, 3, -5});
  // leaky_relu (alpha 0.01) of 0, 2, -8, 7 (scale 1): 0, 2, -0.08, 7; / 0.5: 0, 4, -0.16, 14
  // (rounded half to even: -0.16 -> 0); the output zero point is the input's, 2.
  CHECK(t[3].data == std::vector<int8_t>{2, 6, 2, 16});
}

TEST_CASE("a network of several outputs names them, by default the last layer", "[network]") {
  Scratch s;
  const std::string layers =
      "input: {height: 4, width: 4, channels: 2}\n"
      "layers:\n"
      "  - {name: p, op: max_pool, kernel: 2}\n"
      "  - {name: a, op: activation, clamp: [0, 5]}\n"
      "  - {name: q, op: avg_pool, kernel: 2, inputs: [p]}\n";
  const auto one = s.read(layers);
  REQUIRE(one.file);
  const auto d = golden::net::network_outputs(one.file->network);
  REQUIRE(d.size() == 1);
  CHECK(d[0].tensor == 3);
  CHECK(d[0].name == "q");
  const auto two = s.read(layers + "outputs: [a, q]\n");
  for (const auto& e : two.diagnostics) FAIL(e.format());
  REQUIRE(two.file);
  const auto o = golden::net::network_outputs(two.file->network);
  REQUIRE(o.size() == 2);
  CHECK(o[0].tensor == 2);
  CHECK(o[0].name == "a");
  CHECK(o[1].tensor == 3);
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"outputs: [a, b]\n", "n.yaml:6:14: error: outputs: b is not a layer of the network"},
           {"outputs: [a, a]\n", "n.yaml:6:14: error: outputs: layer a is named twice"},
           {"outputs: [input]\n", "input is not a layer of the network"}}) {
    INFO(text);
    const auto r = s.read(layers + text);
    CHECK(!r.file);
    CHECK_THAT(first_error(r), Catch::Contains(expected));
  }
}

TEST_CASE("a concat layer: its inputs' channels one after the other", "[network]") {
  Scratch s;
  const auto r = s.read(
      "input: {height: 1, width: 2, channels: 2, zero_point: 1}\n"
      "layers:\n"
      "  - {name: a, op: activation, clamp: [0, 3]}\n"
      "  - {name: c, op: concat, inputs: [input, a, input], clamp: [-1, 100]}\n");
  for (const auto& d : r.diagnostics) FAIL(d.format());
  REQUIRE(r.file);
  const auto& l = r.file->network.layers[1];
  CHECK(l.op == golden::net::Op::kConcat);
  CHECK(l.out == golden::net::Shape{1, 2, 6});
  CHECK(l.zero_point == 1);
  golden::reference::Tensor x;
  x.w = 2, x.c = 2;
  x.data = {-5, 2, 7, 3};
  const auto t = golden::reference::run_network(r.file->network, x);
  // Pixel by pixel: the input (clamped to -1), a (relu at the zero point 1, then to 3), the
  // input again.
  CHECK(t[2].data == std::vector<int8_t>{-1, 2, 1, 2, -1, 2, 7, 3, 3, 3, 7, 3});
}

TEST_CASE("a resize layer: nearest, by whole factors", "[network]") {
  Scratch s;
  const auto r = s.read(
      "input: {height: 2, width: 2, channels: 1}\n"
      "layers:\n"
      "  - {name: u, op: resize, factor: [2, 3], clamp: [-100, 50]}\n");
  for (const auto& d : r.diagnostics) FAIL(d.format());
  REQUIRE(r.file);
  const auto& l = r.file->network.layers[0];
  CHECK(l.out == golden::net::Shape{4, 6, 1});
  golden::reference::Tensor x;
  x.h = x.w = 2;
  x.data = {1, 99, -128, 4};
  const auto t = golden::reference::run_network(r.file->network, x);
  CHECK(t[1].data == std::vector<int8_t>{1, 1,  1,    50,   50,   50,   1,    1,
                                         1, 50, 50,   50,   -100, -100, -100, 4,
                                         4, 4,  -100, -100, -100, 4,    4,    4});
}

TEST_CASE("bad network files name the line and the problem", "[network]") {
  Scratch s;
  s.npy("w8.npy", util::NpyType::kInt8, {4, 3, 3, 2}, std::vector<int64_t>(72, 1));
  s.npy("w32.npy", util::NpyType::kInt32, {4, 3, 3, 2}, std::vector<int64_t>(72, 1));
  s.npy("b.npy", util::NpyType::kInt32, {4}, {0, 0, 0, 0});
  s.npy("b5.npy", util::NpyType::kInt32, {5}, {0, 0, 0, 0, 0});
  const std::string head = "input: {height: 6, width: 6, channels: 2}\nlayers:\n";
  const std::string conv = "  - {name: c, op: conv, channels: 4, weights: ";
  const std::string tail = ", bias: b.npy, output: {multiplier: 1073741824, shift: -3}}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {head + conv + "w32.npy" + tail,
       "n.yaml:3:47: error: layers[0].weights: w32.npy: expected "
       "int8 [4][3][3][2], got <i4 [4][3][3][2]"},
      {head + "  - {name: c, op: conv, kernel: 5, channels: 4, weights: w8.npy" + tail,
       "expected int8 [4][5][5][2], got |i1 [4][3][3][2]"},
      {head + conv + "missing.npy" + tail, "layers[0].weights: missing.npy: "},
      {head + conv + "w8.npy, bias: b5.npy}\n", "b5.npy: expected int32 [4], got <i4 [5]"},
      {head + conv + "w8.npy, bias: b.npy}\n", "layers[0].output: required key is missing"},
      {head +
           "  - {name: c, op: conv, channels: 4}\n  - {name: d, op: conv, channels: 4, "
           "inputs: [input], weights: w8.npy" +
           tail,
       "layer c has no weights, but other layers have theirs"},
      {head + "  - {name: p, op: max_pool, kernel: 2}\n  - {name: a, op: add, inputs: [p, "
              "input]}\n",
       "n.yaml:4:12: error: layers[1].inputs: layer a adds a 3x3x2 tensor to a 6x6x2 one"},
      {head + "  - {name: p, op: max_pool, kernel: 7}\n",
       "layer p: a 7x7 kernel does not fit a 6x6 input"},
      {head + "  - {name: p, op: max_pool, kernel: 2, padding: [1, 1, 0]}\n",
       "expected same, valid or [top, bottom, left, right], got a list"},
      {head + "  - {name: p, op: activation, clamp: [5, 2]}\n",
       "the clamp's low bound 5 is above its high bound 2"},
      {head + "  - {name: p, op: reduce, function: mean}\n", "layers[0].function"},
      {head + "  - {name: a, op: add, inputs: [input, b]}\n",
       "layer a reads b, which is not an earlier layer"},
      {head + "  - {name: f, op: lut, input_scale: 1, output_scale: 1}\n",
       "n.yaml:3:5: error: layers[0].function: layer f: lut needs its function"},
      {head + "  - {name: f, op: lut, function: gelu}\n", "layers[0].function"},
      {head + "  - {name: f, op: lut, function: sigmoid, input_scale: 0.1}\n",
       "layers[0].output_scale: layer f: function sigmoid needs its output_scale"},
      {head + "  - {name: f, op: lut, function: table}\n",
       "layers[0].table: layer f: function table needs its table"},
      {head + "  - {name: f, op: lut, function: table, table: b.npy}\n",
       "b.npy: expected int8 [256], got <i4 [4]"},
      {head + "  - {name: f, op: lut, function: tanh, input_scale: 1, output_scale: 1, "
              "table: b.npy}\n",
       "a table is given with function tanh"},
      {head + "  - {name: f, op: lut, function: tanh, input_scale: 0, output_scale: 1}\n",
       "layers[0].input_scale"},
      {head + "  - {name: c, op: concat}\n", "layer c: concat takes 2 or more input(s)"},
      {head + "  - {name: u, op: resize}\n", "layers[0].factor: required key is missing"},
      {head + "  - {name: u, op: resize, factor: 0}\n", "layers[0].factor"},
      {head + "  - {name: p, op: max_pool, kernel: 2}\n  - {name: c, op: concat, inputs: "
              "[input, p]}\n",
       "layer c concatenates a 6x6 tensor with a 3x3 one"},
      {head + "  - {name: g, op: gain_bias, output: {zero_point: 4}}\n  - {name: c, op: "
              "concat, inputs: [input, g]}\n",
       "layer c: its inputs' zero points differ (0 and 4)"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    const auto r = s.read(text);
    CHECK(!r.file);
    CHECK_THAT(first_error(r), Catch::Contains(expected));
  }
}
