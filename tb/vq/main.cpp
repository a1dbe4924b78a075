// Co-simulation of a generated dequantizer (SPEC M3): the verilated RTL (class Vdut) and
// the golden model run the same seeded stimulus, and every output is compared every
// cycle from the first cycle of reset (in_ready_o, out_valid_o, err_o, csr_rdata_o; the
// beat's weights, vector length, VQ and error flags while out_valid_o is high: the beat
// registers have no reset and mean nothing before the first beat). Every beat taken is also checked
// against the plain reference lookup (VqReferenceTracker), which shares no code with the model.
//
// --mode throughput streams with input always valid and output always ready, stepping
// the vector length through every supported value, and reports the weights delivered per
// cycle for each; it fails on any bubble.
#include <fmt/format.h>
#include <verilated.h>

#include <chrono>
#include <cstdio>
#include <map>
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
#include "npugen/golden/vq/dequant_model.hpp"
#include "vq/stimulus.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::get_bits;
using npugen::tb::set_bits;

constexpr const VqParams& kP = npugen::design::kVq;
using npugen::tb::kCyclesAfterMismatch;
using npugen::tb::Mismatch;

using Options = npugen::tb::BenchOptions;

void drive(Vdut& dut, const VqInputs& in) {
  const unsigned w = kP.weight.width;
  dut.csr_we_i = in.csr_we;
  dut.csr_addr_i = in.csr_addr;
  dut.csr_wdata_i = in.csr_wdata;
  dut.cb_we_i = in.cb_we;
  dut.cb_row_i = in.cb_row;
  for (unsigned j = 0; j < kP.row_weights; ++j) set_bits(dut.cb_data_i, j * w, w, in.cb_data[j]);
  dut.in_valid_i = in.in_valid;
  for (unsigned p = 0; p < kP.copies; ++p) {
    set_bits(dut.in_index_i, p * kP.index_bits(), kP.index_bits(), in.index[p]);
  }
  npugen::tb::pack_fields(dut.in_raw_i, in.raw.data(), kP.beat_weights(), w);
  dut.out_ready_i = in.out_ready;
}

std::string weights_text(const std::vector<uint32_t>& w, size_t count) {
  std::string s;
  for (size_t i = 0; i < count && i < w.size(); ++i) s += fmt::format("{}{:x}", i ? " " : "", w[i]);
  return s + (count < w.size() ? " ..." : "");
}

