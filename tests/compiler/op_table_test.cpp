// The compiler's operation table (docs/compiler.md): an entry for every operation, and each
// entry's shape rule against the plain reference interpreter, which computes its outputs
// with no code of the compiler's.
#include "npugen/compiler/op_table.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "npugen/golden/network/reference.hpp"

using namespace npugen::golden;
using npugen::compiler::op_info;
using npugen::compiler::Refusal;

namespace {

constexpr net::Op kOps[] = {net::Op::kConv,      net::Op::kFc,        net::Op::kMaxPool,
                            net::Op::kAvgPool,   net::Op::kAdd,       net::Op::kGainBias,
                            net::Op::kReduceSum, net::Op::kReduceMax, net::Op::kActivation};

int draw(std::mt19937_64& rng, int lo, int hi) {
  return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

// A layer of `op` over an input of `in` with random geometry (its window within the input).
net::Layer random_layer(net::Op op, const net::Shape& in, std::mt19937_64& rng) {
  net::Layer l;
  l.name = "x";
  l.op = op;
  l.inputs = {0};
  if (op == net::Op::kAdd) l.inputs = {0, 0};
  const int kh = draw(rng, 1, std::min(in.h, 3)), kw = draw(rng, 1, std::min(in.w, 3));
  const int sy = draw(rng, 1, 2), sx = draw(rng, 1, 2);
  const int pt = draw(rng, 0, kh - 1), pb = draw(rng, 0, kh - 1);
  const int pl = draw(rng, 0, kw - 1), pr = draw(rng, 0, kw - 1);
  if (op == net::Op::kConv || op == net::Op::kFc) {
    reference::ConvLayer& c = l.conv;
    c.filters = draw(rng, 1, 5);
    if (op == net::Op::kConv) {
      c.kernel_h = kh, c.kernel_w = kw, c.stride_y = sy, c.stride_x = sx;
      c.pad_top = pt, c.pad_bottom = pb, c.pad_left = pl, c.pad_right = pr;
      c.weights.assign(static_cast<size_t>(c.filters * kh * kw * in.c), 1);
    } else {
      c.weights.assign(static_cast<size_t>(c.filters) * in.elements(), 1);
    }
    c.bias.assign(static_cast<size_t>(c.filters), 0);
    c.output.assign(static_cast<size_t>(c.filters), Requant{});
  }
  l.window = {kh, kw, sy, sx, pt, pb, pl, pr};
  l.gain.bias.assign(static_cast<size_t>(in.c), 0);
  l.gain.output.assign(static_cast<size_t>(in.c), Requant{});
  l.axis = rng() % 2 == 0 ? reference::ReduceAxis::kSpatial : reference::ReduceAxis::kChannels;
  l.reduce_output.assign(l.axis == reference::ReduceAxis::kSpatial ? static_cast<size_t>(in.c) : 1,
                         Requant{});
  return l;
}

}  // namespace

TEST_CASE("the operation table has an entry for every operation", "[compiler]") {
  for (const net::Op op : kOps) {
    CAPTURE(net::op_name(op));
    const auto& info = op_info(op);
    CHECK(info.op == op);
    CHECK(info.neural == net::is_neural(op));
    CHECK(info.shape != nullptr);
    CHECK(info.macs != nullptr);
    CHECK((info.neural || info.planar_fields != nullptr));
  }
  CHECK_THROWS_AS(op_info(static_cast<net::Op>(200)), std::logic_error);
}

TEST_CASE("each operation's shape rule gives the reference interpreter's output shape",
          "[compiler]") {
  std::mt19937_64 rng(11);
  for (const net::Op op : kOps) {
    for (int i = 0; i < 40; ++i) {
      const net::Shape in{draw(rng, 1, 7), draw(rng, 1, 7), draw(rng, 1, 6)};
      net::Layer l = random_layer(op, in, rng);
      const std::vector<net::Shape> shapes(l.inputs.size(), in);
      const net::Shape rule = op_info(op).shape(l, shapes);
      l.out = rule;
      net::Network n;
      n.input = in;
      n.has_arithmetic = true;
      n.layers.push_back(l);
      reference::Tensor x;
      x.n = 2, x.h = in.h, x.w = in.w, x.c = in.c;
      x.data.assign(2 * in.elements(), 3);
      const auto out = reference::run_network(n, x).back();
      CAPTURE(net::op_name(op), in.h, in.w, in.c);
      CHECK(out.n == 2);
      CHECK(net::Shape{out.h, out.w, out.c} == rule);
    }
  }
}

TEST_CASE("a shape rule refuses what has no output", "[compiler]") {
  net::Layer l;
  l.op = net::Op::kMaxPool;
  l.window = {5, 5, 1, 1, 0, 0, 0, 0};
  const std::vector<net::Shape> in{{3, 8, 4}};
  CHECK_THROWS_AS(op_info(l.op).shape(l, in), Refusal);
  l.op = net::Op::kAdd;
  const std::vector<net::Shape> two{{3, 8, 4}, {3, 8, 5}};
  CHECK_THROWS_WITH(op_info(l.op).shape(l, two), "it adds a 3x8x5 tensor to a 3x8x4 one");
}
