// Co-simulation of a generated zero-skipping PE array: the verilated RTL (class Vdut)
// and the golden model run the same seeded jobs (sparse weight tensors preprocessed by
// the golden model, proven against the contract, and their activations). Every output
// is compared every cycle: step_ready_o, the activation reads, acc_valid_o and every
// accumulator. Each finished job's accumulators, the RTL's and the golden model's, are
// also checked against the plain dense reference.
#include <fmt/format.h>
#include <verilated.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Vdut.h"
#include "common/bench_options.hpp"
#include "common/bench_report.hpp"
#include "common/dut_harness.hpp"
#include "common/port_bits.hpp"
#include "design_params.hpp"
#include "npugen/golden/pe_array/dense_reference.hpp"
#include "npugen/golden/zs/array_model.hpp"
#include "zs/jobs.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::ZsJob;
using npugen::tb::ZsJobSource;

constexpr const ZeroSkipParams& kP = npugen::design::kZeroSkip;
using npugen::tb::kCyclesAfterMismatch;
using npugen::tb::Mismatch;

using Options = npugen::tb::BenchOptions;

/// Compares every output of the array with the golden model's; `when` names the cycle.
void compare(const Vdut& dut, const ZeroSkipOutputs& expect, uint64_t cycle,
             const std::string& when, std::vector<Mismatch>& out) {
  auto differ = [&](const char* name, uint64_t want, uint64_t got) {
    if (want != got) {
      out.push_back({cycle, fmt::format("{}{}: expected {}, got {}", when, name, want, got)});
    }
  };
  differ("step_ready_o", expect.step_ready, dut.step_ready_o);
  differ("act_rd_en_o", expect.act_rd_en, dut.act_rd_en_o);
  differ("act_rd_row_o", expect.act_rd_row, dut.act_rd_row_o);
  differ("act_rd_count_o", expect.act_rd_count, dut.act_rd_count_o);
  differ("acc_valid_o", expect.acc_valid, dut.acc_valid_o);
  for (unsigned t = 0; t < kP.array.tiles; ++t) {
    const uint64_t got =
        npugen::tb::get_bits(dut.acc_o, t * kP.array.acc_width, kP.array.acc_width);
    if (got != expect.acc[t]) {
      out.push_back({cycle, fmt::format("{}acc_o tile {}: expected 0x{:x}, got 0x{:x}", when, t,
                                        expect.acc[t], got)});
    }
  }
}

