// Co-simulation of a generated planar engine: the verilated RTL and the golden
// model run the same seeded stimulus, and every output is compared every cycle from the
// first cycle of reset: both read ports' requests, the write port (address, word mask and
// data while valid), the APB port, cfg_err_o, busy_o and task_done_o. Every output tensor
// the RTL writes is also checked, when its task ends, against the plain reference
// (golden/planar/reference.hpp: nested loops sharing no code with the model), and every word
// it writes must be a word of that tensor.
//
// The bench serves the ports from one memory: reads are answered in order after a random
// latency of 1 to read_latency + 1 cycles with random request back-pressure; writes are taken
// with random back-pressure. Tasks of every generated operation, random shapes (odd sizes,
// 1 x N, batches, C not a multiple of the beat, windows larger than their stride, padding
// on every side), random zero points, multipliers, shifts and clamps, and inputs that are
// often the int8 extremes, go into the two register groups in turn, the next while the
// current one runs. Each group's tensors live in its own half of the memory. The bench also
// programs tasks the hardware must refuse and writes to enabled groups (STATUS.CFG_ERR).
//
// --mode throughput: no back-pressure and reads answered after read_latency cycles. It
// fails on any cycle in which the rasterizer holds a task and issues no beat, on a task that
// started from idle whose cycles differ from planar_cycles() (the count the task unit's
// schedule uses), and on a task whose beats differ from planar_beats(); it reports words per
// cycle and each operation's cycles against ceil(max(in, out) / W).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "common/apb_port.hpp"
#include "common/cosim.hpp"
#include "common/port_bits.hpp"
#include "npugen/golden/planar/model.hpp"
#include "npugen/golden/planar/reference.hpp"
#include "npugen/golden/planar/task_reference.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::ApbMaster;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::get_bits;
using npugen::tb::set_bits;

constexpr const PlanarParams& kP = npugen::design::kPlanar;
namespace csr = planar_csr;
constexpr unsigned kV = kP.beat_lanes();
constexpr uint64_t kWords = uint64_t{1} << kP.act_addr_bits();  // addresses wrap here
// A memory whose halves hold no task (a word each: a task reads one word and writes
// another): each task has the whole of it, one task at a time.
constexpr bool kWhole = kWords < 4;

uint32_t group_address(unsigned g, uint32_t offset) {
  return csr::kGroupOffset + g * csr::kGroupStride + offset;
}

std::string task_text(const PlanarTask& t) {
  std::string s =
      fmt::format("{} {}x{}x{} N {}", planar_op_name(t.op), t.height, t.width, t.channels, t.batch);
  if (is_pool(t.op)) {
    s += fmt::format(" kernel {}x{} stride {}x{} pad {}/{}/{}/{}", t.kernel_h, t.kernel_w,
                     t.stride_y, t.stride_x, t.pad_top, t.pad_bottom, t.pad_left, t.pad_right);
  }
  if (is_reduce(t.op)) s += t.axis == PlanarAxis::kSpatial ? " over H x W" : " over channels";
  return s + fmt::format(" A@{} B@{} out@{}", t.a_base, t.b_base, t.out_base);
}

class PlanarBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the planar engine of design {} (RTL against the golden model every "
        "cycle, and every output tensor against the plain reference)",
        npugen::design::kName);
    s.modes = {"check", "throughput"};
    s.modes_help =
        "check: random tasks of every operation, refusals and back-pressure; throughput: no "
        "back-pressure, failing on a cycle without a beat while a task runs or on a task "
        "whose cycles differ from the cycle model";
    return s;
  }

  explicit PlanarBench(const BenchOptions& o)
      : throughput_(o.mode == "throughput"),
        cycles_(o.cycles),
        rng_(o.seed),
        ready_threshold_(npugen::tb::probability_threshold(npugen::design::kReadyProbability)),
        golden_(kP),
        apb_(golden_.register_map().addr_bits()),
        mem_(static_cast<size_t>(kWords) * kP.lanes),
        out_word_(2, std::vector<bool>()) {
    for (auto& b : mem_) b = static_cast<int8_t>(rng_());
    in_.a_rsp_data.assign(kV, 0);
    in_.b_rsp_data.assign(kV, 0);
    in_.param.assign(kV, PlanarGain{});
    for (auto& ops : op_tasks_) ops = 0;
  }

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    in_.a_req_ready = junk() & 1U;
    in_.b_req_ready = junk() & 1U;
    in_.w_ready = junk() & 1U;
    const uint64_t r = junk();
    in_.apb = npugen::tb::arbitrary_request(
        r, static_cast<uint32_t>(r >> 8) & ((1U << golden_.register_map().addr_bits()) - 1));
    // No responses and no table writes in reset: nothing was asked for.
    in_.a_rsp_valid = in_.b_rsp_valid = in_.param_we = false;
    drive(dut, in_);
  }
  void check_reset(const Vdut& dut, Checker& check) { compare(dut, golden_.outputs(in_), check); }

  bool drive(Vdut& dut, uint64_t cycle) {
    if (cycle >= cycles_) return false;
    cycle_ = cycle;
    in_.param_we = false;
    if (!params_.empty()) {
      in_.param_we = true;
      in_.param_row = params_.front().first;
      in_.param = params_.front().second;
      params_.pop_front();
    } else if (!apb_.busy()) {
      plan_registers();
    }
    in_.apb = apb_.plan(rng_);
    in_.a_req_ready = throughput_ || rng_() <= ready_threshold_;
    in_.b_req_ready = throughput_ || rng_() <= ready_threshold_;
    in_.w_ready = throughput_ || rng_() <= ready_threshold_;
    respond(a_port_, in_.a_rsp_valid, in_.a_rsp_data);
    respond(b_port_, in_.b_rsp_valid, in_.b_rsp_data);
    drive(dut, in_);
    want_ = golden_.outputs(in_);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    compare(dut, want_, check);
    if (want_.a_req_valid && in_.a_req_ready) request(a_port_, want_.a_req_addr);
    if (want_.b_req_valid && in_.b_req_ready) request(b_port_, want_.b_req_addr);
    if (want_.w_valid && in_.w_ready) write(dut, check);
    for (const auto& f : pending_failures_) check.fail(f);
    pending_failures_.clear();
  }

  void tick() {
    // A write reaching an enabled group (the model refuses it at this edge).
    if (in_.apb.write() && in_.apb.paddr >= csr::kGroupOffset) {
      const uint32_t g = (in_.apb.paddr - csr::kGroupOffset) / csr::kGroupStride;
      if (g < csr::kGroups && golden_.enabled(g)) ++busy_writes_;
    }
    const std::array<bool, csr::kGroups> before = {golden_.enabled(0), golden_.enabled(1)};
    const uint64_t beats_before = golden_.beats_issued();
    const uint64_t made_before = golden_.beats_made();
    const bool was_running = golden_.running();
    const bool had_request = golden_.requests_waiting() > 0;
    golden_.tick(in_);
    apb_.advance(want_.apb);
    if (a_port_.delivered) a_port_.pending.pop_front(), a_port_.delivered = false;
    if (b_port_.delivered) b_port_.pending.pop_front(), b_port_.delivered = false;
    for (unsigned g = 0; g < csr::kGroups; ++g) {
      auto& slot = running_[g];
      if (!before[g] && golden_.enabled(g) && slot) {
        slot->enable_cycle = cycle_;
        slot->idle_start = !golden_.running() && golden_.current() == g;
        slot->beats_at_start = golden_.beats_issued();
      }
      if (before[g] && !golden_.enabled(g) && slot) finish_task(g);
    }
    const uint64_t issued = golden_.beats_issued() - beats_before;
    beats_issued_ += issued;
    // Streaming: the rasterizer makes a beat every cycle it holds a task, and the request
    // queue issues one every cycle it holds one.
    const uint64_t made = golden_.beats_made() - made_before;
    if (throughput_ && was_running) {
      ++stream_cycles_;
      beats_made_ += made;
      if (made == 0) {
        pending_failures_.push_back("a cycle without a beat while the rasterizer holds a task");
      }
    }
    if (throughput_ && had_request && issued == 0) {
      pending_failures_.push_back("a cycle without a beat issued while one waits for its reads");
    }
  }

  void finish(Checker& check, npugen::tb::RunSummary& s) {
    for (const auto& f : pending_failures_) check.fail(f);
    pending_failures_.clear();
    s.count("tasks finished", tasks_done_);
    s.compared("output elements checked", words_checked_);
    if (words_checked_ == 0) {
      s.vacuous_reasons.push_back(
          fmt::format("{} tasks programmed, {} finished; the last random task drawn again: {}",
                      programmed_, tasks_done_, last_skip_.empty() ? "none" : last_skip_));
    }
    s.count("tasks programmed", programmed_);
    s.count("tasks drawn the smallest (no random task fitted the memory and the cycles left)",
            smallest_tasks_);
    s.count("add tasks reading A as B (no room for B)", b_is_a_);
    if (kWhole) {
      s.lines.push_back(fmt::format(
          "tasks use the whole memory ({} words), one at a time: its halves hold no task", kWords));
    }
    if (timed_tasks_ > 0) {
      s.lines.push_back(fmt::format(
          "{} tasks started from idle took at most {:.3f} of the cycles estimated for them "
          "(tasks are sized to end within the run's cycles by twice that estimate)",
          timed_tasks_, worst_ratio_));
    }
    s.count("tasks refused", refused_);
    s.count("writes to an enabled group", busy_writes_);
    s.count("beats issued", beats_issued_);
    s.count("beats reading nothing (windows in the line buffer)", golden_.beats_without_read());
    s.count("register writes", apb_.writes());
    s.count("register reads", apb_.reads());
    s.count("transfers answered PSLVERR", apb_.errors());
    for (unsigned o = 0; o < kPlanarOpCount; ++o) {
      const auto op = static_cast<PlanarOp>(o);
      s.count(fmt::format("{} tasks", planar_op_name(op)), op_tasks_[o]);
    }
    s.goal("tasks finished", tasks_done_);
    for (unsigned o = 0; o < kPlanarOpCount; ++o) {
      const auto op = static_cast<PlanarOp>(o);
      if (!kP.generates(op)) {
        s.limits.push_back(fmt::format("planar.modes leaves out {}", planar_op_name(op)));
      }
    }
    if (throughput_) {
      report_throughput(check, s);
      return;
    }
    for (unsigned o = 0; o < kPlanarOpCount; ++o) {
      const auto op = static_cast<PlanarOp>(o);
      s.goal(fmt::format("{} tasks", planar_op_name(op)), op_tasks_[o], kP.generates(op));
    }
    s.goal("tasks refused", refused_);
    s.goal("writes to an enabled group", busy_writes_);
    s.goal("register reads", apb_.reads());
    s.goal("transfers answered PSLVERR", apb_.errors());
    s.goal("pooling windows larger than their stride", shapes_[0],
           kP.has_pool() && kP.max_window > 1);
    s.goal("pooling with padding on every side", shapes_[1], kP.has_pool() && kP.max_pad > 0);
    s.goal("tasks with C not a multiple of the beat", shapes_[2], kV > 1);
    s.goal("tasks of 1 x N or N x 1", shapes_[3]);
    s.goal("tasks with several images", shapes_[4], kP.max_batch > 1);
    s.goal("tasks with a dimension at its maximum", edge_tasks_);
    s.goal("channel reductions", shapes_[5],
           kP.generates(PlanarOp::kReduceSum) || kP.generates(PlanarOp::kReduceMax));
    s.goal("beats reading nothing (windows in the line buffer)", golden_.beats_without_read(),
           kP.has_pool() && kP.max_pad > 0 && kP.max_window > 1);
    if (kP.max_batch == 1) s.limits.push_back("planar.max_batch is 1: one image per task");
    if (kP.max_pad == 0) s.limits.push_back("planar.max_pad is 0: no padded window");
  }

  [[nodiscard]] std::vector<std::string> diagnose() const {
    std::vector<std::string> out = {fmt::format(
        "tasks finished so far: {}; beats issued: {}; rasterizer on group {}{}", tasks_done_,
        beats_issued_, golden_.current(), golden_.running() ? "" : " (idle)")};
    for (unsigned g = 0; g < csr::kGroups; ++g) {
      if (running_[g]) out.push_back(fmt::format("group {}: {}", g, task_text(running_[g]->t)));
    }
    return out;
  }
  [[nodiscard]] std::string repro_args() const { return throughput_ ? " --mode throughput" : ""; }

 private:
  struct Task {
    PlanarTask t;
    std::vector<int8_t> expected;  ///< dense NHWC of the output shape
    uint64_t enable_cycle = 0;
    bool idle_start = false;
    bool alone = false;          ///< throughput mode: programmed with no other task in the engine
    uint64_t estimate = 0;       ///< estimated_cycles
    uint64_t estimated_end = 0;  ///< the cycle its last output word is due, at the latest
    uint64_t beats_at_start = 0;
  };
  struct ReadPort {
    std::deque<std::pair<uint64_t, std::vector<int8_t>>> pending;  ///< due cycle, data
    uint64_t last_due = 0;
    bool delivered = false;
  };

  static void drive(Vdut& dut, const PlanarInputs& in) {
    npugen::tb::drive_apb(dut, in.apb);
    dut.a_req_ready_i = in.a_req_ready;
    dut.a_rsp_valid_i = in.a_rsp_valid;
    dut.b_req_ready_i = in.b_req_ready;
    dut.b_rsp_valid_i = in.b_rsp_valid;
    dut.w_ready_i = in.w_ready;
    dut.param_we_i = in.param_we;
    dut.param_row_i = in.param_row;
    for (unsigned l = 0; l < kV; ++l) {
      set_bits(dut.a_rsp_data_i, l * 8, 8, static_cast<uint8_t>(in.a_rsp_data[l]));
      set_bits(dut.b_rsp_data_i, l * 8, 8, static_cast<uint8_t>(in.b_rsp_data[l]));
      set_bits(dut.param_bias_i, l * 32, 32, static_cast<uint32_t>(in.param[l].bias));
      set_bits(dut.param_multiplier_i, l * 32, 32, static_cast<uint32_t>(in.param[l].multiplier));
      set_bits(dut.param_shift_i, l * PlanarParams::kShiftBits, PlanarParams::kShiftBits,
               static_cast<uint32_t>(in.param[l].shift) & ((1U << PlanarParams::kShiftBits) - 1));
    }
  }

  static void compare(const Vdut& dut, const PlanarOutputs& want, Checker& check) {
    npugen::tb::compare_apb(dut, want.apb, check);
    check.compare("a_req_valid_o", want.a_req_valid, dut.a_req_valid_o);
    check.compare("b_req_valid_o", want.b_req_valid, dut.b_req_valid_o);
    if (want.a_req_valid) check.compare("a_req_addr_o", want.a_req_addr, dut.a_req_addr_o);
    if (want.b_req_valid) check.compare("b_req_addr_o", want.b_req_addr, dut.b_req_addr_o);
    check.compare("w_valid_o", want.w_valid, dut.w_valid_o);
    check.compare("cfg_err_o", want.cfg_err, dut.cfg_err_o);
    check.compare("busy_o", want.busy, dut.busy_o);
    check.compare("task_done_o", want.task_done, dut.task_done_o);
    if (!want.w_valid) return;
    check.compare("w_addr_o", want.w_addr, dut.w_addr_o);
    check.compare("w_mask_o", want.w_mask, dut.w_mask_o);
    for (unsigned l = 0; l < kV; ++l) {
      const auto got = static_cast<int8_t>(get_bits(dut.w_data_o, l * 8, 8));
      if (got != want.w_data[l]) {
        check.fail(fmt::format("w_data_o lane {} (word {}, channel {}): expected {}, got {}", l,
                               l / kP.lanes, l % kP.lanes, want.w_data[l], got));
      }
    }
  }

  unsigned draw(unsigned lo, unsigned hi) {
    return lo + static_cast<unsigned>(rng_() % (uint64_t{hi} - lo + 1));
  }

  // ---------------------------------------------------------------- memory
  int8_t& at(uint64_t word, unsigned lane) {
    return mem_[static_cast<size_t>(word % kWords) * kP.lanes + lane];
  }

  void respond(ReadPort& port, bool& valid, std::vector<int8_t>& data) {
    valid = !port.pending.empty() && port.pending.front().first == cycle_;
    if (valid) data = port.pending.front().second, port.delivered = true;
  }

  void request(ReadPort& port, uint64_t addr) {
    const unsigned latency = throughput_ ? kP.read_latency : draw(1, kP.read_latency + 1);
    const uint64_t due = std::max(cycle_ + latency, port.last_due + 1);
    port.last_due = due;
    std::vector<int8_t> data(kV);
    for (unsigned l = 0; l < kV; ++l) data[l] = at(addr + l / kP.lanes, l % kP.lanes);
    port.pending.emplace_back(due, std::move(data));
  }

  void write(const Vdut& dut, Checker& check) {
    const uint64_t addr = dut.w_addr_o;
    const auto mask = static_cast<unsigned>(dut.w_mask_o);
    for (unsigned j = 0; j < kP.words; ++j) {
      if (((mask >> j) & 1U) == 0) continue;
      const uint64_t word = (addr + j) % kWords;
      const unsigned half = static_cast<unsigned>(word / (kWords / 2));
      const auto& marks = out_word_[half];
      if (marks.empty() || !marks[word % (kWords / 2)]) {
        check.fail(
            fmt::format("the RTL wrote word {}, which is no word of an output tensor", word));
      }
      for (unsigned l = 0; l < kP.lanes; ++l) {
        at(word, l) = static_cast<int8_t>(get_bits(dut.w_data_o, (j * kP.lanes + l) * 8, 8));
      }
    }
  }

  // Tensor `t` of the given shape at base with strides (words), from the memory.
  reference::Tensor read_tensor(int n, int h, int w, int c, uint64_t base, uint64_t ps, uint64_t rs,
                                uint64_t is) {
    reference::Tensor x;
    x.n = n, x.h = h, x.w = w, x.c = c;
    x.data.resize(static_cast<size_t>(n) * h * w * c);
    for (int in = 0; in < n; ++in) {
      for (int y = 0; y < h; ++y) {
        for (int xx = 0; xx < w; ++xx) {
          for (int ch = 0; ch < c; ++ch) {
            const uint64_t word = base + static_cast<uint64_t>(in) * is +
                                  static_cast<uint64_t>(y) * rs + static_cast<uint64_t>(xx) * ps +
                                  static_cast<uint64_t>(ch) / kP.lanes;
            x.data[((static_cast<size_t>(in) * h + y) * w + xx) * c + ch] =
                at(word, static_cast<unsigned>(ch) % kP.lanes);
          }
        }
      }
    }
    return x;
  }

  int8_t draw_value(unsigned style) {
    if (style == 0) return rng_() % 2 ? int8_t{-128} : int8_t{127};  // the extremes
    if (style == 1 && rng_() % 3 == 0) return rng_() % 2 ? int8_t{-128} : int8_t{127};
    return static_cast<int8_t>(rng_());
  }

  // Fills a tensor's words (lanes beyond C too: the engine must not let them leak).
  void fill_tensor(const PlanarTask& t, uint64_t base) {
    const unsigned style = draw(0, 3);
    const unsigned cw = t.channel_words(kP.lanes);
    for (unsigned n = 0; n < t.batch; ++n) {
      for (unsigned y = 0; y < t.height; ++y) {
        for (unsigned x = 0; x < t.width; ++x) {
          for (unsigned w = 0; w < cw; ++w) {
            const uint64_t word =
                base + n * t.in_image_stride + y * t.in_row_stride + x * t.in_pixel_stride + w;
            for (unsigned l = 0; l < kP.lanes; ++l) at(word, l) = draw_value(style);
          }
        }
      }
    }
  }

  // ---------------------------------------------------------------- tasks
  int32_t draw_multiplier() {
    switch (draw(0, 9)) {
      case 0: {
        static const int32_t kEdges[] = {std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int32_t>::max(), 0, 1 << 30, -1};
        return kEdges[draw(0, 4)];
      }
      case 1:
        return static_cast<int32_t>(rng_());
      default:  // QuantizeMultiplier's range
        return static_cast<int32_t>((int64_t{1} << 30) + static_cast<int64_t>(rng_() % (1U << 30)));
    }
  }
  int draw_shift() {
    return draw(0, 5) == 0 ? static_cast<int>(draw(0, 61)) - 31
                           : static_cast<int>(draw(0, 13)) - 12;
  }

  // The cycles a task may take under this run's back-pressure, from its start to its last
  // output word: the cycle model's (planar_cycles: a beat a cycle, then the pipeline) and,
  // for each beat, its read requests and its output word each waiting 1 / ready_probability
  // cycles for their ready, one after the other, and a cycle of the reads' random latency.
  // An upper estimate (the summary reports the tasks' cycles against it): it sizes tasks to
  // the cycles left.
  static uint64_t estimated_cycles(const PlanarTask& t) {
    const double ports = t.op == PlanarOp::kAdd ? 3.0 : 2.0;
    const double per_beat = ports / npugen::design::kReadyProbability + 1.0;
    return planar_cycles(kP, t) +
           static_cast<uint64_t>(static_cast<double>(planar_beats(kP, t)) * per_beat);
  }
  // Cycles from programming a task to its start: its register writes (a two-cycle APB
  // transfer each, and idle cycles between them), its gain table rows.
  static uint64_t program_cycles(const PlanarTask& t) {
    const uint64_t rows = t.op == PlanarOp::kGainBias ? (t.channels + kV - 1) / kV
                          : t.op == PlanarOp::kLut    ? kP.lut_rows()
                                                      : 0;
    return 4 * csr::task_writes(t).size() + rows + 2;
  }
  // The cycle a task programmed into group g now would start at the earliest: after the
  // other group's task (its estimated end), else now.
  uint64_t start_cycle(unsigned g) const {
    const auto& other = running_[g ^ 1U];
    return other ? std::max(other->estimated_end, cycle_) : cycle_;
  }

  // Shrinks task t until its estimated end (from cycle `start`, with twice the estimated
  // cycles: the waits for ready are random) is within the run's cycles: the batch halved, then the
  // longer side, then the channels, then a pooling window (its padding below it); false when it is
  // as small as it gets and still does not fit.
  bool fit_budget(PlanarTask& t, uint64_t start) const {
    const bool pool = is_pool(t.op);
    auto fits = [&] { return start + program_cycles(t) + 2 * estimated_cycles(t) <= cycles_; };
    while (!fits()) {
      // The least height and width a pooling window still fits in (with its padding).
      const unsigned min_h =
          pool ? std::max(1U, t.kernel_h - std::min(t.kernel_h - 1, t.pad_top + t.pad_bottom)) : 1;
      const unsigned min_w =
          pool ? std::max(1U, t.kernel_w - std::min(t.kernel_w - 1, t.pad_left + t.pad_right)) : 1;
      if (t.batch > 1) {
        t.batch /= 2;
      } else if (t.height > min_h && (t.height >= t.width || t.width <= min_w)) {
        t.height = std::max(min_h, t.height / 2);
      } else if (t.width > min_w) {
        t.width = std::max(min_w, t.width / 2);
      } else if (t.channels > 1) {
        t.channels /= 2;
      } else if (pool && (t.kernel_h > 1 || t.kernel_w > 1)) {
        t.kernel_h = std::max(1U, t.kernel_h / 2), t.kernel_w = std::max(1U, t.kernel_w / 2);
        t.pad_top = std::min(t.pad_top, t.kernel_h - 1);
        t.pad_bottom = std::min(t.pad_bottom, t.kernel_h - 1);
        t.pad_left = std::min(t.pad_left, t.kernel_w - 1);
        t.pad_right = std::min(t.pad_right, t.kernel_w - 1);
      } else {
        return false;
      }
    }
    return true;
  }

  // A task the hardware takes, of an operation the design generates, whose tensors fit the
  // group's half of the memory, sized to end within the run's cycles (fit_budget).
  // `smallest`: the smallest such task (1 x 1 x 1, one image, a 1 x 1 window), which, when
  // no task is in the engine and none has been checked, is programmed even where its
  // estimate runs past the run's end.
  std::optional<PlanarTask> random_task(unsigned g, bool smallest) {
    if (kWhole && running_[g ^ 1U]) {
      last_skip_ = "the other group's task holds the whole memory";
      return std::nullopt;
    }
    std::vector<PlanarOp> ops;
    for (unsigned o = 0; o < kPlanarOpCount; ++o) {
      const auto op = static_cast<PlanarOp>(o);
      if (!kP.generates(op)) continue;
      // The gain table (which holds the LUT) is shared: one task that reads it enabled at a
      // time.
      auto reads_table = [](PlanarOp o) { return o == PlanarOp::kGainBias || o == PlanarOp::kLut; };
      if (reads_table(op) && running_[g ^ 1U] && reads_table(running_[g ^ 1U]->t.op)) {
        continue;
      }
      ops.push_back(op);
    }
    if (ops.empty()) return std::nullopt;
    PlanarTask t;
    if (throughput_) {  // each operation in turn
      t.op = static_cast<PlanarOp>(throughput_op_);
      if (std::find(ops.begin(), ops.end(), t.op) == ops.end()) {
        if (!kP.generates(t.op)) throughput_op_ = (throughput_op_ + 1) % kPlanarOpCount;
        return std::nullopt;
      }
    } else {
      // Pooling, the engine's most intricate path, a third of the time when generated.
      std::vector<PlanarOp> pools;
      for (const PlanarOp op : ops) {
        if (is_pool(op)) pools.push_back(op);
      }
      t.op = !pools.empty() && draw(0, 2) == 0
                 ? pools[draw(0, static_cast<unsigned>(pools.size()) - 1)]
                 : ops[draw(0, static_cast<unsigned>(ops.size()) - 1)];
    }
    t.axis = draw(0, 1) ? PlanarAxis::kChannels : PlanarAxis::kSpatial;
    const unsigned shape = draw(0, 5);
    const unsigned cap_h = std::min(kP.max_height, throughput_ ? 16U : 10U);
    const unsigned cap_w = std::min(kP.max_width, throughput_ ? 16U : 10U);
    t.height = shape == 0 ? 1 : draw(1, cap_h);
    t.width = shape == 1 ? 1 : draw(1, cap_w);
    t.channels = draw(0, 3) == 0 ? std::min(kP.max_channels, kV * draw(1, 3))
                                 : draw(1, std::min(kP.max_channels, 3 * kV));
    t.batch = draw(0, 3) == 0 ? draw(1, std::min(kP.max_batch, 3U)) : 1;
    // Now and then one dimension at its generated maximum (the counters' widest values;
    // the task is drawn again when it does not fit the memory).
    if (!throughput_ && draw(0, 7) == 0) {
      switch (draw(0, 3)) {
        case 0:
          t.height = kP.max_height, t.width = 1;
          break;
        case 1:
          t.width = kP.max_width, t.height = 1;
          break;
        case 2:
          t.channels = kP.max_channels;
          break;
        default:
          t.batch = kP.max_batch;
      }
    }
    if (throughput_) t.channels = std::min(kP.max_channels, kV * draw(1, 2)), t.batch = 1;
    if (is_pool(t.op)) {
      t.kernel_h = draw(1, kP.max_window), t.kernel_w = draw(1, kP.max_window);
      t.stride_y = draw(1, kP.max_stride), t.stride_x = draw(1, kP.max_stride);
      // Padding: the most a side allows half of the time (every side padded now and then).
      auto pad = [&](unsigned kernel) {
        const unsigned most = std::min(kP.max_pad, kernel - 1);
        return draw(0, 1) ? most : draw(0, most);
      };
      t.pad_top = pad(t.kernel_h), t.pad_bottom = pad(t.kernel_h);
      t.pad_left = pad(t.kernel_w), t.pad_right = pad(t.kernel_w);
      t.height = std::max(t.height, t.kernel_h);
      t.width = std::max(t.width, t.kernel_w);
      t.height = std::min(t.height, kP.max_height);
      t.width = std::min(t.width, kP.max_width);
    }
    if (smallest) {
      t.height = t.width = t.channels = t.batch = 1;
      t.kernel_h = t.kernel_w = t.stride_y = t.stride_x = 1;
      t.pad_top = t.pad_bottom = t.pad_left = t.pad_right = 0;
    }
    // Refused tasks first: the cycle model counts only what the hardware takes.
    if (const std::string why = planar_refusal(kP, t); !why.empty()) {
      last_skip_ = fmt::format("a {} task refused: {}", planar_op_name(t.op), why);
      return std::nullopt;
    }
    const uint64_t start = start_cycle(g);
    const bool last_chance = smallest && words_checked_ == 0 && !running_[0] && !running_[1];
    if (!fit_budget(t, start) && !last_chance) {
      last_skip_ = fmt::format(
          "a {} task of {} x {} x {} x {}, as small as it gets, would take {} cycles from "
          "cycle {} (at ready_probability {}), past the run's {}",
          planar_op_name(t.op), t.batch, t.height, t.width, t.channels,
          program_cycles(t) + 2 * estimated_cycles(t), start, npugen::design::kReadyProbability,
          cycles_);
      return std::nullopt;
    }
    t.a_zero_point = static_cast<int>(draw(0, 255)) - 128;
    t.b_zero_point = static_cast<int>(draw(0, 255)) - 128;
    t.out_zero_point = static_cast<int>(draw(0, 255)) - 128;
    t.left_shift = draw(0, 3) == 0 ? draw(0, PlanarParams::kMaxLeftShift) : 20;
    t.a_multiplier = draw_multiplier(), t.b_multiplier = draw_multiplier();
    t.out_multiplier = draw_multiplier();
    t.a_shift = draw_shift(), t.b_shift = draw_shift(), t.out_shift = draw_shift();
    switch (draw(0, 3)) {
      case 0:
        t.act_min = t.out_zero_point, t.act_max = 127;  // relu
        break;
      case 1: {
        int lo = static_cast<int>(draw(0, 255)) - 128, hi = static_cast<int>(draw(0, 255)) - 128;
        if (lo > hi) std::swap(lo, hi);
        t.act_min = lo, t.act_max = hi;
        break;
      }
      default:
        t.act_min = -128, t.act_max = 127;
    }
    // Layout: the group's half of the memory, A, B and the output one after the other with
    // random gaps; now and then strides with spare words.
    const unsigned cw = t.channel_words(kP.lanes);
    const unsigned spare = draw(0, 3) == 0 ? 1 : 0;
    t.in_pixel_stride = cw + spare;
    t.in_row_stride = t.in_pixel_stride * t.width + spare;
    t.in_image_stride = t.in_row_stride * t.height + spare;
    const unsigned ocw = (t.out_channels() + kP.lanes - 1) / kP.lanes;
    t.out_pixel_stride = ocw + spare;
    t.out_row_stride = t.out_pixel_stride * t.out_width() + spare;
    t.out_image_stride = t.out_row_stride * t.out_height() + spare;
    uint64_t in_span = t.in_image_stride * t.batch + kP.words;
    uint64_t b_span = in_span;
    uint64_t out_span = t.out_image_stride * t.batch + kP.words;
    const uint64_t half = kWhole ? kWords : kWords / 2;
    bool b_is_a = false;  // add reading one tensor twice
    // A few words of margin where the memory is not small (a small one keeps all).
    const uint64_t margin = half >= 64 ? 16 : 0;
    if (2 * in_span + out_span + margin > half) {
      // A small memory: the tensors packed, room for B only with add (a beat's reads beyond
      // a tensor read words of the shared memory, which the writes, masked to the output's
      // words, never clobber).
      in_span = t.in_image_stride * t.batch;
      b_span = t.op == PlanarOp::kAdd ? in_span : 0;
      out_span = t.out_image_stride * t.batch;
      // Where A, B and the output do not fit, add reads A as B too (A + A).
      if (b_span > 0 && in_span + b_span + out_span > half) b_span = 0, b_is_a = true;
    }
    if (in_span + b_span + out_span > half) {
      last_skip_ = fmt::format(
          "a {} task of {} x {} x {} x {} needs {} words, half the memory (planar.act_words "
          "{}, addresses wrapping at {}) is {}",
          planar_op_name(t.op), t.batch, t.height, t.width, t.channels, in_span + b_span + out_span,
          kP.act_words, kWords, half);
      return std::nullopt;
    }
    if (const std::string why = planar_refusal(kP, t); !why.empty()) {
      last_skip_ = fmt::format("a {} task refused: {}", planar_op_name(t.op), why);
      return std::nullopt;
    }
    const uint64_t slack = half - (in_span + b_span + out_span);
    uint64_t at = (kWhole ? 0 : g * half) + rng_() % (slack / 4 + 1);
    t.a_base = at;
    at += in_span + rng_() % (slack / 4 + 1);
    t.b_base = b_is_a ? t.a_base : at;
    at += b_span + rng_() % (slack / 4 + 1);
    t.out_base = at;
    return t;
  }

  // The reference's output of task t on the memory's current contents.
  std::vector<int8_t> reference_output(const PlanarTask& t, const std::vector<PlanarGain>& gains) {
    auto input = [&](uint64_t base) {
      return read_tensor(static_cast<int>(t.batch), static_cast<int>(t.height),
                         static_cast<int>(t.width), static_cast<int>(t.channels), base,
                         t.in_pixel_stride, t.in_row_stride, t.in_image_stride);
    };
    const reference::Tensor b = t.op == PlanarOp::kAdd ? input(t.b_base) : reference::Tensor{};
    return planar_reference_output(t, input(t.a_base), b, gains);
  }

  // Marks (or clears) the words of task t's output in its half's map.
  void mark_output(const PlanarTask& t, bool on) {
    const uint64_t half = kWords / 2;
    const unsigned g = static_cast<unsigned>((t.out_base % kWords) / half);
    auto& marks = out_word_[g];
    if (marks.empty()) marks.assign(half, false);
    const unsigned ocw = (t.out_channels() + kP.lanes - 1) / kP.lanes;
    for (unsigned n = 0; n < t.batch; ++n) {
      for (unsigned y = 0; y < t.out_height(); ++y) {
        for (unsigned x = 0; x < t.out_width(); ++x) {
          for (unsigned w = 0; w < ocw; ++w) {
            const uint64_t word = (t.out_base + n * t.out_image_stride + y * t.out_row_stride +
                                   x * t.out_pixel_stride + w) %
                                  kWords;
            marks[word % half] = on;
          }
        }
      }
    }
  }

  void finish_task(unsigned g) {
    Task& task = *running_[g];
    const PlanarTask& t = task.t;
    const reference::Tensor got =
        read_tensor(static_cast<int>(t.batch), static_cast<int>(t.out_height()),
                    static_cast<int>(t.out_width()), static_cast<int>(t.out_channels()), t.out_base,
                    t.out_pixel_stride, t.out_row_stride, t.out_image_stride);
    for (size_t i = 0; i < got.data.size(); ++i) {
      if (got.data[i] == task.expected[i]) continue;
      const auto c = static_cast<int>(i % static_cast<size_t>(got.c));
      const auto x = static_cast<int>(i / static_cast<size_t>(got.c) % static_cast<size_t>(got.w));
      const auto y =
          static_cast<int>(i / static_cast<size_t>(got.c * got.w) % static_cast<size_t>(got.h));
      const auto n = static_cast<int>(i / static_cast<size_t>(got.c * got.w * got.h));
      pending_failures_.push_back(
          fmt::format("RTL vs reference, {}: output (n {}, y {}, x {}, c {}): reference {}, RTL {}",
                      task_text(t), n, y, x, c, task.expected[i], got.data[i]));
      break;
    }
    words_checked_ += got.data.size();
    if (task.idle_start && !throughput_) {
      // Started from idle: its cycles against the estimate that sized it.
      const double ratio =
          static_cast<double>(cycle_ - task.enable_cycle) / static_cast<double>(task.estimate);
      worst_ratio_ = std::max(worst_ratio_, ratio);
      ++timed_tasks_;
    }
    mark_output(t, false);
    ++tasks_done_;
    ++op_tasks_[static_cast<unsigned>(t.op)];
    if (throughput_) {
      const uint64_t beats = planar_beats(kP, t);
      const uint64_t cycles = cycle_ - task.enable_cycle;  // cycle_: the task's last write
      const uint64_t issued = golden_.beats_issued() - task.beats_at_start;
      if (task.alone && issued != beats) {
        pending_failures_.push_back(fmt::format(
            "{}: the rasterizer issued {} beats; the cycle model (planar_beats) says {}",
            task_text(t), issued, beats));
      }
      auto& m = measures_[static_cast<unsigned>(t.op)];
      m.tasks += 1;
      m.beats += beats;
      m.in_words += t.in_words(kP.lanes) * (t.op == PlanarOp::kAdd ? 2 : 1);
      m.out_words += t.out_words(kP.lanes);
      m.bound += (std::max(t.in_words(kP.lanes), t.out_words(kP.lanes)) + kP.words - 1) / kP.words;
      if (task.alone && task.idle_start) {
        m.idle_tasks += 1;
        m.idle_cycles += cycles;
        m.model_cycles += planar_cycles(kP, t);
        if (cycles != planar_cycles(kP, t)) {
          pending_failures_.push_back(fmt::format(
              "{}: started from idle, it took {} cycles; the cycle model (planar_cycles) says {}",
              task_text(t), cycles, planar_cycles(kP, t)));
        }
      }
    }
    running_[g].reset();
  }

  void push_task(unsigned g, const PlanarTask& t) {
    for (const auto& w : csr::task_writes(t))
      apb_.push({true, group_address(g, w.offset), w.value});
  }

  void clear_cfg_err() { apb_.push({true, csr::kStatus, 1U << csr::kStatusCfgErrBit}); }

  // A task the hardware must refuse: one rule broken.
  PlanarTask refused_task() {
    PlanarTask t = PlanarTask::dense(kP, PlanarOp::kMaxPool, 4, 4, 1, 1);
    for (unsigned o = 0; o < kPlanarOpCount; ++o) {
      if (kP.generates(static_cast<PlanarOp>(o))) t.op = static_cast<PlanarOp>(o);
    }
    t.kernel_h = t.kernel_w = 1;
    t.height = std::min(t.height, kP.max_height), t.width = std::min(t.width, kP.max_width);
    // The rules that read the window need a pooling operation (else "not generated").
    auto pool = [&] {
      t.op = kP.generates(PlanarOp::kMaxPool) ? PlanarOp::kMaxPool : PlanarOp::kAvgPool;
    };
    auto above = [](unsigned max, unsigned field_max) { return std::min(max + 1, field_max); };
    switch (draw(0, 29)) {
      case 0:
      case 1: {  // an operation not generated (MODE.OP's eight values are all operations;
                 // with every one generated, a height of 0)
        bool all = true;
        for (unsigned o = 0; o < kPlanarOpCount; ++o) {
          if (!kP.generates(static_cast<PlanarOp>(o))) t.op = static_cast<PlanarOp>(o), all = false;
        }
        if (all) t.height = 0;
        break;
      }
      case 2:
        t.height = 0;
        break;
      case 3:
        t.height = kP.max_height + 1;
        break;
      case 4:
        t.width = 0;
        break;
      case 5:
        t.width = kP.max_width + 1;
        break;
      case 6:
        t.channels = 0;
        break;
      case 7:
        t.channels = kP.max_channels + 1;
        break;
      case 8:
        t.batch = 0;
        break;
      case 9:
        t.batch = kP.max_batch + 1;
        break;
      case 10:
        pool(), t.kernel_h = 0;
        break;
      case 11:
        pool(), t.kernel_w = 0;
        break;
      case 12:
        pool(), t.kernel_h = above(kP.max_window, PlanarParams::kMaxSmall);
        break;
      case 13:
        pool(), t.kernel_w = above(kP.max_window, PlanarParams::kMaxSmall);
        break;
      case 14:
        pool(), t.stride_y = 0;
        break;
      case 15:
        pool(), t.stride_x = 0;
        break;
      case 16:
        pool(), t.stride_y = above(kP.max_stride, PlanarParams::kMaxSmall);
        break;
      case 17:
        pool(), t.kernel_w = kP.max_window;
        t.pad_left = above(kP.max_pad, PlanarParams::kMaxSmall);
        break;
      case 18:  // padding not below the window, on each side
        pool(), t.kernel_h = std::min<unsigned>(2, kP.max_window), t.pad_top = t.kernel_h;
        break;
      case 19:
        pool(), t.kernel_h = std::min<unsigned>(2, kP.max_window), t.pad_bottom = t.kernel_h;
        break;
      case 20:
        pool(), t.kernel_w = std::min<unsigned>(2, kP.max_window), t.pad_left = t.kernel_w;
        break;
      case 21:
        pool(), t.kernel_w = std::min<unsigned>(2, kP.max_window), t.pad_right = t.kernel_w;
        break;
      case 22:  // a kernel beyond the padded input
        pool(), t.height = 1, t.kernel_h = std::min<unsigned>(2, kP.max_window);
        break;
      case 23:
        pool(), t.width = 1, t.kernel_w = std::min<unsigned>(2, kP.max_window);
        break;
      case 24:
        t.act_min = 10, t.act_max = -10;
        break;
      case 25:
        t.op = PlanarOp::kAdd, t.left_shift = PlanarParams::kMaxLeftShift + 1;
        break;
      case 26:
        t.op = PlanarOp::kAdd, t.a_shift = -32;
        break;
      case 27:
        t.op = PlanarOp::kAdd, t.b_shift = 31;
        break;
      case 28:
        t.op = PlanarOp::kReduceSum, t.out_shift = -32;
        break;
      default:
        t.op = PlanarOp::kAdd, t.out_shift = 31;
    }
    return t;
  }

  // The next register traffic, when the port is free and the table written.
  void plan_registers() {
    const unsigned g = next_group_;
    const unsigned r = draw(0, 99);
    if (!throughput_ && r < 5) {
      static const uint32_t kReads[] = {csr::kStatus,
                                        csr::kInfo,
                                        csr::kLimits,
                                        csr::kMaxShape,
                                        csr::kMaxDepth,
                                        csr::kTasksDone,
                                        group_address(1, csr::kWindow),
                                        0x7c,
                                        group_address(0, csr::kShifts),
                                        group_address(1, 0x50)};
      apb_.push({false, kReads[draw(0, 9)], 0});
      return;
    }
    if (!throughput_ && r < 8 && golden_.enabled(g ^ 1U)) {
      apb_.push({true, group_address(g ^ 1U, csr::kInShape), static_cast<uint32_t>(rng_())});
      clear_cfg_err();
      return;
    }
    if (golden_.enabled(g) || running_[g]) return;  // the group still holds its task
    if (throughput_ && (golden_.enabled(g ^ 1U) || running_[g ^ 1U]) && idle_phase_) return;
    if (!throughput_ && draw(0, 4) == 0) {
      const PlanarTask bad = refused_task();
      if (planar_refusal(kP, bad).empty()) return;
      push_task(g, bad);
      apb_.push({false, csr::kStatus, 0});
      clear_cfg_err();
      ++refused_;
      return;
    }
    std::optional<PlanarTask> t;
    for (int tries = 0; tries < 8 && !t; ++tries) t = random_task(g, false);
    if (!t) t = random_task(g, true), smallest_tasks_ += t.has_value();
    if (!t) return;
    if (throughput_) {
      // Each operation in turn; the first round starts every task from idle (the cycle
      // model's check), the later ones back to back.
      throughput_op_ = (throughput_op_ + 1) % kPlanarOpCount;
      if (++throughput_tasks_ > 2 * kPlanarOpCount) idle_phase_ = false;
    }
    fill_tensor(*t, t->a_base);
    if (t->op == PlanarOp::kAdd && t->b_base != t->a_base) fill_tensor(*t, t->b_base);
    b_is_a_ += t->op == PlanarOp::kAdd && t->b_base == t->a_base;
    std::vector<PlanarGain> gains;
    if (t->op == PlanarOp::kGainBias) {
      const unsigned rows = (t->channels + kV - 1) / kV;
      for (unsigned row = 0; row < rows; ++row) {
        std::vector<PlanarGain> entries(kV);
        for (auto& e : entries) {
          e.bias = draw(0, 3) == 0 ? static_cast<int32_t>(rng_())
                                   : static_cast<int32_t>(draw(0, 2000)) - 1000;
          e.multiplier = draw_multiplier();
          // -31 to 30, and now and then -32, which the field means as -31.
          e.shift = draw(0, 40) == 0 ? -32 : static_cast<int>(draw(0, 61)) - 31;
          gains.push_back(e);
        }
        params_.emplace_back(row, entries);
      }
    } else if (t->op == PlanarOp::kLut) {
      // A table of random bytes, or now and then a monotone one (a sigmoid's shape) or a
      // constant; the rows' entries beyond the LUT's are random (never read).
      npugen::golden::PlanarLut lut{};
      const unsigned kind = draw(0, 5);
      for (unsigned i = 0; i < lut.size(); ++i) {
        lut[i] = static_cast<int8_t>(kind == 0   ? static_cast<int>(i) / 2 - 64
                                     : kind == 1 ? -128
                                                 : static_cast<int>(draw(0, 255)) - 128);
      }
      gains = npugen::golden::lut_entries(lut);
      for (unsigned row = 0; row < kP.lut_rows(); ++row) {
        std::vector<PlanarGain> entries(kV);
        for (unsigned l = 0; l < kV; ++l) {
          const size_t e = size_t{row} * kV + l;
          entries[l] = e < gains.size() ? gains[e]
                                        : PlanarGain{static_cast<int32_t>(rng_()),
                                                     static_cast<int32_t>(rng_()), 0};
        }
        params_.emplace_back(row, entries);
      }
    }
    Task task;
    task.t = *t;
    task.estimate = estimated_cycles(*t);
    task.estimated_end = start_cycle(g) + program_cycles(*t) + task.estimate;
    task.expected = reference_output(*t, gains);
    task.alone = throughput_ && idle_phase_;
    mark_output(*t, true);
    running_[g] = task;
    push_task(g, *t);
    ++programmed_;
    shapes_[0] += is_pool(t->op) && (t->kernel_h > t->stride_y || t->kernel_w > t->stride_x);
    shapes_[1] += is_pool(t->op) && t->pad_top > 0 && t->pad_bottom > 0 && t->pad_left > 0 &&
                  t->pad_right > 0;
    shapes_[2] += t->channels % kV != 0;
    shapes_[3] += t->height == 1 || t->width == 1;
    shapes_[4] += t->batch > 1;
    shapes_[5] += is_reduce(t->op) && t->axis == PlanarAxis::kChannels;
    edge_tasks_ += t->height == kP.max_height || t->width == kP.max_width ||
                   t->channels == kP.max_channels || t->batch == kP.max_batch;
    next_group_ ^= 1U;
  }

  void report_throughput(Checker& check, npugen::tb::RunSummary& s) {
    // Every generated operation ran alone from idle (its cycles against the cycle model).
    for (unsigned o = 0; o < kPlanarOpCount; ++o) {
      const auto op = static_cast<PlanarOp>(o);
      s.goal(fmt::format("{} tasks timed from idle", planar_op_name(op)), measures_[o].idle_tasks,
             kP.generates(op));
    }
    (void)check;
    for (unsigned o = 0; o < kPlanarOpCount; ++o) {
      const auto& m = measures_[o];
      if (m.tasks == 0) continue;
      s.lines.push_back(fmt::format(
          "{}: {} tasks, {} beats for {} words in, {} out; beats / ceil(max(in, out) / W) = "
          "{:.3f}; {} started from idle: {} cycles, the cycle model {}",
          planar_op_name(static_cast<PlanarOp>(o)), m.tasks, m.beats, m.in_words, m.out_words,
          m.bound == 0 ? 0.0 : static_cast<double>(m.beats) / static_cast<double>(m.bound),
          m.idle_tasks, m.idle_cycles, m.model_cycles));
    }
    s.lines.push_back(fmt::format(
        "throughput: {} beats made in {} cycles with a task in the rasterizer ({:.3f} beats, "
        "{:.3f} words in a cycle at W = {})",
        beats_made_, stream_cycles_,
        stream_cycles_ == 0
            ? 0.0
            : static_cast<double>(beats_made_) / static_cast<double>(stream_cycles_),
        stream_cycles_ == 0
            ? 0.0
            : static_cast<double>(beats_made_) * kP.words / static_cast<double>(stream_cycles_),
        kP.words));
  }

  struct Measure {
    uint64_t tasks = 0, beats = 0, in_words = 0, out_words = 0, bound = 0;
    uint64_t idle_tasks = 0, idle_cycles = 0, model_cycles = 0;
  };

  bool throughput_;
  uint64_t cycles_;
  std::mt19937_64 rng_;
  uint64_t ready_threshold_;
  PlanarModel golden_;
  ApbMaster apb_;
  std::vector<int8_t> mem_;
  std::vector<std::vector<bool>> out_word_;  ///< per half: words of an output being written
  PlanarInputs in_;
  PlanarOutputs want_;
  uint64_t cycle_ = 0;
  ReadPort a_port_, b_port_;
  std::deque<std::pair<unsigned, std::vector<PlanarGain>>> params_;
  std::array<std::optional<Task>, csr::kGroups> running_;
  std::vector<std::string> pending_failures_;  ///< found at an edge, reported next cycle
  unsigned next_group_ = 0;
  unsigned throughput_op_ = 0, throughput_tasks_ = 0;
  bool idle_phase_ = true;
  std::string last_skip_;  ///< why the last random task was drawn again
  uint64_t smallest_tasks_ = 0;
  uint64_t b_is_a_ = 0;     ///< add tasks reading A twice (no room for B)  ///< tasks drawn the
                            ///< smallest: no random one fitted the cycles
  double worst_ratio_ = 0;  ///< the most a task started from idle took of its estimate
  uint64_t timed_tasks_ = 0;
  uint64_t tasks_done_ = 0, words_checked_ = 0, programmed_ = 0, refused_ = 0, busy_writes_ = 0;
  uint64_t beats_issued_ = 0, beats_made_ = 0, stream_cycles_ = 0;
  uint64_t shapes_[6] = {};
  uint64_t edge_tasks_ = 0;  ///< drawn with a dimension at its maximum
  std::array<uint64_t, kPlanarOpCount> op_tasks_{};
  std::array<Measure, kPlanarOpCount> measures_{};
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<PlanarBench>(argc, argv); }
