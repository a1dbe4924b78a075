// The planar engine's golden cycle model (issue 14), without the RTL: run at its ports
// against a memory, its output tensors equal the plain reference's on random tasks of every
// operation; its rasterizer issues exactly planar_beats() beats and, with no back-pressure,
// finishes in planar_cycles(); the register map is consistent, a task survives its register
// writes, and each refusal rule refuses.
#include "npugen/golden/planar/model.hpp"

#include <catch2/catch.hpp>
#include <deque>
#include <random>

#include "npugen/golden/planar/reference.hpp"
#include "npugen/golden/planar/task_reference.hpp"

using namespace npugen::golden;

namespace {

PlanarParams params(unsigned lanes, unsigned words, unsigned window, unsigned stages = 0) {
  PlanarParams p;
  p.lanes = lanes, p.words = words, p.max_window = window, p.pipeline_stages = stages;
  p.max_stride = 3, p.max_pad = window - 1, p.max_height = 9, p.max_width = 9;
  p.max_channels = 20, p.max_batch = 2, p.act_words = 1U << 15;
  return p;
}

// A memory of words of L lanes serving the model's ports: reads answered `latency` cycles
// after their request, requests and writes taken with probability `ready` percent.
class Harness {
 public:
  Harness(const PlanarParams& p, uint64_t seed) : p_(p), model_(p), rng_(seed) {
    mem_.resize(size_t{1} << p.act_addr_bits());
    for (auto& w : mem_) {
      w.resize(p.lanes);
      for (auto& v : w) v = static_cast<int8_t>(rng_());
    }
  }

  int8_t& at(uint64_t word, unsigned lane) { return mem_[word % mem_.size()][lane]; }

  // Writes the task's registers (groups 0, 1, 0, ... in turn, as the hardware takes them)
  // and runs it to the end; returns the cycles from the enabling write's edge to the last
  // output word's.
  uint64_t run(const PlanarTask& t, const std::vector<PlanarGain>& gains, unsigned latency,
               unsigned ready) {
    const unsigned v = p_.beat_lanes();
    // The rows of the task's channels (gain_bias), or the LUT's (lut).
    const unsigned rows = t.op == PlanarOp::kLut ? p_.lut_rows() : (t.channels + v - 1) / v;
    for (unsigned row = 0; row < rows; ++row) {
      PlanarInputs in = idle();
      in.param_we = true, in.param_row = row;
      in.param.assign(gains.begin() + row * v, gains.begin() + row * v + v);
      model_.tick(in);
    }
    for (const auto& w : planar_csr::task_writes(t)) {
      for (const bool access : {false, true}) {
        PlanarInputs in = idle();
        in.apb = ApbRequest{true, access, true,
                            planar_csr::kGroupOffset + group_ * planar_csr::kGroupStride + w.offset,
                            w.value};
        model_.tick(in);
      }
    }
    REQUIRE(model_.enabled(group_));
    uint64_t cycles = 0;
    std::deque<std::pair<uint64_t, std::vector<int8_t>>> a, b;
    for (uint64_t now = 0; model_.enabled(group_); ++now) {
      REQUIRE(now < 100000);
      PlanarInputs in = idle();
      in.a_req_ready = rng_() % 100 < ready;
      in.b_req_ready = rng_() % 100 < ready;
      in.w_ready = rng_() % 100 < ready;
      for (auto* q : {&a, &b}) {
        const bool due = !q->empty() && q->front().first == now;
        (q == &a ? in.a_rsp_valid : in.b_rsp_valid) = due;
        if (due) (q == &a ? in.a_rsp_data : in.b_rsp_data) = q->front().second, q->pop_front();
      }
      const PlanarOutputs out = model_.outputs(in);
      auto request = [&](auto& q, uint64_t addr) {
        std::vector<int8_t> data(v);
        for (unsigned l = 0; l < v; ++l) data[l] = at(addr + l / p_.lanes, l % p_.lanes);
        q.emplace_back(now + latency, std::move(data));
      };
      if (out.a_req_valid && in.a_req_ready) request(a, out.a_req_addr);
      if (out.b_req_valid && in.b_req_ready) request(b, out.b_req_addr);
      if (out.w_valid && in.w_ready) {
        for (unsigned j = 0; j < p_.words; ++j) {
          if (((out.w_mask >> j) & 1U) == 0) continue;
          for (unsigned l = 0; l < p_.lanes; ++l)
            at(out.w_addr + j, l) = out.w_data[j * p_.lanes + l];
        }
      }
      model_.tick(in);
      cycles = now + 1;
    }
    group_ ^= 1U;
    return cycles;
  }

