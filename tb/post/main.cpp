// Co-simulation of a generated post unit: the verilated RTL and the golden model
// run the same seeded stimulus; every output is compared every cycle from the first cycle
// of reset (in_ready_o, out_valid_o, the APB port, and the results and their
// count while out_valid_o is high), and every result taken is checked against the plain
// reference's requantization (golden::reference::requantize), which shares no code with
// the model, using the bench's own copy of the parameter table.
//
// The stimulus fills the parameter table, then mixes beats of accumulators (small, wide,
// the int32 extremes) with output ranges that change now and then (zero points, ReLU
// clamps, narrow ranges), table rewrites, register reads and back-pressure. --mode
// throughput streams beats with the output always ready and fails on any bubble once
// streaming.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "common/apb_port.hpp"
#include "common/cosim.hpp"
#include "common/port_bits.hpp"
#include "npugen/golden/post/model.hpp"
#include "npugen/golden/post/reference.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::get_bits;
using npugen::tb::set_bits;

constexpr const PostParams& kP = npugen::design::kPost;
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

class PostBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the post unit of design {} (RTL against the golden model, and every "
        "result against the plain reference's requantization)",
        npugen::design::kName);
    s.modes = {"check", "throughput"};
    s.modes_help =
        "check: random beats, output ranges, table rewrites and back-pressure; throughput: a "
        "continuous stream, failing on a bubble";
    return s;
  }

  explicit PostBench(const BenchOptions& o)
      : throughput_(o.mode == "throughput"),
        cycles_(o.cycles),
        rng_(o.seed),
        ready_threshold_(npugen::tb::probability_threshold(npugen::design::kReadyProbability)),
        valid_threshold_(npugen::tb::probability_threshold(o.valid_probability)),
        golden_(kP),
        apb_(golden_.register_map().addr_bits()),
        table_(static_cast<size_t>(kP.groups()) * kP.lanes),
        garbage_(~o.seed * 0x9e3779b97f4a7c15ULL),
        // The table is filled a group a cycle before the first beat: a table larger than
        // a quarter of the budget is filled (and used) only up to that, so that the run
        // reaches the results it checks.
        used_groups_(static_cast<unsigned>(
            std::clamp<uint64_t>(o.cycles / 4, 1, static_cast<uint64_t>(kP.groups())))) {
    in_.acc.assign(kP.lanes, 0);
    in_.param.assign(kP.lanes, PostChannel{});
  }

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    in_.in_valid = junk() & 1U;
    in_.out_ready = junk() & 1U;
    in_.param_we = junk() & 1U;
    in_.group = static_cast<unsigned>(junk() % kP.groups());
    in_.param_group = static_cast<unsigned>(junk() % kP.groups());
    in_.count = 1 + static_cast<unsigned>(junk() % kP.lanes);
    in_.output = draw_range(junk);
    for (auto& a : in_.acc) a = static_cast<int32_t>(junk());
    const uint64_t r = junk();
    in_.apb = npugen::tb::arbitrary_request(
        r, static_cast<uint32_t>(r >> 8) & ((1U << golden_.register_map().addr_bits()) - 1));
    drive(dut, in_);
    // Reset writes nothing into the table in the model; the RTL's table has no reset and
    // ignores we_i only if it is low: keep it low in reset.
    in_.param_we = false;
    dut.param_we_i = 0;
  }
  void check_reset(const Vdut& dut, Checker& check) { compare(dut, golden_.outputs(in_), check); }

  bool drive(Vdut& dut, uint64_t cycle) {
    if (cycle >= cycles_) return false;
    plan(cycle);
    drive(dut, in_);
    want_ = golden_.outputs(in_);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    compare(dut, want_, check);
    if (throughput_ && filled_) {
      if (dut.out_valid_o) streaming_ = true;
      if (streaming_ && (!dut.out_valid_o || !dut.in_ready_o)) {
        check.fail("a bubble in a continuous stream");
      }
      if (streaming_) ++stream_cycles_;
    }
    accepted_ = in_.in_valid && want_.in_ready;
    if (accepted_) expect_beat();
    if (want_.out_valid && in_.out_ready) against_reference(dut, check);
  }

  void tick() {
    if (in_.param_we) {
      for (unsigned l = 0; l < kP.lanes; ++l) {
        table_[static_cast<size_t>(in_.param_group) * kP.lanes + l] = in_.param[l];
      }
      ++param_writes_;
    }
    golden_.tick(in_);
    apb_.advance(want_.apb);
  }

  void finish(Checker& /*check*/, npugen::tb::RunSummary& s) {
    s.count("beats in", beats_in_);
    s.compared("results checked", results_);
    s.count("partial beats", partial_);
    s.count("clamped at ACT_MIN", clamped_low_);
    s.count("clamped at ACT_MAX", clamped_high_);
    s.count("saturated doubling products", saturated_);
    s.count("table group writes", param_writes_);
    s.count("output range changes", ranges_);
    s.count("register writes", apb_.writes());
    s.count("register reads", apb_.reads());
    s.count("transfers answered PSLVERR", apb_.errors());
    s.goal("results checked", results_);
    if (used_groups_ < kP.groups()) {
      s.limits.push_back(fmt::format(
          "sim.cycles ({}) fills {} of the table's {} groups before the first beat: the beats "
          "use those",
          cycles_, used_groups_, kP.groups()));
    }
    if (results_ == 0) {
      s.vacuous_reasons.push_back(
          fmt::format("{} beats entered, {} table groups filled before the first beat", beats_in_,
                      used_groups_));
    }
    if (throughput_) {
      s.lines.push_back(
          fmt::format("throughput: {} beats of {} in {} streaming cycles: {:.3f} results per cycle",
                      beats_in_, kP.lanes, stream_cycles_,
                      stream_cycles_ == 0
                          ? 0.0
                          : static_cast<double>(results_) / static_cast<double>(stream_cycles_)));
    } else {
      s.goal("clamped at ACT_MIN", clamped_low_);
      s.goal("clamped at ACT_MAX", clamped_high_);
      s.goal("saturated doubling products", saturated_);
      s.goal("output range changes", ranges_);
      s.goal("register reads", apb_.reads());
      s.goal("transfers answered PSLVERR", apb_.errors());
      s.goal("partial beats", partial_, kP.lanes > 1);
      if (kP.lanes == 1) s.limits.push_back("post.lanes is 1: every beat is whole");
    }
  }

  [[nodiscard]] std::vector<std::string> diagnose() const {
    return {fmt::format("beats in: {}; results checked: {}", beats_in_, results_)};
  }
  [[nodiscard]] std::string repro_args() const { return throughput_ ? " --mode throughput" : ""; }

 private:
  struct Expected {
    std::vector<int32_t> values;
    unsigned count = 0;
  };

  static void drive(Vdut& dut, const PostInputs& in) {
    npugen::tb::drive_apb(dut, in.apb);
    dut.in_valid_i = in.in_valid;
    dut.out_ready_i = in.out_ready;
    dut.in_group_i = in.group;
    dut.in_count_i = in.count;
    dut.in_zero_point_i = static_cast<uint8_t>(in.output.zero_point);
    dut.in_act_min_i = static_cast<uint8_t>(in.output.act_min);
    dut.in_act_max_i = static_cast<uint8_t>(in.output.act_max);
    dut.param_we_i = in.param_we;
    dut.param_group_i = in.param_group;
    for (unsigned l = 0; l < kP.lanes; ++l) {
      set_bits(dut.in_acc_i, l * 32, 32, static_cast<uint32_t>(in.acc[l]));
      set_bits(dut.param_bias_i, l * 32, 32, static_cast<uint32_t>(in.param[l].bias));
      set_bits(dut.param_multiplier_i, l * 32, 32, static_cast<uint32_t>(in.param[l].multiplier));
      set_bits(dut.param_shift_i, l * PostParams::kShiftBits, PostParams::kShiftBits,
               static_cast<uint32_t>(in.param[l].shift) & ((1U << PostParams::kShiftBits) - 1));
    }
  }

  static void compare(const Vdut& dut, const PostOutputs& want, Checker& check) {
    check.compare("in_ready_o", want.in_ready, dut.in_ready_o);
    check.compare("out_valid_o", want.out_valid, dut.out_valid_o);
    npugen::tb::compare_apb(dut, want.apb, check);
    if (!want.out_valid) return;
    check.compare("out_count_o", want.out_count, dut.out_count_o);
    for (unsigned l = 0; l < want.out_count; ++l) {
      const auto got = static_cast<int8_t>(get_bits(dut.out_data_o, l * 8, 8));
      if (got != want.out[l]) {
        check.fail(fmt::format("out_data_o lane {}: expected {}, got {}", l, want.out[l], got));
      }
    }
  }

  // An output zero point and clamp: the whole range, ReLU, or a narrow range.
  static PostOutputRange draw_range(std::mt19937_64& rng) {
    PostOutputRange r;
    r.zero_point = static_cast<int>(rng() % 256) - 128;
    int lo = rng() % 2 ? r.zero_point : -128, hi = rng() % 3 ? 127 : static_cast<int>(rng() % 128);
    if (lo > hi) std::swap(lo, hi);
    r.act_min = lo, r.act_max = hi;
    return r;
  }

  int32_t draw_acc() {
    switch (rng_() % 8) {
      case 0:
        return static_cast<int32_t>(rng_());
      case 1: {
        static const int32_t kEdges[] = {kMin, kMax, 0, -1, 1, kMin + 1, kMax - 1};
        return kEdges[rng_() % 7];
      }
      case 2:
        return static_cast<int32_t>(rng_() % (1U << 24)) - (1 << 23);
      default:
        return static_cast<int32_t>(rng_() % 8193) - 4096;
    }
  }

  PostChannel draw_channel() {
    PostChannel c;
    c.bias =
        rng_() % 4 == 0 ? static_cast<int32_t>(rng_()) : static_cast<int32_t>(rng_() % 2001) - 1000;
    switch (rng_() % 10) {
      case 0: {
        static const int32_t kEdges[] = {kMin, kMax, 0, 1 << 30, -1};
        c.multiplier = kEdges[rng_() % 5];
        break;
      }
      case 1:
        c.multiplier = static_cast<int32_t>(rng_());
        break;
      default:  // QuantizeMultiplier's range
        c.multiplier =
            static_cast<int32_t>((int64_t{1} << 30) + static_cast<int64_t>(rng_() % (1U << 30)));
    }
    c.shift = rng_() % 4 == 0 ? static_cast<int>(rng_() % 62) - 31
                              : static_cast<int>(rng_() % 14) - 12;  // typical: -12 to 1
    return c;
  }

  // Arbitrary write fields while the table is not written: a table that writes them
  // anyway differs from the model.
  void garbage_write_fields() {
    in_.param_group = static_cast<unsigned>(garbage_() % kP.groups());
    for (auto& p : in_.param) {
      const uint64_t r = garbage_();
      p.bias = static_cast<int32_t>(r);
      p.multiplier = static_cast<int32_t>(r >> 32);
      p.shift = static_cast<int>(garbage_() % 63) - 31;
    }
  }

  void plan(uint64_t cycle) {
    in_.param_we = false;
    // Fill the table first, a group a cycle.
    if (fill_group_ < used_groups_) {
      in_.param_we = true;
      in_.param_group = fill_group_++;
      for (auto& p : in_.param) p = draw_channel();
      in_.in_valid = false;
      in_.out_ready = true;
      in_.apb = apb_.plan(rng_);
      return;
    }
    filled_ = true;
    if (!throughput_ && rng_() % 64 == 0) {
      in_.param_we = true;
      in_.param_group = static_cast<unsigned>(rng_() % used_groups_);
      for (auto& p : in_.param) p = draw_channel();
      // Now and then lane 0 can saturate the doubling product (M = -2^31, no left shift).
      if (rng_() % 4 == 0) in_.param[0].multiplier = kMin, in_.param[0].shift = 0;
    }
    if (!throughput_ && !apb_.busy() && rng_() % 24 == 0) plan_registers();
    if (!throughput_ && rng_() % 24 == 0) {
      range_ = draw_range(rng_);
      ++ranges_;
    }
    in_.output = range_;
    in_.apb = apb_.plan(rng_);
    in_.in_valid = throughput_ || rng_() <= valid_threshold_;
    in_.out_ready = throughput_ || rng_() <= ready_threshold_;
    if (!in_.param_we) garbage_write_fields();
    in_.group = static_cast<unsigned>(rng_() % used_groups_);
    in_.count =
        !throughput_ && rng_() % 4 == 0 ? 1 + static_cast<unsigned>(rng_() % kP.lanes) : kP.lanes;
    for (auto& a : in_.acc) a = draw_acc();
    // Now and then a beat that saturates the doubling product: acc + bias = -2^31 with a
    // multiplier of -2^31 and no left shift.
    if (rng_() % 50 == 0) {
      for (unsigned g = 0; g < used_groups_; ++g) {
        const PostChannel& c = table_[static_cast<size_t>(g) * kP.lanes];
        if (c.multiplier != kMin || c.shift > 0) continue;
        in_.group = g;
        in_.acc[0] =
            static_cast<int32_t>(static_cast<uint32_t>(kMin) - static_cast<uint32_t>(c.bias));
        break;
      }
    }
    (void)cycle;
  }

  void plan_registers() {
    // INFO, and addresses with no register (PSLVERR): the map has one register, so the
    // port's address is 2 bits wide and only offsets inside it name none.
    static const uint32_t kReads[] = {post_csr::kInfo, 0x1, 0x2, 0x3};
    apb_.push({false, kReads[rng_() % 4], 0});
  }

  // The reference's results of the beat taken now, from the bench's table copy and the
  // beat's output range.
  void expect_beat() {
    Expected e;
    e.count = in_.count;
    const PostOutputRange& out = in_.output;
    for (unsigned l = 0; l < kP.lanes; ++l) {
      const PostChannel& c = table_[static_cast<size_t>(in_.group) * kP.lanes + l];
      Requant r;
      r.zero_point = out.zero_point, r.act_min = out.act_min, r.act_max = out.act_max;
      r.multiplier = c.multiplier;
      r.shift = c.shift;
      const int64_t acc = int64_t{in_.acc[l]} + c.bias;
      e.values.push_back(reference::requantize(acc, r));
      if (l < in_.count) {
        // The doubling product saturates: (acc + bias) x 2^left = -2^31 and M = -2^31.
        const auto shifted =
            static_cast<int32_t>(static_cast<uint32_t>(acc) << (c.shift > 0 ? c.shift : 0));
        saturated_ += shifted == kMin && c.multiplier == kMin;
        clamped_low_ += e.values.back() == out.act_min && out.act_min > -128;
        clamped_high_ += e.values.back() == out.act_max && out.act_max < 127;
      }
    }
    expected_.push_back(std::move(e));
    ++beats_in_;
    partial_ += in_.count < kP.lanes;
  }

  void against_reference(const Vdut& dut, Checker& check) {
    if (expected_.empty()) {
      check.fail("results left that the reference never saw enter");
      return;
    }
    const Expected& e = expected_.front();
    for (unsigned l = 0; l < e.count; ++l) {
      const auto got = static_cast<int8_t>(get_bits(dut.out_data_o, l * 8, 8));
      if (got != e.values[l]) {
        check.fail(
            fmt::format("RTL vs reference requantization, beat {} lane {}: reference {}, "
                        "RTL {}",
                        results_beats_, l, e.values[l], got));
      }
      ++results_;
    }
    expected_.pop_front();
    ++results_beats_;
  }

  bool throughput_;
  uint64_t cycles_;
  std::mt19937_64 rng_;
  uint64_t ready_threshold_;
  uint64_t valid_threshold_;
  PostModel golden_;
  npugen::tb::ApbMaster apb_;
  std::vector<PostChannel> table_;
  std::mt19937_64 garbage_;  ///< the write fields while the table is not written
  unsigned used_groups_;     ///< the table's groups filled and used
  PostInputs in_;
  PostOutputs want_;
  std::deque<Expected> expected_;
  unsigned fill_group_ = 0;
  bool filled_ = false;
  bool accepted_ = false;
  bool streaming_ = false;
  uint64_t stream_cycles_ = 0;
  uint64_t beats_in_ = 0, results_ = 0, results_beats_ = 0, partial_ = 0;
  uint64_t clamped_low_ = 0, clamped_high_ = 0, saturated_ = 0, param_writes_ = 0, ranges_ = 0;
  PostOutputRange range_;
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<PostBench>(argc, argv); }
