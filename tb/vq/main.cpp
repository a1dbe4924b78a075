// Co-simulation of a generated dequantizer: the verilated RTL and the golden
// model run the same seeded stimulus, and every output is compared every cycle from the
// first cycle of reset: in_ready_o, out_valid_o, err_o, the APB port (PREADY, PSLVERR,
// PRDATA), and the beat's weights, vector length, VQ and error flags while out_valid_o is
// high (the beat registers have no reset and mean nothing before the first beat). Every
// beat taken is also checked against the plain reference lookup (VqReferenceTracker),
// which shares no code with the model.
//
// --mode throughput streams with input always valid and output always ready, stepping the
// vector length through every supported value, and fails on any bubble once streaming.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "common/apb_port.hpp"
#include "common/cosim.hpp"
#include "common/port_bits.hpp"
#include "npugen/golden/vq/dequant_model.hpp"
#include "vq/stimulus.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::get_bits;
using npugen::tb::set_bits;

constexpr const VqParams& kP = npugen::design::kVq;

std::string weights_text(const std::vector<uint32_t>& w, size_t count) {
  std::string s;
  for (size_t i = 0; i < count && i < w.size(); ++i) s += fmt::format("{}{:x}", i ? " " : "", w[i]);
  return s + (count < w.size() ? " ..." : "");
}

class VqBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the dequantizer of design {} (RTL against the golden model, and "
        "against the plain reference lookup)",
        npugen::design::kName);
    s.modes = {"check", "throughput"};
    s.modes_help =
        "check: random layers, bubbles, back-pressure and register traffic; throughput: a "
        "continuous stream through every vector length, failing on a bubble";
    return s;
  }

  explicit VqBench(const BenchOptions& o)
      : throughput_(o.mode == "throughput"),
        cycles_(o.cycles),
        golden_(kP),
        // Reloads of at most 1/32 of the budget's rows, so that beats flow between them.
        stimulus_(kP,
                  {throughput_, 64,
                   static_cast<unsigned>(std::clamp<uint64_t>(o.cycles / 32, 1, kP.rows))},
                  o.seed),
        reference_(kP),
        got_(kP.beat_weights()) {}

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    in_ = stimulus_.inputs();
    in_.in_valid = junk() & 1U;
    in_.out_ready = junk() & 1U;
    in_.cb_we = junk() & 1U;
    in_.cb_row = static_cast<unsigned>(junk() % kP.rows);
    const uint64_t r = junk();
    in_.apb = npugen::tb::arbitrary_request(
        r, static_cast<uint32_t>(r >> 8) & ((1U << golden_.register_map().addr_bits()) - 1));
    for (auto& i : in_.index) i = static_cast<uint32_t>(junk());
    drive(dut, in_);
  }
  void check_reset(const Vdut& dut, Checker& check) {
    compare_control(dut, golden_.outputs(in_), check);
  }

  bool drive(Vdut& dut, uint64_t cycle) {
    // The budget counts from the end of the initial load of the codebook (a row a cycle,
    // before any beat): a codebook of 8192 rows would take a budget of 6000 cycles whole.
    if (cycle >= cycles_ + kP.rows) return false;
    in_ = stimulus_.inputs();
    drive(dut, in_);
    want_ = golden_.outputs(in_);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    compare_control(dut, want_, check);
    if (want_.out_valid && dut.out_valid_o) {
      for (unsigned i = 0; i < kP.beat_weights(); ++i) {
        got_[i] = get_bits(dut.out_weights_o, i * kP.weight.width, kP.weight.width);
      }
      if (got_ != want_.out_weights) {
        check.fail(fmt::format("out_weights_o: expected [{}], got [{}]",
                               weights_text(want_.out_weights, 16), weights_text(got_, 16)));
      }
      check.compare("out_vlen_log2_o", want_.out_vlen_log2, dut.out_vlen_log2_o);
      check.compare("out_vq_o", want_.out_vq, dut.out_vq_o);
      check.compare("out_err_o", want_.out_err, dut.out_err_o);
      if (in_.out_ready) beat_leaves(dut, check);
    }
    if (throughput_) {
      if (dut.out_valid_o) streaming_ = true;
      if (streaming_ && (!dut.out_valid_o || !dut.in_ready_o)) {
        check.fail(fmt::format("a bubble in a continuous stream (out_valid_o {}, in_ready_o {})",
                               dut.out_valid_o, dut.in_ready_o));
      }
      if (streaming_) ++per_length_[want_.out_vlen_log2].second;
    }
    accepted_ = in_.in_valid && want_.in_ready;
  }

  void tick() {
    beats_in_ += accepted_ ? 1 : 0;
    reference_.clock(in_, accepted_);
    golden_.tick(in_);
    stimulus_.advance(accepted_, want_.apb);
  }

  void finish(Checker& /*check*/, npugen::tb::RunSummary& s) {
    const auto& apb = stimulus_.apb();
    s.count("beats in", beats_in_);
    s.compared("beats out", beats_out_);
    s.lines.push_back(
        fmt::format("the run: the codebook's initial load ({} rows, a row a cycle), then {} cycles",
                    kP.rows, cycles_));
    if (beats_out_ == 0) {
      s.vacuous_reasons.push_back(fmt::format("{} beats in, {} codebook rows written, {} layers",
                                              beats_in_, stimulus_.codebook_writes(),
                                              stimulus_.layers()));
    }
    s.count("looked up", vq_beats_);
    s.count("raw", raw_beats_);
    s.count("with an index error", error_beats_);
    s.count("layers", stimulus_.layers());
    s.count("codebook row writes", stimulus_.codebook_writes());
    s.count("register writes", apb.writes());
    s.count("register reads", apb.reads());
    s.count("transfers answered PSLVERR", apb.errors());
    for (unsigned k = kP.min_vlen_log2(); k <= kP.row_log2(); ++k) {
      const auto [beats, cycles] = per_length_[k];
      s.goal(fmt::format("beats of vector length {}", 1U << k), beats);
      if (throughput_) {
        s.lines.push_back(fmt::format(
            "throughput m={}: {} beats in {} streaming cycles, {:.3f} weights per cycle (P x m "
            "= {})",
            1U << k, beats, cycles,
            cycles == 0 ? 0.0 : static_cast<double>(beats * (uint64_t{kP.copies} << k)) / cycles,
            kP.copies << k));
      }
    }
    if (!throughput_) {
      s.goal("raw beats", raw_beats_);
      s.goal("beats with an index error", error_beats_);
      s.goal("transfers answered PSLVERR", apb.errors());
      s.goal("register reads", apb.reads());
    }
  }

  [[nodiscard]] std::vector<std::string> diagnose() const {
    return {
        fmt::format("beats taken so far: {}; layers started: {}", beats_out_, stimulus_.layers())};
  }
  [[nodiscard]] std::string repro_args() const { return throughput_ ? " --mode throughput" : ""; }

 private:
  static void drive(Vdut& dut, const VqInputs& in) {
    const unsigned w = kP.weight.width;
    npugen::tb::drive_apb(dut, in.apb);
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

  // The outputs every cycle has, in reset too.
  static void compare_control(const Vdut& dut, const VqOutputs& want, Checker& check) {
    check.compare("in_ready_o", want.in_ready, dut.in_ready_o);
    check.compare("out_valid_o", want.out_valid, dut.out_valid_o);
    check.compare("err_o", want.err, dut.err_o);
    npugen::tb::compare_apb(dut, want.apb, check);
  }

  // The beat leaves: the RTL against the plain reference.
  void beat_leaves(const Vdut& dut, Checker& check) {
    if (reference_.empty()) {
      check.fail("a beat left that the reference never saw accepted");
    } else {
      const auto& ref = reference_.front();
      if (ref.weights != got_) {
        check.fail(fmt::format("RTL vs reference lookup, beat {}: reference [{}], RTL [{}]",
                               beats_out_, weights_text(ref.weights, 16), weights_text(got_, 16)));
      }
      if (ref.error != static_cast<bool>(dut.out_err_o)) {
        check.fail(fmt::format("RTL vs reference, beat {}: error flag {}, reference {}", beats_out_,
                               dut.out_err_o, ref.error));
      }
      reference_.pop();
    }
    ++beats_out_;
    (want_.out_vq ? vq_beats_ : raw_beats_) += 1;
    error_beats_ += want_.out_err ? 1 : 0;
    if (want_.out_vq) ++per_length_[want_.out_vlen_log2].first;
  }

  bool throughput_;
  uint64_t cycles_;
  VqDequantModel golden_;
  npugen::tb::VqStimulus stimulus_;
  npugen::tb::VqReferenceTracker reference_;
  VqInputs in_;
  VqOutputs want_;
  std::vector<uint32_t> got_;
  bool accepted_ = false;
  bool streaming_ = false;
  uint64_t beats_in_ = 0, beats_out_ = 0, vq_beats_ = 0, raw_beats_ = 0, error_beats_ = 0;
  std::map<unsigned, std::pair<uint64_t, uint64_t>> per_length_;  // log2 m -> (beats, cycles)
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<VqBench>(argc, argv); }