  reference::Tensor read(const PlanarTask& t, uint64_t base, bool output) {
    reference::Tensor x;
    x.n = static_cast<int>(t.batch);
    x.h = static_cast<int>(output ? t.out_height() : t.height);
    x.w = static_cast<int>(output ? t.out_width() : t.width);
    x.c = static_cast<int>(output ? t.out_channels() : t.channels);
    const uint64_t ps = output ? t.out_pixel_stride : t.in_pixel_stride;
    const uint64_t rs = output ? t.out_row_stride : t.in_row_stride;
    const uint64_t is = output ? t.out_image_stride : t.in_image_stride;
    for (int n = 0; n < x.n; ++n) {
      for (int y = 0; y < x.h; ++y) {
        for (int xx = 0; xx < x.w; ++xx) {
          for (int c = 0; c < x.c; ++c) {
            const uint64_t word = base + static_cast<uint64_t>(n) * is +
                                  static_cast<uint64_t>(y) * rs + static_cast<uint64_t>(xx) * ps +
                                  static_cast<uint64_t>(c) / p_.lanes;
            x.data.push_back(at(word, static_cast<unsigned>(c) % p_.lanes));
          }
        }
      }
    }
    return x;
  }

  [[nodiscard]] const PlanarModel& model() const { return model_; }

 private:
  static PlanarInputs idle() { return PlanarInputs{}; }
  PlanarParams p_;
  PlanarModel model_;
  std::mt19937_64 rng_;
  std::vector<std::vector<int8_t>> mem_;
  unsigned group_ = 0;
};

PlanarTask random_task(const PlanarParams& p, std::mt19937_64& rng, PlanarOp op) {
  auto draw = [&](unsigned lo, unsigned hi) {
    return lo + static_cast<unsigned>(rng() % (hi - lo + 1));
  };
  for (;;) {
    PlanarTask t = PlanarTask::dense(p, op, draw(1, p.max_height), draw(1, p.max_width),
                                     draw(1, p.max_channels), draw(1, p.max_batch));
    t.axis = draw(0, 1) ? PlanarAxis::kChannels : PlanarAxis::kSpatial;
    t.kernel_h = draw(1, p.max_window), t.kernel_w = draw(1, p.max_window);
    t.stride_y = draw(1, p.max_stride), t.stride_x = draw(1, p.max_stride);
    t.pad_top = draw(0, t.kernel_h - 1), t.pad_bottom = draw(0, t.kernel_h - 1);
    t.pad_left = draw(0, t.kernel_w - 1), t.pad_right = draw(0, t.kernel_w - 1);
    const PlanarTask dense = PlanarTask::dense(p, op, t.height, t.width, t.channels, t.batch);
    t.in_pixel_stride = dense.in_pixel_stride, t.in_row_stride = dense.in_row_stride;
    t.in_image_stride = dense.in_image_stride;
    t.out_pixel_stride = (t.out_channels() + p.lanes - 1) / p.lanes;
    t.out_row_stride = t.out_pixel_stride * t.out_width();
    t.out_image_stride = t.out_row_stride * t.out_height();
    // A, B and the output one after the other (the output's wraps round the memory).
    t.a_base = 0, t.b_base = t.in_image_stride * t.batch, t.out_base = 2 * t.b_base + 7;
    t.a_zero_point = static_cast<int>(draw(0, 255)) - 128;
    t.b_zero_point = static_cast<int>(draw(0, 255)) - 128;
    t.out_zero_point = static_cast<int>(draw(0, 255)) - 128;
    t.a_multiplier = static_cast<int32_t>((1U << 30) + draw(0, (1U << 30) - 1));
    t.b_multiplier = static_cast<int32_t>((1U << 30) + draw(0, (1U << 30) - 1));
    t.out_multiplier = static_cast<int32_t>((1U << 30) + draw(0, (1U << 30) - 1));
    t.a_shift = static_cast<int>(draw(0, 12)) - 12, t.b_shift = static_cast<int>(draw(0, 12)) - 12;
    t.out_shift = static_cast<int>(draw(0, 13)) - 12;
    if (draw(0, 1)) t.act_min = t.out_zero_point;
    if (planar_refusal(p, t).empty()) return t;
  }
}

}  // namespace

TEST_CASE("the planar golden model's output tensors equal the plain reference's", "[planar]") {
  std::mt19937_64 rng(14);
  unsigned checked = 0;
  // The last two with the output pipeline (planar.pipeline_stages): the same tensors, the
  // cycle model's count with its registers added.
  for (const PlanarParams& p : {params(3, 2, 5), params(8, 1, 3), params(1, 3, 4),
                                params(3, 2, 5, 8), params(8, 1, 3, 1)}) {
    Harness h(p, rng());
    for (int trial = 0; trial < 70; ++trial) {
      const auto op = static_cast<PlanarOp>(trial % kPlanarOpCount);
      const PlanarTask t = random_task(p, rng, op);
      std::vector<PlanarGain> gains(p.param_rows() * p.beat_lanes());
      for (auto& g : gains) {
        g.bias = static_cast<int32_t>(rng() % 2001) - 1000;
        g.multiplier = static_cast<int32_t>((1U << 30) + rng() % (1U << 30));
        g.shift = static_cast<int>(rng() % 14) - 12;
      }
      const reference::Tensor a = h.read(t, t.a_base, false), b = h.read(t, t.b_base, false);
      const std::vector<int8_t> want = planar_reference_output(t, a, b, gains);
      const uint64_t issued = h.model().beats_issued();
      const unsigned ready = trial % 3 == 0 ? 100 : 60;
      const unsigned latency = 1 + static_cast<unsigned>(rng() % (p.read_latency + 1));
      const uint64_t cycles = h.run(t, gains, latency, ready);
      INFO(planar_op_name(op) << " " << t.height << "x" << t.width << "x" << t.channels << " N "
                              << t.batch << " kernel " << t.kernel_h << "x" << t.kernel_w);
      CHECK(h.read(t, t.out_base, true).data == want);
      CHECK(h.model().beats_issued() - issued == planar_beats(p, t));
      // No back-pressure and reads at read_latency: the cycle model's count exactly.
      if (ready == 100 && latency == p.read_latency) CHECK(cycles == planar_cycles(p, t));
      ++checked;
    }
  }
  CHECK(checked == 350);
}

