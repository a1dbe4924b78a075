// Co-simulation of one generated PE array: the verilated RTL (class Vdut) and the
// golden model run the same seeded stimulus; every output is compared every cycle.
//
// Built per design by the design folder's sim/Makefile (npugen sim does that);
// design_params.hpp is generated from the design's configuration.
#include <fmt/format.h>
#include <verilated.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Vdut.h"
#include "common/bench_report.hpp"
#include "common/dut_harness.hpp"
#include "common/port_bits.hpp"
#include "design_params.hpp"
#include "npugen/golden/pe_array/model.hpp"
#include "pe_array/stimulus.hpp"

namespace {

using npugen::golden::PeArrayModel;
using npugen::golden::PeArrayOutputs;
using npugen::golden::PeArrayParams;
using npugen::golden::PeArrayStep;
using npugen::tb::PeArrayStimulus;
using npugen::tb::StimulusOptions;

constexpr const PeArrayParams& kParams = npugen::design::kPeArray;
using npugen::tb::kCyclesAfterMismatch;
using npugen::tb::kTraceWindow;

using Options = npugen::tb::BenchOptions;

struct Mismatch {
  uint64_t cycle;
  std::string signal;
  int tile;  // -1 for acc_valid_o
  uint64_t expected;
  uint64_t got;
  int reset_edge = -1;  // >= 0: seen in reset, after that many edges
};

std::string show(uint64_t raw, unsigned width, bool is_signed) {
  const unsigned digits = (width + 3) / 4;
  if (is_signed && width < 64 && ((raw >> (width - 1)) & 1U) != 0) {
    const int64_t v = static_cast<int64_t>(raw | (~uint64_t{0} << width));
    return fmt::format("0x{:0{}x} ({})", raw, digits, v);
  }
  if (is_signed && width == 64) {
    return fmt::format("0x{:0{}x} ({})", raw, digits, static_cast<int64_t>(raw));
  }
  return fmt::format("0x{:0{}x} ({})", raw, digits, raw);
}

/// Drives one cycle's inputs onto the DUT's ports.
void drive(Vdut& dut, const PeArrayStep& step) {
  dut.step_valid_i = step.valid;
  dut.step_first_i = step.first;
  dut.step_last_i = step.last;
  if (step.valid) {
    npugen::tb::pack_fields(dut.weight_i, step.weights.data(), kParams.tiles * kParams.lanes,
                            kParams.weight_width);
    npugen::tb::pack_fields(dut.act_i, step.acts.data(), kParams.lanes, kParams.act_width);
  }
}

/// Per-lane contribution of tile `tile` to its accumulator at `cycle`: the golden
/// model replayed on the same stimulus with every other lane's weight zeroed.
std::vector<uint64_t> lane_contributions(const Options& o, unsigned tile, uint64_t cycle) {
  std::vector<uint64_t> out(kParams.lanes);
  PeArrayParams one = kParams;
  one.tiles = 1;
  for (unsigned lane = 0; lane < kParams.lanes; ++lane) {
    PeArrayModel model(one);
    PeArrayStimulus stimulus(
        kParams, StimulusOptions{npugen::design::kValidProbability, npugen::design::kMaxDotLength},
        o.seed);
    std::vector<uint32_t> row(kParams.lanes, 0);
    PeArrayOutputs outputs;
    for (uint64_t c = 0; c <= cycle; ++c) {
      PeArrayStep step = stimulus.next();
      if (step.valid) row[lane] = step.weights[size_t{tile} * kParams.lanes + lane];
      step.weights = row;
      outputs = model.tick(step);
    }
    out[lane] = outputs.acc[0];
  }
  return out;
}

void report(const Options& o, const std::vector<Mismatch>& mismatches) {
  const Mismatch& m = mismatches.front();
  const bool is_signed = kParams.acc_signed();
  const std::string when =
      m.reset_edge >= 0
          ? fmt::format("at cycle {} (in reset after {} edge(s))", m.cycle, m.reset_edge)
          : fmt::format("at cycle {}", m.cycle);
  std::string text = fmt::format("MISMATCH {} in design {} (config {}, hash {:.16}), seed {}\n",
                                 when, npugen::design::kName, npugen::design::kConfigFile,
                                 npugen::design::kConfigHash, o.seed);
  if (m.tile < 0) {
    text += fmt::format("  acc_valid_o: expected {}, got {}\n", m.expected, m.got);
  } else {
    text += fmt::format("  {} tile {}: expected {}, got {}\n", m.signal, m.tile,
                        show(m.expected, kParams.acc_width, is_signed),
                        show(m.got, kParams.acc_width, is_signed));
  }
  if (m.tile >= 0 && m.reset_edge < 0) {
    const uint64_t mask =
        kParams.acc_width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << kParams.acc_width) - 1);
    const uint64_t diff = (m.got - m.expected) & mask;
    const auto lanes = lane_contributions(o, static_cast<unsigned>(m.tile), m.cycle);
    std::string suspects;
    for (unsigned l = 0; l < lanes.size(); ++l) {
      if (lanes[l] == 0) continue;
      if (((lanes[l] + diff) & mask) == 0) {
        suspects += fmt::format(
            "  lane {}: got = expected - its contribution (its products "
            "did not reach the accumulator)\n",
            l);
      } else if (lanes[l] == diff) {
        suspects +=
            fmt::format("  lane {}: got = expected + its contribution (counted twice)\n", l);
      }
    }
    text += suspects.empty() ? "  lane: no single lane's contribution explains the difference\n"
                             : suspects;
  }
  for (size_t i = 1; i < mismatches.size(); ++i) {
    const Mismatch& n = mismatches[i];
    text += fmt::format("  then {}: {}{} expected {}, got {}\n",
                        n.reset_edge >= 0 ? fmt::format("in reset after {} edge(s)", n.reset_edge)
                                          : fmt::format("at cycle {}", n.cycle),
                        n.signal, n.tile >= 0 ? fmt::format(" tile {}", n.tile) : std::string(),
                        show(n.expected, kParams.acc_width, is_signed),
                        show(n.got, kParams.acc_width, is_signed));
  }
  const uint64_t from = m.cycle > kTraceWindow ? m.cycle - kTraceWindow : 0;
  text += fmt::format(
      "reproduce with a waveform of cycles {}..{}:\n  {} --seed {} --cycles {} --trace "
      "mismatch.fst --trace-from {}\n",
      from, m.cycle + kCyclesAfterMismatch, o.repro, o.seed, m.cycle + kCyclesAfterMismatch + 1,
      from);
  std::fputs(text.c_str(), stdout);
}

