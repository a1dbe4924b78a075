// Co-simulation of a generated zero-skipping PE array: the verilated RTL and the golden
// model run the same seeded jobs (sparse weight tensors preprocessed by the golden model,
// proven against the contract, and their activations) with bubbles on the step stream and
// back-pressure on the results. Every output is compared every cycle: step_ready_o, the
// activation reads, acc_valid_o and every accumulator. Each finished job's accumulators,
// the RTL's and the golden model's, are also checked against the plain dense reference.
#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

#include "common/cosim.hpp"
#include "common/port_bits.hpp"
#include "npugen/golden/pe_array/dense_reference.hpp"
#include "npugen/golden/zs/array_model.hpp"
#include "zs/jobs.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::ZsJob;
using npugen::tb::ZsJobSource;

constexpr const ZeroSkipParams& kP = npugen::design::kZeroSkip;

class ZsBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the zero-skipping array of design {} (RTL against the golden model, "
        "golden against the dense reference)",
        npugen::design::kName);
    s.max_rows_limit = kP.max_rows;
    s.max_rows_default = std::min<unsigned>(kP.max_rows, 64);
    s.valid_probability = true;
    return s;
  }

  explicit ZsBench(const BenchOptions& o)
      : o_(o),
        layout_(ControlLayout::of(kP)),
        golden_(kP),
        source_(kP, o.max_rows, o.seed),
        rng_(o.seed ^ 0x9e3779b97f4a7c15ULL),
        valid_threshold_(npugen::tb::probability_threshold(o.valid_probability)),
        ready_threshold_(npugen::tb::probability_threshold(npugen::design::kReadyProbability)),
        rd_(size_t{kP.act_rows_per_cycle} * kP.array.lanes, 0) {}

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    dut.step_valid_i = 1;
    for (unsigned i = 0; i < layout_.width(); i += 32) {
      npugen::tb::set_bits(dut.step_ctrl_i, i, std::min(32U, layout_.width() - i), junk());
    }
    for (auto& v : rd_) v = static_cast<uint32_t>(junk());
    npugen::tb::pack_fields(dut.act_rd_data_i, rd_.data(), kP.act_rows_per_cycle * kP.array.lanes,
                            kP.array.act_width);
    for (unsigned i = 0; i < kP.array.tiles * kP.array.lanes; ++i) {
      npugen::tb::set_bits(dut.step_weight_i, i * kP.array.weight_width, kP.array.weight_width,
                           junk());
    }
    in_ = ZeroSkipInputs{};
    in_.acc_ready = (junk() & 1U) != 0;
    dut.acc_ready_i = in_.acc_ready;
  }
  void check_reset(const Vdut& dut, Checker& check) { compare(dut, golden_.outputs(in_), check); }

  bool drive(Vdut& dut, uint64_t cycle) {
    const bool offering_allowed = cycle < o_.cycles;
    if (offering_allowed && offer_job_ == jobs_.size()) {
      const auto start = std::chrono::steady_clock::now();
      jobs_.push_back(source_.next());
      job_seconds_ +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    // Past the cycles asked for, the jobs offered drain; then the run ends.
    if (!offering_allowed && results_ == offer_job_ && offer_step_ == 0) return false;
    if (cycle >= o_.cycles + kDrainCycles) return false;
    const bool have = offer_job_ < jobs_.size() && (offering_allowed || offer_step_ > 0);
    // A step offered stays offered until taken.
    if (!offering_) offering_ = have && rng_() <= valid_threshold_;
    in_ = ZeroSkipInputs{};
    in_.step_valid = offering_;
    in_.step = offering_ ? &jobs_[offer_job_].steps[offer_step_] : nullptr;
    in_.acc_ready = rng_() <= ready_threshold_;
    dut.step_valid_i = offering_;
    if (offering_) {
      npugen::tb::pack_fields(dut.step_weight_i, in_.step->weights.data(),
                              kP.array.tiles * kP.array.lanes, kP.array.weight_width);
      const auto words = pack_control(layout_, in_.step->control);
      for (unsigned i = 0; i < layout_.width(); i += 32) {
        npugen::tb::set_bits(dut.step_ctrl_i, i, std::min(32U, layout_.width() - i), words[i / 32]);
      }
    }
    dut.acc_ready_i = in_.acc_ready;
    // The activation rows the array reads this cycle (the golden model says which; the
    // comparison checks that the RTL asks for the same).
    want_ = golden_.outputs(in_);
    std::fill(rd_.begin(), rd_.end(), 0);
    if (want_.act_rd_en && want_.act_rd_job < jobs_.size()) {
      const ZsJob& job = jobs_[want_.act_rd_job];
      for (unsigned k = 0; k < want_.act_rd_count; ++k) {
        const size_t row = size_t{want_.act_rd_row} + k;
        if (row >= job.weights.rows) continue;  // past the job's last row: zeros
        std::copy_n(job.acts.begin() + static_cast<ptrdiff_t>(row * kP.array.lanes), kP.array.lanes,
                    rd_.begin() + static_cast<ptrdiff_t>(k * kP.array.lanes));
      }
    }
    in_.act_rd_data = rd_;
    npugen::tb::pack_fields(dut.act_rd_data_i, rd_.data(), kP.act_rows_per_cycle * kP.array.lanes,
                            kP.array.act_width);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    compare(dut, want_, check);
    if (want_.acc_valid && !in_.acc_ready) ++held_;
    if (want_.acc_valid && in_.acc_ready) finish_job(dut, check);
  }

  void tick() {
    golden_.tick(in_);
    if (offering_ && want_.step_ready) {
      offering_ = false;
      if (++offer_step_ == jobs_[offer_job_].steps.size()) {
        ++offer_job_;
        offer_step_ = 0;
      }
    }
  }

  void finish(Checker& check, npugen::tb::RunSummary& s) {
    if (results_ != offer_job_) {
      check.fail(fmt::format("{} job(s) offered, {} finished", offer_job_, results_));
    }
    s.compared("jobs", results_);
    s.count("dense cycles", dense_total_);
    s.count("schedule steps", schedule_total_);
    s.count("steps streamed", steps_total_);
    s.goal("every sparsity pattern", results_ >= npugen::tb::zs_patterns().size() ? 1 : 0);
    s.goal("cycles results waited for acc_ready", held_, npugen::design::kReadyProbability < 1.0);
    if (npugen::design::kReadyProbability >= 1.0) {
      s.limits.push_back("sim.ready_probability is 1: the results never wait");
    }
    s.lines.push_back(fmt::format(
        "zero skipping: {} dense cycles ran as {} steps ({} in the stream); {:.0f}% of the "
        "time drew, preprocessed and proved jobs",
        dense_total_, schedule_total_, steps_total_,
        s.seconds > 0 ? 100.0 * job_seconds_ / s.seconds : 0.0));
  }

  [[nodiscard]] std::vector<std::string> diagnose() const {
    if (jobs_.empty()) return {};
    const size_t job = std::min(results_, jobs_.size() - 1);
    return {fmt::format("job in progress: {} ({})", job, jobs_[job].pattern)};
  }
  [[nodiscard]] std::string repro_args() const { return ""; }

 private:
  /// Cycles a run may take past --cycles to drain the jobs offered.
  static constexpr uint64_t kDrainCycles = 100000;

  static void compare(const Vdut& dut, const ZeroSkipOutputs& want, Checker& check) {
    check.compare("step_ready_o", want.step_ready, dut.step_ready_o);
    check.compare("act_rd_en_o", want.act_rd_en, dut.act_rd_en_o);
    if (want.act_rd_en) {  // the row means something only with its enable
      check.compare("act_rd_row_o", want.act_rd_row, dut.act_rd_row_o);
    }
    check.compare("act_rd_count_o", want.act_rd_count, dut.act_rd_count_o);
    check.compare("acc_valid_o", want.acc_valid, dut.acc_valid_o);
    for (unsigned t = 0; t < kP.array.tiles; ++t) {
      const uint64_t got =
          npugen::tb::get_bits(dut.acc_o, t * kP.array.acc_width, kP.array.acc_width);
      if (got != want.acc[t]) {
        check.fail(fmt::format("acc_o tile {}: expected 0x{:x}, got 0x{:x}", t, want.acc[t], got));
      }
    }
  }

  // The finished job's results leave: the RTL's and the golden model's against the plain
  // reference.
  void finish_job(const Vdut& dut, Checker& check) {
    ZsJob& job = jobs_.at(results_);
    std::vector<uint32_t> raw(job.weights.values.size());
    const uint32_t wmask =
        kP.array.weight_width >= 32 ? ~uint32_t{0} : (uint32_t{1} << kP.array.weight_width) - 1;
    for (size_t i = 0; i < raw.size(); ++i) {
      raw[i] = static_cast<uint32_t>(job.weights.values[i]) & wmask;
    }
    const auto want = reference::dense_dot_products(
        raw, job.acts, kP.array.tiles, job.weights.rows, kP.array.lanes,
        {kP.array.weight_width, kP.array.weight_signed}, {kP.array.act_width, kP.array.act_signed},
        kP.array.acc_width);
    for (unsigned t = 0; t < kP.array.tiles; ++t) {
      const uint64_t got =
          npugen::tb::get_bits(dut.acc_o, t * kP.array.acc_width, kP.array.acc_width);
      if (want[t] != got) {
        check.fail(
            fmt::format("RTL vs dense reference, job {} ({}) tile {}: reference 0x{:x}, "
                        "RTL 0x{:x}",
                        results_, job.pattern, t, want[t], got));
      }
      if (want[t] != want_.acc[t]) {
        check.fail(
            fmt::format("golden vs dense reference, job {} ({}) tile {}: reference "
                        "0x{:x}, golden 0x{:x}",
                        results_, job.pattern, t, want[t], want_.acc[t]));
      }
    }
    dense_total_ += job.weights.rows;
    schedule_total_ += job.schedule_steps;
    steps_total_ += job.steps.size();
    job.weights.values = {};
    job.acts = {};
    job.steps = {};
    ++results_;
  }

  const BenchOptions& o_;
  ControlLayout layout_;
  ZeroSkipArrayModel golden_;
  ZsJobSource source_;
  std::mt19937_64 rng_;  // bubbles and back-pressure
  uint64_t valid_threshold_, ready_threshold_;
  std::vector<ZsJob> jobs_;
  size_t offer_job_ = 0, offer_step_ = 0, results_ = 0;
  bool offering_ = false;
  ZeroSkipInputs in_;
  ZeroSkipOutputs want_;
  std::vector<uint32_t> rd_;
  uint64_t steps_total_ = 0, dense_total_ = 0, schedule_total_ = 0, held_ = 0;
  double job_seconds_ = 0;  // drawing, preprocessing and proving jobs
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<ZsBench>(argc, argv); }
