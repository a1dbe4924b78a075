// The one co-simulation driver every block's bench runs on. It owns what all benches do
// alike: the command line, the verilated model and its clock (one period of
// design.clock_mhz, the RTL's time unit being 1 ns), reset with every output compared from
// the first cycle, the waveform window, stopping a few cycles after the first mismatch or a
// fired RTL assertion (its message kept from Verilator's output), failing a run that compared
// none of the results its bench checks (VACUOUS), the PASS / MISMATCH report
// with the command that reproduces it, the JSON summary, and the time spent in the
// verilated model (the overhead of checking).
//
// A bench is a class that owns its stimulus and golden model:
//
//   struct MyBench {
//     static BenchSpec spec();                         // title, modes, options
//     explicit MyBench(const BenchOptions& options);
//     void drive_reset(Vdut& dut, std::mt19937_64& junk);  // arbitrary inputs in reset
//     void check_reset(const Vdut& dut, Checker& check);   // outputs of the reset state
//     bool drive(Vdut& dut, uint64_t cycle);  // this cycle's inputs; false: the run is over
//     void check(const Vdut& dut, Checker& check);  // every output, after evaluation
//     void tick();                                  // the golden model's clock edge
//     void finish(Checker& check, RunSummary& summary);  // end-of-run checks, counts,
//                                  // and summary.compared(what, n): the results compared
//                                  // (none: the run is vacuous and fails)
//     std::vector<std::string> diagnose() const;    // lines explaining a mismatch
//     std::string repro_args() const;               // options the reproduce line adds
//   };
//
// and its main() is `return npugen::tb::run_cosim<MyBench>(argc, argv);`.
#pragma once

#include <fmt/format.h>
#include <verilated.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "Vdut.h"
#include "common/bench_options.hpp"
#include "common/output_tap.hpp"
#include "common/summary.hpp"
#include "common/waveform.hpp"
#include "design_params.hpp"

#ifndef NPUGEN_BLOCK
#error "NPUGEN_BLOCK, the block a bench is built for, comes from the design's sim/Makefile"
#endif
#define NPUGEN_STRINGIFY_(x) #x
#define NPUGEN_STRINGIFY(x) NPUGEN_STRINGIFY_(x)

namespace npugen::tb {

/// The block this bench is built for.
inline constexpr const char* kBlock = NPUGEN_STRINGIFY(NPUGEN_BLOCK);
/// Clock edges reset is held for.
inline constexpr unsigned kResetCycles = 2;
/// Cycles simulated after the first mismatch (so the report shows what follows).
inline constexpr uint64_t kCyclesAfterMismatch = 4;
/// Cycles before the first mismatch that the reproduce command traces.
inline constexpr uint64_t kTraceWindow = 64;
/// One cycle in this many is timed, for the share of the time in the verilated model.
inline constexpr uint64_t kTimedEvery = 64;
/// Mismatches kept for the report.
inline constexpr size_t kMismatchesKept = 8;

/// Collects what differs. A bench compares every output each cycle; the driver says which
/// cycle it is (and whether in reset).
class Checker {
 public:
  /// `want` and `got` differ: records "<signal>: expected <want>, got <got>".
  void compare(std::string_view signal, uint64_t want, uint64_t got) {
    if (want != got) fail(fmt::format("{}: expected {}, got {}", signal, want, got));
  }
  void compare(std::string_view signal, const std::string& want, const std::string& got) {
    if (want != got) fail(fmt::format("{}: expected {}, got {}", signal, want, got));
  }
  /// A failed check, in words.
  void fail(const std::string& what) {
    ++count_;
    if (mismatches_.size() < kMismatchesKept) mismatches_.push_back({cycle_, prefix_ + what});
  }
  [[nodiscard]] bool failed() const { return count_ != 0; }
  [[nodiscard]] uint64_t count() const { return count_; }
  [[nodiscard]] uint64_t cycle() const { return cycle_; }
  [[nodiscard]] const std::vector<Mismatch>& mismatches() const { return mismatches_; }

  void at(uint64_t cycle) {
    cycle_ = cycle;
    prefix_.clear();
  }
  void in_reset(unsigned edges) {
    cycle_ = 0;
    prefix_ = fmt::format("in reset after {} edge(s): ", edges);
  }