struct RunResult {
  uint64_t cycles = 0;
  uint64_t results = 0;  // dot products that reached acc_o
  double seconds = 0;
  std::vector<Mismatch> mismatches;
};

/// Runs `o.cycles` cycles. check: RTL and golden, compared. rtl: the RTL alone on the
/// same stimulus. golden: the golden model alone (for vectors).
RunResult run(const Options& o, const std::string& mode) {
  const bool use_rtl = mode != "golden";
  const bool use_golden = mode != "rtl";
  auto context = std::make_unique<VerilatedContext>();
  std::unique_ptr<Vdut> dut;
  if (use_rtl) dut = std::make_unique<Vdut>(context.get(), "dut");
  npugen::tb::Waveform waveform(*context, dut.get(), o.trace, o.trace_from);
  auto dump = [&](uint64_t cycle) { waveform.dump(cycle); };
  PeArrayModel golden(kParams);
  PeArrayStimulus stimulus(
      kParams, StimulusOptions{npugen::design::kValidProbability, npugen::design::kMaxDotLength},
      o.seed);
  std::ofstream vectors;
  if (!o.vectors.empty()) {
    vectors.open(o.vectors);
    if (!vectors) throw std::runtime_error("cannot write " + o.vectors);
  }

  RunResult r;
  // Every output against the golden model's, every cycle from the first: in reset with
  // arbitrary inputs on the ports, then after each clock edge.
  auto compare = [&](uint64_t cycle, const PeArrayOutputs& expected, int reset_edge) {
    const bool got_valid = dut->acc_valid_o != 0;
    if (got_valid != expected.acc_valid) {
      r.mismatches.push_back({cycle, "acc_valid_o", -1, uint64_t{expected.acc_valid},
                              uint64_t{got_valid}, reset_edge});
    }
    for (unsigned t = 0; t < kParams.tiles; ++t) {
      const uint64_t got =
          npugen::tb::get_bits(dut->acc_o, t * kParams.acc_width, kParams.acc_width);
      if (got != expected.acc[t]) {
        r.mismatches.push_back(
            {cycle, "acc_o", static_cast<int>(t), expected.acc[t], got, reset_edge});
      }
    }
  };
  if (dut && use_golden) {
    PeArrayStimulus junk(kParams, StimulusOptions{1.0, kParams.tiles + 1}, ~o.seed);
    npugen::tb::reset_dut(
        *dut, [&] { drive(*dut, junk.next()); },
        [&](unsigned edge) { compare(0, golden.outputs(), static_cast<int>(edge)); });
  } else if (dut) {
    npugen::tb::reset_dut(
        *dut, [] {}, [](unsigned) {});
  }

  const auto start = std::chrono::steady_clock::now();
  std::optional<uint64_t> stop_at;
  for (uint64_t cycle = 0; cycle < o.cycles; ++cycle) {
    if (stop_at && cycle > *stop_at) break;
    const PeArrayStep& step = stimulus.next();
    if (dut) {
      drive(*dut, step);
      context->timeInc(1);
      dut->clk_i = 1;
      dut->eval();
      dump(cycle);
    }
    if (use_golden) {
      const PeArrayOutputs expected = golden.tick(step);
      r.results += expected.acc_valid ? 1 : 0;
      if (vectors) {
        vectors << fmt::format("{:x} {:x} {:x}", int{step.valid}, int{step.first}, int{step.last});
        for (uint32_t w : step.weights) vectors << fmt::format(" {:x}", step.valid ? w : 0);
        for (uint32_t a : step.acts) vectors << fmt::format(" {:x}", step.valid ? a : 0);
        vectors << fmt::format(" {:x}", int{expected.acc_valid});
        for (uint64_t v : expected.acc) vectors << fmt::format(" {:x}", v);
        vectors << '\n';
      }
      if (dut) compare(cycle, expected, -1);
      if (!r.mismatches.empty() && !stop_at) stop_at = cycle + kCyclesAfterMismatch;
    }
    if (dut) {
      context->timeInc(1);
      dut->clk_i = 0;
      dut->eval();
      dump(cycle);
    }
    r.cycles = cycle + 1;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (dut) dut->final();
  waveform.close();
  if (r.mismatches.size() > 8) r.mismatches.resize(8);
  return r;
}

int run_checked(const Options& o) {
  if (o.mode == "bench") {
    const RunResult rtl = run(o, "rtl");
    const RunResult checked = run(o, "check");
    std::printf(
        "bench: design %s, %llu cycles: rtl alone %.3f s (%.0f cycles/s), checked %.3f s "
        "(%.0f cycles/s), overhead of checking %.3f\n",
        npugen::design::kName, static_cast<unsigned long long>(rtl.cycles), rtl.seconds,
        static_cast<double>(rtl.cycles) / rtl.seconds, checked.seconds,
        static_cast<double>(checked.cycles) / checked.seconds, checked.seconds / rtl.seconds);
    if (!checked.mismatches.empty()) {
      report(o, checked.mismatches);
      return 1;
    }
    return 0;
  }
  const RunResult r = run(o, o.mode);
  if (!r.mismatches.empty()) {
    report(o, r.mismatches);
    std::printf("FAIL: %llu cycles simulated\n", static_cast<unsigned long long>(r.cycles));
    return 1;
  }
  std::printf(
      "PASS: design %s (hash %.16s), seed %llu, mode %s: %llu cycles, %llu results compared, "
      "%.0f cycles/s\n",
      npugen::design::kName, npugen::design::kConfigHash, static_cast<unsigned long long>(o.seed),
      o.mode.c_str(), static_cast<unsigned long long>(r.cycles),
      static_cast<unsigned long long>(r.results), static_cast<double>(r.cycles) / r.seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.repro = "npugen sim <config> --block pe_array";
  npugen::tb::BenchSpec spec;
  spec.title = fmt::format("Co-simulation of design {} (RTL against the golden model)",
                           npugen::design::kName);
  spec.modes = {"check", "rtl", "golden", "bench"};
  spec.modes_help =
      "check: RTL against golden; rtl: RTL alone; golden: golden alone; bench: rtl then check "
      "on the same stimulus, with their time ratio";
  spec.vectors = true;
  return npugen::tb::bench_main(argc, argv, spec, o, run_checked);
}
