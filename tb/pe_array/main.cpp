// Co-simulation of a generated dense PE array: the verilated RTL and the golden model see
// the same seeded steps (held until taken) and the same back-pressure on the results, and
// every output is compared every cycle. On a wrong accumulator the report names the lanes
// whose contribution explains the difference (the golden model replayed with one lane's
// weights at a time). --vectors writes each cycle's inputs and expected outputs for the
// Icarus replay bench.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "common/cosim.hpp"
#include "common/port_bits.hpp"
#include "npugen/golden/pe_array/model.hpp"
#include "pe_array/stimulus.hpp"

namespace {

using npugen::golden::PeArrayInputs;
using npugen::golden::PeArrayModel;
using npugen::golden::PeArrayOutputs;
using npugen::golden::PeArrayParams;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::PeArrayStimulus;
using npugen::tb::StimulusOptions;

constexpr const PeArrayParams& kParams = npugen::design::kPeArray;

// Dot products at most a quarter of the steps the budget offers long (cycles x
// valid_probability / 4), so that the run reaches the results it checks: at
// sim.valid_probability 0.01, 256 steps take 25,600 cycles.
unsigned dot_length_cap(uint64_t cycles) {
  const double steps = static_cast<double>(cycles) * npugen::design::kValidProbability / 4;
  return static_cast<unsigned>(std::clamp<double>(steps, 1, npugen::design::kMaxDotLength));
}

StimulusOptions stimulus_options(uint64_t cycles) {
  return StimulusOptions{npugen::design::kValidProbability, dot_length_cap(cycles),
                         npugen::design::kReadyProbability};
}

class PeArrayBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the dense PE array of design {} (RTL against the "
        "golden model)",
        npugen::design::kName);
    s.vectors = true;
    return s;
  }

  explicit PeArrayBench(const BenchOptions& o)
      : o_(o), golden_(kParams), stimulus_(kParams, stimulus_options(o.cycles), o.seed) {
    if (!o.vectors.empty()) {
      vectors_.open(o.vectors);
      if (!vectors_) throw std::runtime_error("cannot write " + o.vectors);
    }
  }

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    PeArrayInputs in = stimulus_.inputs();
    in.valid = (junk() & 1U) != 0;
    in.first = (junk() & 1U) != 0;
    in.last = (junk() & 1U) != 0;
    in.acc_ready = (junk() & 1U) != 0;
    reset_in_ = in;
    apply(dut, in);
  }
  void check_reset(const Vdut& dut, Checker& check) {
    compare(dut, golden_.outputs(reset_in_), check);
  }

  bool drive(Vdut& dut, uint64_t cycle) {
    if (cycle >= o_.cycles) return false;
    apply(dut, stimulus_.inputs());
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    const PeArrayInputs& in = stimulus_.inputs();
    const PeArrayOutputs want = golden_.outputs(in);
    compare(dut, want, check);
    if (want.acc_valid && in.acc_ready) ++results_;
    if (in.valid && want.step_ready) ++steps_;
    if (want.acc_valid && !in.acc_ready) ++held_;
    if (vectors_) write_vector(in, want);
  }

  void tick() {
    const PeArrayInputs& in = stimulus_.inputs();
    const bool taken = in.valid && golden_.outputs(in).step_ready;
    golden_.tick(in);
    stimulus_.advance(taken);
  }

  void finish(Checker& check, npugen::tb::RunSummary& s) {
    if (vectors_) {
      vectors_.close();
      if (!vectors_) check.fail("cannot write " + o_.vectors);
    }
    s.count("steps taken", steps_);
    s.compared("results compared", results_);
    s.goal("results compared", results_);
    if (dot_length_cap(o_.cycles) < npugen::design::kMaxDotLength) {
      s.limits.push_back(fmt::format(
          "sim.cycles ({}) x sim.valid_probability ({}) offers {:.0f} steps: dot products are "
          "at most {} steps long, not sim.max_dot_length ({})",
          o_.cycles, npugen::design::kValidProbability,
          static_cast<double>(o_.cycles) * npugen::design::kValidProbability,
          dot_length_cap(o_.cycles), npugen::design::kMaxDotLength));
    }
    if (results_ == 0) {
      s.vacuous_reasons.push_back(fmt::format("{} steps taken, no dot product finished", steps_));
    }
    s.goal("cycles results waited for acc_ready", held_, npugen::design::kReadyProbability < 1.0);
    if (npugen::design::kReadyProbability >= 1.0) {
      s.limits.push_back("sim.ready_probability is 1: the results never wait");
    }
  }

  /// For the first wrong accumulator: the lanes whose contribution explains it.
  [[nodiscard]] std::vector<std::string> diagnose() const {
    if (!first_bad_) return {};
    const auto& [tile, cycle, want, got] = *first_bad_;
    const uint64_t mask =
        kParams.acc_width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << kParams.acc_width) - 1);
    const uint64_t diff = (got - want) & mask;
    const auto lanes = lane_contributions(tile, cycle);
    std::vector<std::string> out;
    for (unsigned l = 0; l < lanes.size(); ++l) {
      if (lanes[l] == 0) continue;
      if (((lanes[l] + diff) & mask) == 0) {
        out.push_back(
            fmt::format("lane {}: got = expected - its contribution (its products did "
                        "not reach the accumulator)",
                        l));
      } else if (lanes[l] == diff) {
        out.push_back(fmt::format("lane {}: got = expected + its contribution (counted twice)", l));
      }
    }
    if (out.empty())
      out.emplace_back("lane: no single lane's contribution explains the difference");
    return out;
  }
  [[nodiscard]] std::string repro_args() const { return ""; }

 private:
  struct BadAcc {
    unsigned tile;
    uint64_t cycle;
    uint64_t want, got;
  };

  static void apply(Vdut& dut, const PeArrayInputs& in) {
    dut.step_valid_i = in.valid;
    dut.step_first_i = in.first;
    dut.step_last_i = in.last;
    npugen::tb::pack_fields(dut.step_weight_i, in.weights.data(), kParams.tiles * kParams.lanes,
                            kParams.weight_width);
    npugen::tb::pack_fields(dut.step_act_i, in.acts.data(), kParams.lanes, kParams.act_width);
    dut.acc_ready_i = in.acc_ready;
  }

  void compare(const Vdut& dut, const PeArrayOutputs& want, Checker& check) {
    check.compare("step_ready_o", want.step_ready, dut.step_ready_o);
    check.compare("acc_valid_o", want.acc_valid, dut.acc_valid_o);
    for (unsigned t = 0; t < kParams.tiles; ++t) {
      const uint64_t got =
          npugen::tb::get_bits(dut.acc_o, t * kParams.acc_width, kParams.acc_width);
      if (got != want.acc[t]) {
        check.fail(
            fmt::format("acc_o tile {}: expected {}, got {}", t, show(want.acc[t]), show(got)));
        if (!first_bad_ && check.mismatches().size() == 1 && check.cycle() > 0) {
          first_bad_ = BadAcc{t, check.cycle(), want.acc[t], got};
        }
      }
    }
  }

  static std::string show(uint64_t raw) {
    const unsigned width = kParams.acc_width;
    const unsigned digits = (width + 3) / 4;
    int64_t v = static_cast<int64_t>(raw);
    if (kParams.acc_signed() && width < 64 && ((raw >> (width - 1)) & 1U) != 0) {
      v = static_cast<int64_t>(raw | (~uint64_t{0} << width));
    }
    return kParams.acc_signed() ? fmt::format("0x{:0{}x} ({})", raw, digits, v)
                                : fmt::format("0x{:0{}x} ({})", raw, digits, raw);
  }

  // Tile `tile`'s accumulator during `cycle` with only lane l's weights kept, for every l:
  // the golden model replayed on the same stimulus (the handshakes do not depend on the
  // values, so every step is taken in the same cycle).
  [[nodiscard]] std::vector<uint64_t> lane_contributions(unsigned tile, uint64_t cycle) const {
    std::vector<uint64_t> out(kParams.lanes);
    PeArrayParams one = kParams;
    one.tiles = 1;
    for (unsigned lane = 0; lane < kParams.lanes; ++lane) {
      PeArrayModel model(one);
      PeArrayStimulus stimulus(kParams, stimulus_options(o_.cycles), o_.seed);
      std::vector<uint32_t> row(kParams.lanes, 0);
      for (uint64_t c = 0;; ++c) {
        PeArrayInputs in = stimulus.inputs();
        row[lane] = in.weights[size_t{tile} * kParams.lanes + lane];
        in.weights = row;
        const PeArrayOutputs now = model.outputs(in);
        if (c == cycle) {
          out[lane] = now.acc[0];
          break;
        }
        model.tick(in);
        stimulus.advance(in.valid && now.step_ready);
      }
    }
    return out;
  }

  // One line per cycle: step_valid first last, the weights and activations, acc_ready;
  // then the expected step_ready, acc_valid and accumulators (hexadecimal).
  void write_vector(const PeArrayInputs& in, const PeArrayOutputs& want) {
    std::string line = fmt::format("{:x} {:x} {:x}", int{in.valid}, int{in.first}, int{in.last});
    for (uint32_t w : in.weights) line += fmt::format(" {:x}", w);
    for (uint32_t a : in.acts) line += fmt::format(" {:x}", a);
    line += fmt::format(" {:x} {:x} {:x}", int{in.acc_ready}, int{want.step_ready},
                        int{want.acc_valid});
    for (uint64_t v : want.acc) line += fmt::format(" {:x}", v);
    vectors_ << line << '\n';
  }

  const BenchOptions& o_;
  PeArrayModel golden_;
  PeArrayStimulus stimulus_;
  PeArrayInputs reset_in_;
  std::ofstream vectors_;
  uint64_t steps_ = 0, results_ = 0, held_ = 0;
  std::optional<BadAcc> first_bad_;
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<PeArrayBench>(argc, argv); }