 private:
  uint64_t cycle_ = 0;
  std::string prefix_;
  uint64_t count_ = 0;
  std::vector<Mismatch> mismatches_;
};

namespace detail {

/// Ticks of a cheap clock (the time-stamp counter where there is one): the driver times
/// every evaluation of the model, so the clock must cost a few nanoseconds, not tens.
inline uint64_t ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_rdtsc();
#else
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// Half periods of the clock in the model's time precision (1 ps: every file says
/// `timescale 1ns / 1ps).
struct ClockPeriod {
  uint64_t high = 1;
  uint64_t low = 1;
  static ClockPeriod of(double mhz) {
    const auto period = static_cast<uint64_t>(std::llround(1e6 / mhz));  // ps
    const uint64_t high = period / 2 == 0 ? 1 : period / 2;
    return ClockPeriod{high, period > high ? period - high : 1};
  }
};

}  // namespace detail

/// Runs a bench: see the head of this file. Returns the process's exit status: 0 pass,
/// 1 mismatch, assertion or a vacuous run (one that compared none of its results), 2 bad
/// input (options, files).
template <typename Bench>
int run_cosim(int argc, char** argv) {
  BenchOptions o;
  o.seed = design::kDefaultSeed;
  o.cycles = design::kDefaultCycles;
  o.repro = fmt::format("npugen sim <config> --block {}", kBlock);
  const BenchSpec spec = Bench::spec();
  o.max_rows = spec.max_rows_default;
  o.valid_probability = design::kValidProbability;
  if (const int status = parse_bench_options(argc, argv, spec, o); status >= 0) return status;
#ifndef NPUGEN_TRACE
  if (!o.trace.empty()) {
    std::fputs("error: this build has no tracing; npugen sim --trace builds one that has\n",
               stderr);
    return 2;
  }
#endif
  try {
    // Keeps the message of an RTL assertion that fires, which Verilator only prints.
    OutputTap tap;
    auto context = std::make_unique<VerilatedContext>();
    // An RTL assertion that fires is reported and ends the run like a mismatch, instead of
    // aborting the process.
    context->fatalOnError(false);
    auto dut = std::make_unique<Vdut>(context.get(), "dut");
    Waveform waveform(*context, dut.get(), o.trace);
    Bench bench(o);
    Checker check;
    RunSummary summary;
    summary.design = design::kName;
    summary.config_hash = design::kConfigHash;
    summary.block = kBlock;
    summary.mode = o.mode;
    summary.seed = o.seed;
    const detail::ClockPeriod clock = detail::ClockPeriod::of(design::kClockMhz);
    const bool trace_reset = o.trace_from == 0;
    // The share of the time spent in the verilated model is measured on one cycle in
    // kTimedEvery (timing every evaluation would cost more than some models take).
    uint64_t rtl_ticks = 0, timed_ticks = 0;
    bool timed = false;
    auto eval = [&] {
      const uint64_t t0 = timed ? detail::ticks() : 0;
      dut->eval();
      if (timed) rtl_ticks += detail::ticks() - t0;
    };
    // One rising and one falling edge; the waveform records both when `dump`.
    auto clock_cycle = [&](bool dump) {
      const uint64_t t0 = timed ? detail::ticks() : 0;
      context->timeInc(clock.high);
      dut->clk_i = 1;
      dut->eval();
      if (dump) waveform.dump();
      context->timeInc(clock.low);
      dut->clk_i = 0;
      dut->eval();
      if (dump) waveform.dump();
      if (timed) rtl_ticks += detail::ticks() - t0;
    };
    bool assertion = false;
    auto assertion_fired = [&] {
      if (assertion || !context->gotError()) return false;
      assertion = true;
      summary.assertion = tap.take_assertion();
      check.fail("an RTL assertion fired: " + (summary.assertion.empty()
                                                   ? std::string("(its message is printed above)")
                                                   : summary.assertion));
      return true;
    };

    // Reset: power up with reset released, then assert it (its falling edge resets every
    // register at once, before any clock edge) and hold it for kResetCycles edges with
    // arbitrary inputs on the ports; every output is compared after every evaluation.
    // In the waveform: released at time 0, asserted a quarter period later, released again
    // at a falling clock edge, so every clock period in the trace is the same.
    std::mt19937_64 junk(~o.seed);
    dut->clk_i = 0;
    dut->rst_ni = 1;
    dut->eval();
    if (trace_reset) waveform.dump();
    context->timeInc(std::max<uint64_t>(1, clock.low / 2));
    for (unsigned k = 0;; ++k) {
      if (k == 0) dut->rst_ni = 0;
      bench.drive_reset(*dut, junk);
      dut->eval();
      if (trace_reset) waveform.dump();
      check.in_reset(k);
      bench.check_reset(*dut, check);
      if (k == kResetCycles) break;
      clock_cycle(trace_reset);
    }
    dut->rst_ni = 1;
    dut->eval();
    if (trace_reset) waveform.dump();
    assertion_fired();

    // The run: inputs, evaluation, every output compared, the edge.
    rtl_ticks = 0;
    const auto start = std::chrono::steady_clock::now();
    std::optional<uint64_t> stop_at;
    if (check.failed()) stop_at = kCyclesAfterMismatch;
    uint64_t cycle = 0;
    for (;; ++cycle) {
      if (stop_at && cycle > *stop_at) break;
      timed = cycle % kTimedEvery == 0;
      const uint64_t cycle_start = timed ? detail::ticks() : 0;
      if (!bench.drive(*dut, cycle)) break;
      eval();
      check.at(cycle);
      bench.check(*dut, check);
      bench.tick();
      clock_cycle(cycle >= o.trace_from && waveform.open());
      assertion_fired();
      if (check.failed() && !stop_at) stop_at = cycle + kCyclesAfterMismatch;
      if (timed) timed_ticks += detail::ticks() - cycle_start;
    }
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.rtl_share =
        timed_ticks == 0 ? 0.0 : static_cast<double>(rtl_ticks) / static_cast<double>(timed_ticks);
    summary.cycles = cycle;
    dut->final();
    waveform.close();
    bool vacuous = false;
    if (!check.failed()) {
      check.at(cycle);
      bench.finish(check, summary);
      if (summary.compared_what.empty()) {
        throw std::logic_error(
            fmt::format("the bench of block {} does not say which results it compared", kBlock));
      }
      vacuous = !check.failed() && summary.compared_count == 0;
    }

    if (check.failed()) {
      summary.status = assertion ? "assertion" : "mismatch";
      summary.mismatches = check.mismatches();
      summary.report = bench.diagnose();
      const Mismatch& m = check.mismatches().front();
      const uint64_t from = m.cycle > kTraceWindow ? m.cycle - kTraceWindow : 0;
      summary.reproduce = fmt::format(
          "{} --seed {} --cycles {}{} --trace mismatch.fst "
          "--trace-from {}",
          o.repro, o.seed, m.cycle + kCyclesAfterMismatch + 1, bench.repro_args(), from);
      std::printf("%s at cycle %llu in design %s (config %s, hash %.16s), block %s, seed %llu\n",
                  assertion ? "ASSERTION" : "MISMATCH", static_cast<unsigned long long>(m.cycle),
                  design::kName, design::kConfigFile, design::kConfigHash, kBlock,
                  static_cast<unsigned long long>(o.seed));
      for (const Mismatch& x : check.mismatches()) {
        std::printf("  cycle %llu: %s\n", static_cast<unsigned long long>(x.cycle), x.what.c_str());
      }
      if (check.count() > check.mismatches().size()) {
        std::printf("  ... %llu more\n",
                    static_cast<unsigned long long>(check.count() - check.mismatches().size()));
      }
      for (const auto& line : summary.report) std::printf("  %s\n", line.c_str());
      std::printf("reproduce with a waveform of cycles %llu..%llu:\n  %s\n",
                  static_cast<unsigned long long>(from),
                  static_cast<unsigned long long>(m.cycle + kCyclesAfterMismatch),
                  summary.reproduce.c_str());
    } else if (vacuous) {
      // Every output equalled the golden model's, but the run never reached what the bench
      // checks (an idle design agrees with its model): it fails, with the bench's reasons.
      summary.status = "vacuous";
      summary.report = summary.vacuous_reasons;
      summary.report.insert(
          summary.report.begin(),
          fmt::format("nothing was compared in {} cycles ({}: 0): a co-simulation that "
                      "checks nothing does not pass",
                      cycle, summary.compared_what));
      std::printf("VACUOUS: design %s (config %s, hash %.16s), block %s, seed %llu, mode %s\n",
                  design::kName, design::kConfigFile, design::kConfigHash, kBlock,
                  static_cast<unsigned long long>(o.seed), o.mode.c_str());
      for (const auto& line : summary.report) std::printf("  %s\n", line.c_str());
    } else {
      std::string counts;
      for (const auto& [name, value] : summary.counts) {
        counts += fmt::format(", {} {}", value, name);
      }
      std::printf(
          "PASS: design %s (hash %.16s), block %s, seed %llu, mode %s: %llu cycles%s; "
          "%.0f cycles/s, %.0f%% of the time in the RTL model\n",
          design::kName, design::kConfigHash, kBlock, static_cast<unsigned long long>(o.seed),
          o.mode.c_str(), static_cast<unsigned long long>(cycle), counts.c_str(),
          summary.seconds > 0 ? static_cast<double>(cycle) / summary.seconds : 0.0,
          100.0 * summary.rtl_share);
      for (const auto& line : summary.lines) std::printf("%s\n", line.c_str());
      for (const auto& g : summary.goals) {
        std::printf("coverage: %s: %llu%s\n", g.name.c_str(),
                    static_cast<unsigned long long>(g.value),
                    g.required || g.value != 0 ? "" : " (the design cannot show it: see limits)");
      }
      for (const auto& limit : summary.limits) std::printf("limit: %s\n", limit.c_str());
    }
    if (!o.summary.empty()) write_summary_json(summary, o.summary);
    return check.failed() || vacuous ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}

}  // namespace npugen::tb