int run(const Options& o) {
  auto context = std::make_unique<VerilatedContext>();
  auto dut = std::make_unique<Vdut>(context.get(), "dut");
  npugen::tb::Waveform waveform(*context, dut.get(), o.trace, o.trace_from);
  auto dump = [&](uint64_t cycle) { waveform.dump(cycle); };
  const unsigned tiles = kP.array.tiles;
  const unsigned lanes = kP.array.lanes;
  const ControlLayout layout = ControlLayout::of(kP);
  ZeroSkipArrayModel golden(kP);
  ZsJobSource source(kP, o.max_rows, o.seed);
  std::vector<ZsJob> jobs;
  size_t offer_job = 0, offer_step = 0, results = 0;
  uint64_t steps_total = 0, dense_total = 0, schedule_total = 0;
  std::vector<uint32_t> rd(size_t{kP.act_rows_per_cycle} * lanes, 0);
  std::vector<Mismatch> mismatches;
  std::optional<uint64_t> stop_at;

  // In reset, with arbitrary steps and activation rows offered: the reset state.
  std::mt19937_64 junk(~o.seed);
  npugen::tb::reset_dut(
      *dut,
      [&] {
        dut->step_valid_i = 1;
        for (unsigned i = 0; i < layout.width(); i += 32) {
          npugen::tb::set_bits(dut->step_ctrl_i, i, std::min(32U, layout.width() - i), junk());
        }
        for (auto& v : rd) v = static_cast<uint32_t>(junk());
        npugen::tb::pack_fields(dut->act_rd_data_i, rd.data(), kP.act_rows_per_cycle * lanes,
                                kP.array.act_width);
        for (unsigned i = 0; i < tiles * lanes; ++i) {
          npugen::tb::set_bits(dut->step_weight_i, i * kP.array.weight_width, kP.array.weight_width,
                               junk());
        }
      },
      [&](unsigned edge) {
        compare(*dut, golden.outputs(), 0, fmt::format("in reset after {} edge(s): ", edge),
                mismatches);
      });

  std::mt19937_64 bubbles(o.seed ^ 0x9e3779b97f4a7c15ULL);
  double job_seconds = 0;  // drawing, preprocessing and proving jobs
  const auto start = std::chrono::steady_clock::now();
  uint64_t cycle = 0;
  const uint64_t limit = o.cycles + 100000;  // drain bound
  for (; cycle < limit; ++cycle) {
    if (stop_at && cycle > *stop_at) break;
    const bool offering_allowed = cycle < o.cycles;
    if (offering_allowed && offer_job == jobs.size()) {
      const auto job_start = std::chrono::steady_clock::now();
      jobs.push_back(source.next());
      job_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - job_start).count();
    }
    if (!offering_allowed && results == offer_job && offer_step == 0) break;
    const ZeroSkipOutputs expect = golden.outputs();

    // Inputs of this cycle.
    const bool have = offer_job < jobs.size() && (offering_allowed || offer_step > 0);
    const bool offer =
        have && static_cast<double>(bubbles() >> 11) * 0x1.0p-53 < o.valid_probability;
    const StreamStep* step = offer ? &jobs[offer_job].steps[offer_step] : nullptr;
    dut->step_valid_i = offer;
    if (offer) {
      npugen::tb::pack_fields(dut->step_weight_i, step->weights.data(), tiles * lanes,
                              kP.array.weight_width);
      const auto words = pack_control(layout, step->control);
      for (unsigned i = 0; i < layout.width(); i += 32) {
        npugen::tb::set_bits(dut->step_ctrl_i, i, std::min(32U, layout.width() - i), words[i / 32]);
      }
    }
    std::fill(rd.begin(), rd.end(), 0);
    if (expect.act_rd_en && expect.act_rd_job < jobs.size()) {
      const ZsJob& job = jobs[expect.act_rd_job];
      for (unsigned k = 0; k < expect.act_rd_count; ++k) {
        const size_t row = size_t{expect.act_rd_row} + k;
        if (row >= job.weights.rows) continue;  // past the job's last row: zeros
        std::copy_n(job.acts.begin() + static_cast<ptrdiff_t>(row * lanes), lanes,
                    rd.begin() + static_cast<ptrdiff_t>(k * lanes));
      }
    }
    npugen::tb::pack_fields(dut->act_rd_data_i, rd.data(), kP.act_rows_per_cycle * lanes,
                            kP.array.act_width);
    dut->eval();

    compare(*dut, expect, cycle, "", mismatches);
    if (expect.acc_valid) {
      // The golden model against the plain reference for the finished job.
      ZsJob& job = jobs.at(results);
      std::vector<uint32_t> raw(job.weights.values.size());
      const uint32_t wmask =
          kP.array.weight_width >= 32 ? ~uint32_t{0} : (uint32_t{1} << kP.array.weight_width) - 1;
      for (size_t i = 0; i < raw.size(); ++i) {
        raw[i] = static_cast<uint32_t>(job.weights.values[i]) & wmask;
      }
      const auto want = reference::dense_dot_products(
          raw, job.acts, tiles, job.weights.rows, lanes,
          {kP.array.weight_width, kP.array.weight_signed},
          {kP.array.act_width, kP.array.act_signed}, kP.array.acc_width);
      for (unsigned t = 0; t < tiles; ++t) {
        const uint64_t got =
            npugen::tb::get_bits(dut->acc_o, t * kP.array.acc_width, kP.array.acc_width);
        if (want[t] != got) {
          mismatches.push_back(
              {cycle, fmt::format("RTL vs dense reference, job {} ({}) tile {}: reference "
                                  "0x{:x}, RTL 0x{:x}",
                                  results, job.pattern, t, want[t], got)});
        }
        if (want[t] != expect.acc[t]) {
          mismatches.push_back(
              {cycle, fmt::format("golden vs dense reference, job {} ({}) tile {}: reference "
                                  "0x{:x}, golden 0x{:x}",
                                  results, job.pattern, t, want[t], expect.acc[t])});
        }
      }
      dense_total += job.weights.rows;
      schedule_total += job.schedule_steps;
      steps_total += job.steps.size();
      job.weights.values = {};
      job.acts = {};
      job.steps = {};
      ++results;
    }
    if (!mismatches.empty() && !stop_at) stop_at = cycle + kCyclesAfterMismatch;

    ZeroSkipInputs in;
    in.step_valid = offer;
    in.step = step;
    in.act_rd_data = rd;
    golden.tick(in);
    context->timeInc(1);
    dut->clk_i = 1;
    dut->eval();
    dump(cycle);
    context->timeInc(1);
    dut->clk_i = 0;
    dut->eval();
    dump(cycle);
    if (offer && expect.step_ready && ++offer_step == jobs[offer_job].steps.size()) {
      ++offer_job;
      offer_step = 0;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  dut->final();
  waveform.close();
  if (mismatches.empty() && results != offer_job) {
    mismatches.push_back(
        {cycle, fmt::format("{} job(s) offered, {} finished", offer_job, results)});
  }
  if (!mismatches.empty()) {
    const size_t job = std::min(results, jobs.size() - 1);
    npugen::tb::print_mismatches(
        mismatches, "", o.seed, o.repro, o.cycles, "",
        {fmt::format("job in progress: {} ({})", job, jobs.empty() ? "-" : jobs[job].pattern)});
    return 1;
  }
  std::printf(
      "PASS: design %s (hash %.16s), seed %llu: %llu cycles, %zu jobs (every pattern: %s), "
      "%llu dense cycles ran as %llu steps (%llu in the stream), %.0f cycles/s (%.0f cycles/s "
      "without the %.0f%% spent drawing, preprocessing and proving jobs)\n",
      npugen::design::kName, npugen::design::kConfigHash, static_cast<unsigned long long>(o.seed),
      static_cast<unsigned long long>(cycle), results,
      results >= npugen::tb::zs_patterns().size() ? "yes" : "no",
      static_cast<unsigned long long>(dense_total), static_cast<unsigned long long>(schedule_total),
      static_cast<unsigned long long>(steps_total), static_cast<double>(cycle) / seconds,
      static_cast<double>(cycle) / (seconds - job_seconds), 100.0 * job_seconds / seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.repro = "npugen sim <config> --block zs";
  o.max_rows = std::min<unsigned>(kP.max_rows, 64);
  o.valid_probability = npugen::design::kValidProbability;
  npugen::tb::BenchSpec spec;
  spec.title = fmt::format(
      "Co-simulation of zero-skipping design {} (RTL against the golden model, golden against "
      "the dense reference)",
      npugen::design::kName);
  spec.modes_help = "check (the only mode of the zero-skipping bench)";
  spec.max_rows_limit = kP.max_rows;
  spec.valid_probability = true;
  return npugen::tb::bench_main(argc, argv, spec, o, run);
}