TEST_CASE("the planar register map is consistent and a task survives its register writes",
          "[planar]") {
  std::mt19937_64 rng(7);
  const PlanarParams p = params(3, 2, 5);
  CHECK(planar_csr::register_map(p).problems().empty());
  CHECK(planar_csr::register_map(params(64, 16, 15)).problems().empty());
  for (int trial = 0; trial < 200; ++trial) {
    const PlanarTask t = random_task(p, rng, static_cast<PlanarOp>(trial % kPlanarOpCount));
    std::array<uint32_t, planar_csr::kGroupWords> words{};
    for (const auto& w : planar_csr::task_writes(t)) words[w.offset / 4] = w.value;
    const PlanarTask back = planar_csr::task_of(words.data());
    CHECK(back.op == t.op);
    CHECK(back.height == t.height);
    CHECK(back.channels == t.channels);
    CHECK(back.kernel_w == t.kernel_w);
    CHECK(back.pad_right == t.pad_right);
    CHECK(back.out_image_stride == t.out_image_stride);
    CHECK(back.a_zero_point == t.a_zero_point);
    CHECK(back.act_min == t.act_min);
    CHECK(back.out_multiplier == t.out_multiplier);
    CHECK(back.a_shift == t.a_shift);
    CHECK(back.out_shift == t.out_shift);
  }
}

TEST_CASE("each planar refusal rule refuses", "[planar]") {
  PlanarParams p = params(4, 1, 3);
  p.modes &= ~(planar_op_bit(PlanarOp::kGainBias) | planar_op_bit(PlanarOp::kLut));
  const PlanarTask ok = PlanarTask::dense(p, PlanarOp::kMaxPool, 4, 4, 4, 1);
  REQUIRE(planar_refusal(p, ok).empty());
  auto refused = [&](auto&& change) {
    PlanarTask t = ok;
    change(t);
    return planar_refusal(p, t);
  };
  // MODE.OP's eight values are all operations (7: lut); one not generated is refused.
  CHECK(refused([](PlanarTask& t) { t.op = PlanarOp::kLut; }) == "operation lut is not generated");
  CHECK(refused([](PlanarTask& t) { t.op = PlanarOp::kGainBias; }) ==
        "operation gain_bias is not generated");
  CHECK(refused([](PlanarTask& t) { t.height = 10; }) ==
        "height 10 is outside 1 to 9 (planar.max_height)");
  CHECK(refused([](PlanarTask& t) { t.channels = 0; }) ==
        "channels 0 is outside 1 to 20 (planar.max_channels)");
  CHECK(refused([](PlanarTask& t) { t.stride_x = 0; }) ==
        "horizontal stride 0 is outside 1 to 3 (planar.max_stride)");
  CHECK(refused([](PlanarTask& t) { t.kernel_h = 4; }) ==
        "kernel height 4 is outside 1 to 3 (planar.max_window)");
  CHECK(refused([](PlanarTask& t) { t.kernel_w = 2, t.pad_left = 2; }) ==
        "horizontal padding 2/0 is not below the kernel width 2");
  CHECK(refused([](PlanarTask& t) { t.height = 1, t.kernel_h = 3; }) ==
        "kernel height 3 exceeds the padded input height 1");
  CHECK(refused([](PlanarTask& t) { t.op = PlanarOp::kAdd, t.left_shift = 24; }) ==
        "left shift 24 is above 23");
  CHECK(refused([](PlanarTask& t) { t.op = PlanarOp::kReduceSum, t.out_shift = 31; }) ==
        "output shift 31 is outside -31 to 30");
  CHECK(refused([](PlanarTask& t) { t.act_min = 5, t.act_max = 4; }) ==
        "ACT_MIN 5 is above ACT_MAX 4");
  // The window is not read by operations that do not pool.
  CHECK(refused([](PlanarTask& t) { t.op = PlanarOp::kActivation, t.kernel_h = 0; }).empty());
}