int run(const Options& o) {
  const bool throughput = o.mode == "throughput";
  auto context = std::make_unique<VerilatedContext>();
  auto dut = std::make_unique<Vdut>(context.get(), "dut");
  npugen::tb::Waveform waveform(*context, dut.get(), o.trace, o.trace_from);
  VqDequantModel golden(kP);
  npugen::tb::VqStimulus stimulus(kP, {throughput, 64}, o.seed);
  npugen::tb::VqReferenceTracker reference(kP);
  std::vector<Mismatch> mismatches;
  std::optional<uint64_t> stop_at;
  std::vector<uint32_t> got(kP.beat_weights());
  const unsigned w = kP.weight.width;

  uint64_t beats_out = 0, beats_in = 0, vq_beats = 0, raw_beats = 0, error_beats = 0;
  // Throughput: cycles and weights out per vector length, bubbles once streaming.
  std::map<unsigned, std::pair<uint64_t, uint64_t>> per_length;  // log2 m -> (beats, weights)
  uint64_t streaming_cycles = 0, bubbles = 0;
  bool streaming = false;

  // In reset, with arbitrary inputs (beats, codebook and register writes, reads): the
  // handshake, error and register outputs of the reset state.
  {
    std::mt19937_64 junk(~o.seed);
    VqInputs in = stimulus.inputs();
    npugen::tb::reset_dut(
        *dut,
        [&] {
          in.in_valid = junk() & 1U;
          in.out_ready = junk() & 1U;
          in.cb_we = junk() & 1U;
          in.cb_row = static_cast<unsigned>(junk() % kP.rows);
          in.csr_we = junk() & 1U;
          in.csr_addr = static_cast<unsigned>(junk() & 3U);
          in.csr_wdata = static_cast<uint32_t>(junk());
          for (auto& i : in.index) i = static_cast<uint32_t>(junk());
          drive(*dut, in);
        },
        [&](unsigned edge) {
          const VqOutputs expect = golden.outputs(in);
          const std::string when = fmt::format("in reset after {} edge(s): ", edge);
          auto differ = [&](const char* name, uint64_t want, uint64_t have) {
            if (want != have) {
              mismatches.push_back(
                  {0, fmt::format("{}{}: expected {}, got {}", when, name, want, have)});
            }
          };
          differ("in_ready_o", expect.in_ready, dut->in_ready_o);
          differ("out_valid_o", expect.out_valid, dut->out_valid_o);
          differ("err_o", expect.err, dut->err_o);
          differ("csr_rdata_o", expect.csr_rdata, dut->csr_rdata_o);
        });
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t cycle = 0;
  for (; cycle < o.cycles; ++cycle) {
    if (stop_at && cycle > *stop_at) break;
    const VqInputs& in = stimulus.inputs();
    drive(*dut, in);
    dut->eval();
    const VqOutputs expect = golden.outputs(in);

    auto differ = [&](const char* name, uint64_t want, uint64_t have) {
      if (want != have) {
        mismatches.push_back({cycle, fmt::format("{}: expected {}, got {}", name, want, have)});
      }
    };
    differ("in_ready_o", expect.in_ready, dut->in_ready_o);
    differ("out_valid_o", expect.out_valid, dut->out_valid_o);
    differ("err_o", expect.err, dut->err_o);
    differ("csr_rdata_o", expect.csr_rdata, dut->csr_rdata_o);
    if (expect.out_valid && dut->out_valid_o) {
      for (unsigned i = 0; i < kP.beat_weights(); ++i)
        got[i] = get_bits(dut->out_weights_o, i * w, w);
      if (got != expect.out_weights) {
        mismatches.push_back(
            {cycle, fmt::format("out_weights_o: expected [{}], got [{}]",
                                weights_text(expect.out_weights, 16), weights_text(got, 16))});
      }
      differ("out_vlen_log2_o", expect.out_vlen_log2, dut->out_vlen_log2_o);
      differ("out_vq_o", expect.out_vq, dut->out_vq_o);
      differ("out_err_o", expect.out_err, dut->out_err_o);
      if (in.out_ready) {
        // The beat leaves: the RTL against the plain reference.
        if (reference.empty()) {
          mismatches.push_back({cycle, "a beat left that the reference never saw accepted"});
        } else {
          const auto& ref = reference.front();
          if (ref.weights != got) {
            mismatches.push_back(
                {cycle,
                 fmt::format("RTL vs reference lookup, beat {}: reference [{}], RTL [{}]",
                             beats_out, weights_text(ref.weights, 16), weights_text(got, 16))});
          }
          if (ref.error != static_cast<bool>(dut->out_err_o)) {
            mismatches.push_back({cycle, fmt::format("RTL vs reference, beat {}: error flag {}, "
                                                     "reference {}",
                                                     beats_out, dut->out_err_o, ref.error)});
          }
          reference.pop();
        }
        ++beats_out;
        (expect.out_vq ? vq_beats : raw_beats) += 1;
        error_beats += expect.out_err ? 1 : 0;
        auto& [beats, weights] = per_length[expect.out_vlen_log2];
        ++beats;
        weights += uint64_t{kP.copies} << expect.out_vlen_log2;
      }
    }
    if (throughput) {
      if (dut->out_valid_o) streaming = true;
      if (streaming) {
        ++streaming_cycles;
        if (!dut->out_valid_o || !dut->in_ready_o) ++bubbles;
      }
    }
    if (!mismatches.empty() && !stop_at) stop_at = cycle + kCyclesAfterMismatch;

    const bool accepted = in.in_valid && expect.in_ready;
    beats_in += accepted ? 1 : 0;
    reference.clock(in, accepted);
    golden.tick(in);
    context->timeInc(1);
    dut->clk_i = 1;
    dut->eval();
    waveform.dump(cycle);
    context->timeInc(1);
    dut->clk_i = 0;
    dut->eval();
    waveform.dump(cycle);
    stimulus.advance(accepted);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  dut->final();
  waveform.close();
  if (mismatches.empty() && throughput && bubbles > 0) {
    mismatches.push_back(
        {cycle, fmt::format("{} bubble(s) in {} streaming cycles", bubbles, streaming_cycles)});
  }
  if (!mismatches.empty()) {
    npugen::tb::print_mismatches(mismatches, "vq", o.seed, o.repro, 0,
                                 throughput ? " --mode throughput" : "", {});
    return 1;
  }
  if (throughput) {
    for (const auto& [k, bw] : per_length) {
      std::printf("THROUGHPUT m=%u: %llu beats, %llu weights, %.3f weights/beat (P x m = %u)\n",
                  1U << k, static_cast<unsigned long long>(bw.first),
                  static_cast<unsigned long long>(bw.second),
                  static_cast<double>(bw.second) / static_cast<double>(bw.first), kP.copies << k);
    }
    std::printf("THROUGHPUT: %llu streaming cycles, %llu beats out, %llu bubble(s)\n",
                static_cast<unsigned long long>(streaming_cycles),
                static_cast<unsigned long long>(beats_out),
                static_cast<unsigned long long>(bubbles));
  }
  std::printf(
      "PASS: design %s (hash %.16s), block vq, seed %llu: %llu cycles, %llu beats in, %llu out "
      "(%llu looked up, %llu raw, %llu with an index error), %llu layers, %llu codebook row "
      "writes, %.0f cycles/s\n",
      npugen::design::kName, npugen::design::kConfigHash, static_cast<unsigned long long>(o.seed),
      static_cast<unsigned long long>(cycle), static_cast<unsigned long long>(beats_in),
      static_cast<unsigned long long>(beats_out), static_cast<unsigned long long>(vq_beats),
      static_cast<unsigned long long>(raw_beats), static_cast<unsigned long long>(error_beats),
      static_cast<unsigned long long>(stimulus.layers()),
      static_cast<unsigned long long>(stimulus.codebook_writes()),
      static_cast<double>(cycle) / seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.repro = "npugen sim <config> --block vq";
  npugen::tb::BenchSpec spec;
  spec.title = fmt::format(
      "Co-simulation of the dequantizer of design {} (RTL against the golden model, and "
      "against the plain reference lookup)",
      npugen::design::kName);
  spec.modes = {"check", "throughput"};
  spec.modes_help =
      "check: random layers, bubbles and back-pressure; throughput: continuous stream, every "
      "vector length, fails on a bubble";
  return npugen::tb::bench_main(argc, argv, spec, o, run);
}
