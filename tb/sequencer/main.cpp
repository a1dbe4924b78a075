// Co-simulation of a generated sequencer: the verilated RTL and the
// golden model (which composes the address generator's, the PE array's and the post unit's)
// run the same seeded stimulus; every output is compared every cycle from the first cycle
// of reset: the APB port, the host port's ready and read data, busy, layer_done, CFG_ERR
// and the observation port (every array step, every buffer write with its address, lanes
// and data). At every layer's end the output tensor, read from the golden model's buffer
// (which the RTL's writes match, write by write), is checked against the plain reference
// (golden::reference::conv2d_direct, fully_connected: TFLite int8 loops sharing no code
// with the models).
//
// The stimulus runs programs of 1 to 4 layers, each layer reading what the last one wrote
// or (a sibling) what the last one read: random conv layers (1x1 kernels, padding on every
// side, stride above the kernel, C and K not multiples of L and T, several images, H or W
// of 1), fc and fc_batch layers over the flattened tensor, every dataflow generated. A
// program's tensors, weights and parameters live in one half of each memory, so the next
// program loads through the host port while this one runs; layers are programmed into the
// two register groups as soon as a group is free. Host reads of every memory go on in the
// background, refused layers set CFG_ERR, registers are read at random addresses.
//
// --mode perf runs larger layers with no background traffic and reports each layer's
// cycles against the mapping bound and its weight reads per MAC.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "common/apb_port.hpp"
#include "common/cosim.hpp"
#include "common/port_bits.hpp"
#include "npugen/golden/agu/reference.hpp"
#include "npugen/golden/post/reference.hpp"
#include "npugen/golden/sequencer/lowering.hpp"
#include "npugen/golden/sequencer/model.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::get_bits;
using npugen::tb::set_bits;
namespace csr = sequencer_csr;

SequencerDesign the_design() {
  SequencerDesign d;
  d.seq = npugen::design::kSequencer;
  d.agu = npugen::design::kAgu;
  d.array = npugen::design::kPeArray;
  d.post = npugen::design::kPost;
  d.zs = npugen::design::sequencer_zs();
  return d;
}

const SequencerDesign kD = the_design();

class SequencerBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the sequencer of design {} (RTL against the golden model every "
        "cycle, and every layer's output against the plain reference)",
        npugen::design::kName);
    s.modes = {"check", "perf", "layers"};
    s.modes_help =
        "check: programs of random layers of every dataflow, host traffic in the background, "
        "refused layers; perf: larger layers alone, each layer's cycles against the mapping "
        "bound; layers: a fixed table of layers (docs/benchmarks.md) alone, the same figures "
        "and the activation words read in im2col and MEC order";
    return s;
  }

  explicit SequencerBench(const BenchOptions& o)
      : perf_(o.mode == "perf" || o.mode == "layers"),
        table_(o.mode == "layers"),
        cycles_(o.cycles),
        rng_(o.seed),
        golden_(kD),
        apb_(csr::kAddrBits),
        data_bytes_((kD.mem_data_bits() + 7) / 8) {}

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    const uint64_t r = junk();
    in_.apb = npugen::tb::arbitrary_request(r, static_cast<uint32_t>(r >> 8) & 0x3ffU);
    // The memories have no reset: nothing is written into them in reset.
    in_.mem = MemRequest{};
    in_.mem.write = (junk() & 1U) != 0;
    in_.mem.target = static_cast<MemTarget>(junk() % 4);
    drive(dut, in_);
  }
  void check_reset(const Vdut& dut, Checker& check) { compare(dut, golden_.outputs(in_), check); }

  bool drive(Vdut& dut, uint64_t cycle) {
    if (table_ && next_shape_ >= kShapes.size() && layers_.empty() && host_.empty()) return false;
    if (!table_ && cycle >= cycles_ && layers_.empty() && host_.empty()) return false;
    if (cycle >= cycles_ + 200000) {
      stuck_ = true;
      return false;
    }
    plan(cycle);
    drive(dut, in_);
    want_ = golden_.outputs(in_);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    compare(dut, want_, check);
    for (const auto& f : failures_) check.fail(f);
    failures_.clear();
    if (in_.mem.valid && want_.mem_ready) {
      if (host_from_queue_) host_.pop_front(), ++host_issued_;
      ++(in_.mem.write ? host_writes_ : host_reads_);
      if (!in_.mem.write) ++target_reads_[static_cast<unsigned>(in_.mem.target)];
    } else if (in_.mem.valid) {
      ++host_waits_;
    }
    if (want_.step) ++steps_;
    if (want_.busy) ++busy_cycles_;
  }

  void tick() {
    golden_.tick(in_);
    apb_.advance(want_.apb);
    if (want_.layer_done) layer_done();
    ++now_;
  }

  void finish(Checker& check, npugen::tb::RunSummary& s) {
    if (stuck_) {
      check.fail(fmt::format("{} layer(s) did not finish within 200000 cycles of the run's end",
                             layers_.size()));
      return;
    }
    s.count("layers checked", layers_done_);
    for (unsigned d = 0; d < kDataflowCount; ++d) {
      s.count(fmt::format("{} layers", dataflow_name(static_cast<Dataflow>(d))), flows_[d]);
    }
    s.count("programs", programs_);
    s.count("array steps", steps_);
    s.compared("outputs checked", outputs_checked_);
    if (outputs_checked_ == 0) {
      s.vacuous_reasons.push_back(fmt::format(
          "{} program(s) of {} layer(s) run; the last program drawn that planned no layer: {}",
          programs_, layers_done_, last_skip_.empty() ? "none" : last_skip_));
    }
    if (smallest_programs_ > 0) {
      s.lines.push_back(fmt::format(
          "{} random programs planned no layer before any ran: {} smallest program(s) (a 1 x 1 "
          "x 1 input, one layer of one filter, a 1 x 1 kernel) ran",
          kSmallestAfter, smallest_programs_));
    }
    s.count("fc layers given the flattened input's own channel count", exact_flat_);
    if (whole_) {
      s.lines.push_back(
          "programs use the whole of every memory, one at a time: halves held no layer");
    }
    s.count("host writes", host_writes_);
    s.count("host reads", host_reads_);
    s.count("host requests that waited", host_waits_);
    s.count("layers refused", refused_);
    s.count("preloaded weight rows", golden_.preload_reads());
    s.count("cycles a layer waited for its input", golden_.hazard_waits());
    s.count("cycles a set waited for a cache row", golden_.cache_waits());
    s.count("cycles a set waited for a MEC window slot", golden_.window_waits());
    s.count("register reads", apb_.reads());
    s.count("transfers answered PSLVERR", apb_.errors());
    s.goal("layers checked", layers_done_);
    for (unsigned d = 0; d < kDataflowCount; ++d) {
      const auto flow = static_cast<Dataflow>(d);
      s.goal(fmt::format("{} layers", dataflow_name(flow)), flows_[d],
             kD.agu.generates(flow) && !table_);
      if (!kD.agu.generates(flow)) {
        s.limits.push_back(
            fmt::format("agu.dataflows leaves out {}: no such layer", dataflow_name(flow)));
      }
    }
    // The table's layers are what the design holds of a fixed list: no goals but a layer.
    if (table_) {
      s.limits.push_back(
          "--mode layers runs a fixed table of layers (those this design holds): its only goal "
          "is a layer checked");
    }
    s.goal("layers with padding", padded_, kD.agu.max_pad > 0 && !table_);
    s.goal("MEC layers", mec_layers_, kD.agu.mec_window > 0 && !table_);
    // Required where random layers reuse without relying on padding (H of 3 or more); the
    // window's read-after-write wait is counted above (a mutation shows it is checked).
    s.goal("activation words read from the MEC window", golden_.window_reads(),
           kD.agu.mec_reuse_possible() && kD.agu.max_height >= 3 && !table_);
    if (kD.agu.mec_window == 0) s.limits.push_back("agu.mec_window is 0: no MEC layer");
    s.goal("layers with several filter blocks", multi_block_,
           kD.agu.max_channels > kD.tiles() && !table_);
    s.goal("preloaded weight rows", golden_.preload_reads(),
           kD.agu.max_channels > kD.tiles() && !table_);
    if (!perf_) {
      s.goal("chained layers", chained_);
      s.goal("cycles a layer waited for its input", golden_.hazard_waits());
      s.goal("host requests that waited", host_waits_);
      for (unsigned t = 0; t < 3; ++t) {
        s.goal(fmt::format("host reads of {}", t == 0   ? "buffer A"
                                               : t == 1 ? "buffer B"
                                                        : "the store"),
               target_reads_[t]);
      }
      s.goal("layers refused", refused_);
      s.goal("register reads", apb_.reads());
      s.goal("transfers answered PSLVERR", apb_.errors());
    }
    if (kD.agu.max_pad == 0) s.limits.push_back("agu.max_pad is 0: no padded layer");
    if (kD.agu.max_channels <= kD.tiles()) {
      s.limits.push_back("agu.max_channels is at most pe_array.tiles: one filter block a layer");
    }
    const double utilisation =
        busy_cycles_ == 0 ? 0 : static_cast<double>(steps_) / static_cast<double>(busy_cycles_);
    s.lines.push_back(fmt::format(
        "{} array steps in {} busy cycles ({:.3f} a cycle); {} weight rows read, {} of them "
        "preloaded; {} activation words read",
        steps_, busy_cycles_, utilisation, golden_.weight_reads(), golden_.preload_reads(),
        golden_.act_reads()));
    for (const auto& line : perf_lines_) s.lines.push_back(line);
    if (table_) {
      s.lines.push_back(
          "| layer | cycles | mapping bound | bound / cycles | ceil(MACs/(T*L)) | MAC utilisation "
          "| weights read per MAC | activation words from the buffer | from the MEC window | "
          "im2col matrix words | input footprint words |");
      s.lines.push_back(
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
      for (const auto& row : table_rows_) s.lines.push_back(row);
    }
    for (unsigned d = 0; d < kDataflowCount && perf_; ++d) {
      if (perf_cycles_[d] == 0) continue;
      s.lines.push_back(fmt::format(
          "perf {}: {} cycles for a mapping bound of {} ({:.3f}); MAC utilisation {:.3f}; {:.4f} "
          "weights read per MAC",
          dataflow_name(static_cast<Dataflow>(d)), perf_cycles_[d], perf_bound_[d],
          static_cast<double>(perf_bound_[d]) / static_cast<double>(perf_cycles_[d]),
          static_cast<double>(perf_macs_[d]) /
              static_cast<double>(perf_cycles_[d] * kD.row_bytes()),
          static_cast<double>(perf_weights_[d]) / static_cast<double>(perf_macs_[d])));
    }
  }

  [[nodiscard]] std::vector<std::string> diagnose() const {
    std::vector<std::string> out = {fmt::format("layers checked so far: {}; layers in flight: {}",
                                                layers_done_, layers_.size())};
    for (const auto& l : layers_) {
      if (!l.programmed) break;
      out.push_back(fmt::format("running: {}", l.text));
    }
    return out;
  }
  [[nodiscard]] std::string repro_args() const {
    return table_ ? " --mode layers" : perf_ ? " --mode perf" : "";
  }

 private:
  struct Layer {
    LoweredLayer low;
    LayerPlacement at;
    reference::Tensor want;
    Dataflow flow = Dataflow::kConv;
    std::string text;
    uint64_t loaded_after = 0;  ///< host requests to take before it may be programmed
    bool programmed = false;
    uint64_t start = 0;  ///< cycle it was enabled
    uint64_t macs = 0;
    uint64_t weight_reads_before = 0;
    uint64_t act_reads_before = 0, window_reads_before = 0;
    std::string name;  ///< layers mode: the table's name for it
  };

  // layers mode: the table of layers measured (seq_default's maxima hold them all).
  struct Shape {
    const char* name;
    Dataflow flow;
    Order order;
    int n, h, w, c, k, kernel, stride, pad;
  };
  static constexpr Dataflow kConv = Dataflow::kConv;
  static constexpr Order kIm = Order::kIm2col, kMec = Order::kMec;
  static inline const std::vector<Shape> kShapes = {
      {"conv1 16x16x3 -> 8, 3x3 s1 p1", kConv, kIm, 1, 16, 16, 3, 8, 3, 1, 1},
      {"conv1 16x16x3 -> 8, 3x3 s1 p1", kConv, kMec, 1, 16, 16, 3, 8, 3, 1, 1},
      {"16x16x16 -> 16, 3x3 s1 p1", kConv, kIm, 1, 16, 16, 16, 16, 3, 1, 1},
      {"16x16x16 -> 16, 3x3 s1 p1", kConv, kMec, 1, 16, 16, 16, 16, 3, 1, 1},
      {"16x16x16 -> 32, 3x3 s2 p1", kConv, kIm, 1, 16, 16, 16, 32, 3, 2, 1},
      {"16x16x16 -> 32, 3x3 s2 p1", kConv, kMec, 1, 16, 16, 16, 32, 3, 2, 1},
      {"16x16x8 -> 16, 5x5 s1 p2", kConv, kIm, 1, 16, 16, 8, 16, 5, 1, 2},
      {"16x16x8 -> 16, 5x5 s1 p2", kConv, kMec, 1, 16, 16, 8, 16, 5, 1, 2},
      {"8x8x32 -> 64, 1x1", kConv, kIm, 1, 8, 8, 32, 64, 1, 1, 0},
      {"fc 512 -> 10, N 1", Dataflow::kFc, kIm, 1, 1, 1, 512, 10, 1, 1, 0},
      {"fc 512 -> 10, N 8", Dataflow::kFc, kIm, 8, 1, 1, 512, 10, 1, 1, 0},
      {"fc_batch 512 -> 10, N 8", Dataflow::kFcBatch, kIm, 8, 1, 1, 512, 10, 1, 1, 0},
      // Small enough for the odd designs.
      {"8x8x6 -> 6, 3x3 s1 p1", kConv, kIm, 1, 8, 8, 6, 6, 3, 1, 1},
      {"8x8x6 -> 6, 3x3 s1 p1", kConv, kMec, 1, 8, 8, 6, 6, 3, 1, 1},
      {"fc 36 -> 5, N 3", Dataflow::kFc, kIm, 3, 1, 1, 36, 5, 1, 1, 0},
      {"fc_batch 36 -> 5, N 3", Dataflow::kFcBatch, kIm, 3, 1, 1, 36, 5, 1, 1, 0},
  };

  // layers mode: the next layer of the table, alone, its input and weights at random.
  void plan_table_layer() {
    while (next_shape_ < kShapes.size()) {
      const Shape& sh = kShapes[next_shape_++];
      if (!kD.agu.generates(sh.flow)) continue;
      reference::Tensor x = random_tensor(sh.n, sh.h, sh.w, sh.c);
      reference::ConvLayer w = random_weights(sh.c, sh.k, sh.flow == kConv ? sh.kernel : sh.h,
                                              sh.flow == kConv ? sh.kernel : sh.w);
      w.stride_y = w.stride_x = sh.stride;
      w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = sh.pad;
      Layer l;
      l.flow = sh.flow;
      l.name = fmt::format("{}{}", sh.name,
                           sh.flow == kConv ? (sh.order == kMec ? " (MEC)" : " (im2col)") : "");
      l.text = l.name;
      l.want = sh.flow == kConv ? reference::conv2d_direct(x, w) : reference::fully_connected(x, w);
      l.macs = static_cast<uint64_t>(l.want.n) * l.want.h * l.want.w * sh.k * w.kernel_h *
               w.kernel_w * sh.c;
      l.at = LayerPlacement{0, 1, 0, 0, 0, 0};
      l.low = lower_layer(kD, sh.flow, x, w, l.at);
      l.low.regs.order = sh.order;
      const std::string why = agu_refusal(kD.agu, l.low.regs);
      if (!why.empty() || words_of(x) > kD.agu.act_words ||
          l.low.weight_rows.size() > kD.agu.weight_rows || l.low.params.size() > kD.post.groups()) {
        perf_lines_.push_back(fmt::format("layers: {}: does not fit this design ({})", l.name,
                                          why.empty() ? "its memories" : why));
        continue;
      }
      push_tensor(host_, x, l.at.in_buf, l.at.in_base);
      push_layer_data(host_, l.low, l.at);
      l.loaded_after = host_issued_ + host_.size();
      padded_ += sh.pad > 0;
      multi_block_ += l.low.regs.filter_blocks(kD.tiles()) > 1;
      weights_ = std::move(w);
      layers_.push_back(std::move(l));
      return;
    }
  }

  static void drive(Vdut& dut, const SequencerInputs& in) {
    npugen::tb::drive_apb(dut, in.apb);
    dut.mem_valid_i = in.mem.valid;
    dut.mem_write_i = in.mem.write;
    dut.mem_target_i = static_cast<unsigned>(in.mem.target);
    dut.mem_addr_i = in.mem.addr;
    for (size_t i = 0; i < in.mem.data.size(); ++i)
      set_bits(dut.mem_wdata_i, i * 8, 8, in.mem.data[i]);
  }

  void compare(const Vdut& dut, const SequencerOutputs& want, Checker& check) const {
    npugen::tb::compare_apb(dut, want.apb, check);
    check.compare("mem_ready_o", want.mem_ready, dut.mem_ready_o);
    check.compare("mem_free_o", want.mem_free, dut.mem_free_o);
    check.compare("mem_rsp_valid_o", want.mem_rsp_valid, dut.mem_rsp_valid_o);
    if (want.mem_rsp_valid) {
      for (unsigned i = 0; i < data_bytes_; ++i) {
        const uint64_t got = get_bits(dut.mem_rdata_o, i * 8, 8);
        if (got != want.mem_rdata[i]) {
          check.fail(
              fmt::format("mem_rdata_o byte {}: expected {}, got {}", i, want.mem_rdata[i], got));
          break;
        }
      }
    }
    check.compare("busy_o", want.busy, dut.busy_o);
    check.compare("layer_done_o", want.layer_done, dut.layer_done_o);
    check.compare("cfg_err_o", want.cfg_err, dut.cfg_err_o);
    check.compare("obs_step_o", want.step, dut.obs_step_o);
    check.compare("obs_wr_valid_o", want.write.valid, dut.obs_wr_valid_o);
    if (want.write.valid) {
      check.compare("obs_wr_buf_o", want.write.buf, dut.obs_wr_buf_o);
      check.compare("obs_wr_addr_o", want.write.addr, dut.obs_wr_addr_o);
      check.compare("obs_wr_mask_o", want.write.mask, get_bits(dut.obs_wr_mask_o, 0, kD.lanes()));
      for (unsigned l = 0; l < kD.lanes(); ++l) {
        const uint64_t got = get_bits(dut.obs_wr_data_o, l * 8, 8);
        if (got != want.write.data[l]) {
          check.fail(
              fmt::format("obs_wr_data_o lane {} (word {} of buffer {}): expected {}, got {}", l,
                          want.write.addr, want.write.buf ? 'B' : 'A',
                          static_cast<int8_t>(want.write.data[l]), static_cast<int8_t>(got)));
        }
      }
    }
  }

  int draw(int lo, int hi) {
    return hi <= lo ? lo : lo + static_cast<int>(rng_() % static_cast<uint64_t>(hi - lo + 1));
  }

  reference::Tensor random_tensor(int n, int h, int w, int c) {
    reference::Tensor t;
    t.n = n, t.h = h, t.w = w, t.c = c;
    t.data.resize(static_cast<size_t>(n * h * w * c));
    for (auto& x : t.data) {
      // Now and then the int8 extremes.
      x = static_cast<int8_t>(rng_() % 16 == 0 ? (rng_() % 2 ? 127 : -128) : draw(-128, 127));
    }
    return t;
  }

  reference::ConvLayer random_weights(int channels, int filters, int kh, int kw) {
    reference::ConvLayer l;
    l.filters = filters, l.kernel_h = kh, l.kernel_w = kw;
    l.weights.resize(static_cast<size_t>(filters * kh * kw * channels));
    for (auto& w : l.weights) w = static_cast<int8_t>(draw(-127, 127));
    l.input_zero_point = draw(-128, 127);
    const int zp = draw(-128, 127);
    const int lo = rng_() % 3 == 0 ? zp : -128;  // ReLU, or none
    const int hi = rng_() % 4 == 0 ? draw(std::max(lo, 0), 127) : 127;
    for (int k = 0; k < filters; ++k) {
      l.bias.push_back(draw(-30000, 30000));
      Requant r;
      r.multiplier =
          static_cast<int32_t>((int64_t{1} << 30) + static_cast<int64_t>(rng_() % (1U << 30)));
      r.shift = draw(-14, 0);
      r.zero_point = zp, r.act_min = lo, r.act_max = hi;
      l.output.push_back(r);
    }
    return l;
  }

  Dataflow random_flow(bool spatial) {
    for (int tries = 0; tries < 20; ++tries) {
      const auto flow = static_cast<Dataflow>(draw(0, kDataflowCount - 1));
      if (!kD.agu.generates(flow)) continue;
      if (spatial && flow != Dataflow::kConv && flow != Dataflow::kZeroSkip && rng_() % 2 == 0) {
        continue;  // conv (or zero_skip) mostly
      }
      return flow;
    }
    for (unsigned d = 0; d < kDataflowCount; ++d) {
      if (kD.agu.generates(static_cast<Dataflow>(d))) return static_cast<Dataflow>(d);
    }
    return Dataflow::kConv;
  }

  // A layer over `in` the hardware takes, or none (the shape admits none).
  std::optional<Layer> random_layer(const reference::Tensor& in, Dataflow flow) {
    const AguParams& a = kD.agu;
    const unsigned words = (static_cast<unsigned>(in.c) + kD.lanes() - 1) / kD.lanes();
    for (int tries = 0; tries < 30; ++tries) {
      Layer l;
      l.flow = flow;
      const int k =
          smallest_ ? 1
                    : draw(1, static_cast<int>(std::min(
                                  a.max_channels, perf_ ? 4 * kD.tiles() : 2 * kD.tiles() + 1)));
      reference::ConvLayer w;
      const bool zs = flow == Dataflow::kZeroSkip;
      if (flow == Dataflow::kConv || zs) {
        // The smallest layer: a 1 x 1 kernel, stride 1, no padding.
        const int top = smallest_ ? 1 : 4;
        const int kh = draw(1, static_cast<int>(std::min<unsigned>(a.max_kernel, top)));
        const int kw = draw(1, static_cast<int>(std::min<unsigned>(a.max_kernel, top)));
        w = random_weights(in.c, k, kh, kw);
        w.stride_y = draw(1, static_cast<int>(std::min<unsigned>(a.max_stride, smallest_ ? 1 : 3)));
        w.stride_x = draw(1, static_cast<int>(std::min<unsigned>(a.max_stride, smallest_ ? 1 : 3)));
        auto pad = [&](int kernel) {
          return smallest_ ? 0 : draw(0, std::min(static_cast<int>(a.max_pad), kernel - 1));
        };
        w.pad_top = pad(kh), w.pad_bottom = pad(kh), w.pad_left = pad(kw), w.pad_right = pad(kw);
        if (kh > in.h + w.pad_top + w.pad_bottom || kw > in.w + w.pad_left + w.pad_right) continue;
        // zero_skip: the pixel window fits the staged half, and most weights are 0 (each
        // filter pruned to a random density, some filters and rows empty).
        if (zs && uint64_t{static_cast<unsigned>(kh * kw)} * words > kD.zs_slot_rows()) continue;
        if (zs) {
          for (int f = 0; f < k; ++f) {
            const int keep = draw(0, 100);
            const size_t per = w.weights.size() / static_cast<size_t>(k);
            for (size_t i = 0; i < per; ++i) {
              if (draw(0, 99) >= keep) w.weights[static_cast<size_t>(f) * per + i] = 0;
            }
          }
        }
      } else {
        // Over the flattened input: every word of an image is a channel word (the lowering
        // counts every lane of them; flat_channels, the input's own count, is the fewest
        // with as many words).
        if (flat_channels(in) > a.max_channels) return std::nullopt;
        if (flow == Dataflow::kFcBatch && static_cast<unsigned>(in.n) > kD.tiles())
          return std::nullopt;
        w = random_weights(in.c, k, in.h, in.w);
      }
      l.want = flow == Dataflow::kConv || zs ? reference::conv2d_direct(in, w)
                                             : reference::fully_connected(in, w);
      l.text =
          fmt::format("{} {}x{}x{}x{} -> K {} kernel {}x{} stride {}x{} pad {}{}{}{}",
                      dataflow_name(flow), in.n, in.h, in.w, in.c, k, w.kernel_h, w.kernel_w,
                      w.stride_y, w.stride_x, w.pad_top, w.pad_bottom, w.pad_left, w.pad_right);
      l.macs = static_cast<uint64_t>(l.want.n) * l.want.h * l.want.w * k * w.kernel_h * w.kernel_w *
               in.c;
      weights_ = std::move(w);
      return l;
    }
    return std::nullopt;
  }

  // The channel count of a fully connected layer over `in` flattened: every lane of every
  // word of an image but the last word's lanes beyond C. ceil(C/L) is what the address
  // generator counts in, and so are the lowering's H x W x ceil(C/L) x L channels: the two
  // give the same address sets, and the smaller fits a smaller agu.max_channels.
  static uint64_t flat_channels(const reference::Tensor& in) {
    const uint64_t words = (static_cast<unsigned>(in.c) + kD.lanes() - 1) / kD.lanes();
    return (static_cast<uint64_t>(in.h) * static_cast<uint64_t>(in.w) * words - 1) * kD.lanes() +
           static_cast<uint64_t>(in.c);
  }

  // Words a tensor takes in a buffer.
  static uint64_t words_of(const reference::Tensor& t) {
    return static_cast<uint64_t>(t.n) * t.h * t.w *
           ((static_cast<unsigned>(t.c) + kD.lanes() - 1) / kD.lanes());
  }

  // A program: a first input written through the host port, then layers that chain.
  void plan_program() {
    // A half of every memory that no open layer uses; where halves hold no layer (a small
    // weight store or parameter table), the whole of every memory, one program at a time.
    if (whole_ && (!layers_.empty() || !host_.empty())) return;
    bool used[2] = {false, false};
    for (const auto& l : layers_) used[l.at.in_base / (kD.agu.act_words / 2)] = true;
    if (used[0] && used[1]) return;
    const unsigned half = whole_ ? 0 : used[program_half_] ? program_half_ ^ 1U : program_half_;
    program_half_ = half ^ 1U;
    const unsigned parts = whole_ ? 1 : 2;
    const uint64_t act_half = kD.agu.act_words / parts;
    const uint64_t wgt_half = kD.agu.weight_rows / parts;
    const unsigned grp_half = kD.post.groups() / parts;
    // Programs drawn in a row that planned no layer: after kEmptyPrograms, whole memories.
    auto nothing_planned = [&](std::string why) {
      last_skip_ = std::move(why);
      ++failed_programs_;
      if (++empty_programs_ >= kEmptyPrograms && !whole_) whole_ = true, empty_programs_ = 0;
    };
    const uint64_t act_base = half * act_half;
    uint64_t wgt_next = half * wgt_half;
    unsigned grp_next = half * grp_half;
    // The first input: small enough for a half buffer.
    reference::Tensor x;
    const AguParams& a = kD.agu;
    // After kSmallestAfter programs that planned no layer, none planned yet: the smallest
    // program the design takes (a 1 x 1 x 1 input, one layer of one filter, a 1 x 1 kernel).
    smallest_ = programs_ == 0 && failed_programs_ >= kSmallestAfter;
    for (int tries = 0;; ++tries) {
      const bool flat_start = smallest_ || rng_() % 4 == 0;
      const int n = draw(1, static_cast<int>(std::min<unsigned>(a.max_batch, smallest_ ? 1 : 3)));
      const int h =
          flat_start ? 1
                     : draw(1, static_cast<int>(std::min<unsigned>(a.max_height, perf_ ? 16 : 8)));
      const int w =
          flat_start ? 1
                     : draw(1, static_cast<int>(std::min<unsigned>(a.max_width, perf_ ? 16 : 8)));
      const int c =
          smallest_ ? 1
                    : draw(1, static_cast<int>(std::min<unsigned>(
                                  a.max_channels, perf_ ? 4 * kD.lanes() : 2 * kD.lanes() + 1)));
      x = random_tensor(n, h, w, c);
      if (words_of(x) <= act_half || tries > 50) break;
    }
    if (words_of(x) > act_half) {
      nothing_planned(fmt::format("no first input of {} words or fewer (agu.act_words {})",
                                  act_half, kD.agu.act_words));
      return;
    }
    // Refused now and then: a layer reading and writing one buffer (CFG_ERR; the group
    // stays free).
    if (!perf_ && !smallest_ && rng_() % 6 == 0) refuse_ = true;
    unsigned buf = static_cast<unsigned>(rng_() % 2);
    std::deque<MemRequest> loads;
    std::deque<Layer> planned;
    std::string skip_why = "none";
    push_tensor(loads, x, buf, act_base);
    reference::Tensor cur = x, prev_in = x;
    unsigned prev_buf = buf;
    const int count = perf_ || smallest_ ? 1 : draw(1, 4);
    for (int i = 0; i < count; ++i) {
      // Chain (read the last output) or, now and then, a sibling (read the last input).
      const bool sibling = i > 0 && rng_() % 4 == 0;
      const reference::Tensor& in = sibling ? prev_in : cur;
      const unsigned in_buf = sibling ? prev_buf : buf;
      const bool spatial = in.h * in.w > 1;
      const Dataflow flow = random_flow(spatial);
      std::optional<Layer> l = random_layer(in, flow);
      if (!l || words_of(l->want) > act_half) {
        if (planned.empty()) {
          skip_why = l ? fmt::format("an output of more than {} words", act_half)
                       : fmt::format("no {} layer over the input", dataflow_name(flow));
        }
        break;
      }
      LayerPlacement& at = l->at;
      at.in_buf = in_buf, at.out_buf = in_buf ^ 1U;
      at.in_base = act_base, at.out_base = act_base;
      at.wgt_base = wgt_next, at.param_base = grp_next;
      l->low = lower_layer(kD, flow, in, weights_, at);
      // fc over an input whose lanes beyond C make the lowering's count too many channels:
      // the input's own count (the same words, so the same address sets).
      if ((flow == Dataflow::kFc || flow == Dataflow::kFcBatch) &&
          l->low.regs.channels > kD.agu.max_channels) {
        l->low.regs.channels = static_cast<unsigned>(flat_channels(in));
        ++exact_flat_;
      }
      // Half the conv layers in MEC order, where their window fits the MEC window.
      if (flow == Dataflow::kConv && kD.agu.mec_window > 0 && rng_() % 2 == 0) {
        l->low.regs.order = Order::kMec;
        if (!agu_refusal(kD.agu, l->low.regs).empty()) l->low.regs.order = Order::kIm2col;
        if (l->low.regs.order == Order::kMec) l->text += " (MEC)";
      }
      const std::string refusal = agu_refusal(kD.agu, l->low.regs);
      if (wgt_next + l->low.weight_rows.size() > (half + 1) * wgt_half ||
          grp_next + l->low.params.size() > (half + 1) * grp_half || !refusal.empty()) {
        if (planned.empty()) {
          skip_why = !refusal.empty()
                         ? "the address generator refuses it: " + refusal
                         : fmt::format(
                               "{} weight rows and {} parameter groups, of {} and "
                               "{} free (agu.weight_rows {}, post groups {})",
                               l->low.weight_rows.size(), l->low.params.size(), wgt_half, grp_half,
                               kD.agu.weight_rows, kD.post.groups());
        }
        break;
      }
      push_layer_data(loads, l->low, at);
      wgt_next += l->low.weight_rows.size();
      grp_next += static_cast<unsigned>(l->low.params.size());
      l->loaded_after = host_issued_ + host_.size() + loads.size();
      chained_ += i > 0 && !sibling ? 1 : 0;
      padded_ += l->low.regs.pad_top + l->low.regs.pad_bottom + l->low.regs.pad_left +
                     l->low.regs.pad_right >
                 0;
      multi_block_ += l->low.regs.filter_blocks(kD.tiles()) > 1;
      if (!sibling) prev_in = cur, prev_buf = buf;
      cur = l->want;
      buf = at.out_buf;
      planned.push_back(std::move(*l));
    }
    if (planned.empty()) {
      nothing_planned("the first layer drawn: " + skip_why);
      return;
    }
    empty_programs_ = 0;
    smallest_programs_ += smallest_;
    ++programs_;
    for (auto& r : loads) host_.push_back(std::move(r));
    for (auto& l : planned) layers_.push_back(std::move(l));
  }

  // The host writes of a tensor's words into buffer `buf` from word `base`.
  void push_tensor(std::deque<MemRequest>& to, const reference::Tensor& x, unsigned buf,
                   uint64_t base) const {
    const auto words = tensor_words(x, kD.lanes());
    for (size_t i = 0; i < words.size(); ++i) {
      to.push_back(MemRequest{true, true, static_cast<MemTarget>(buf), base + i, pad(words[i])});
    }
  }

  // The host writes of a lowered layer's weight rows and parameter groups where `at` puts
  // them.
  void push_layer_data(std::deque<MemRequest>& to, const LoweredLayer& low,
                       const LayerPlacement& at) const {
    for (size_t r = 0; r < low.weight_rows.size(); ++r) {
      to.push_back(
          MemRequest{true, true, MemTarget::kWeights, at.wgt_base + r, pad(low.weight_rows[r])});
    }
    for (size_t g = 0; g < low.params.size(); ++g) {
      to.push_back(MemRequest{true, true, MemTarget::kParams, at.param_base + g,
                              param_group_bytes(kD, low.params[g])});
    }
  }

  std::vector<uint8_t> pad(const std::vector<uint8_t>& bytes) const {
    std::vector<uint8_t> out(data_bytes_, 0);
    std::copy(bytes.begin(), bytes.end(), out.begin());
    return out;
  }

  uint32_t group_address(unsigned g, uint32_t offset) const {
    return csr::kAguWindow + agu_csr::kGroupOffset + g * agu_csr::kGroupStride + offset;
  }

  void plan(uint64_t cycle) {
    // New programs while fewer than two are under way (each has half of every memory).
    // perf: one layer at a time, on an idle engine, so each layer's cycles are its own.
    const bool idle = layers_.empty() && host_.empty() && !want_.busy;
    if (table_) {
      if (idle) plan_table_layer();
    } else if (cycle < cycles_ && (!perf_ || idle)) {
      plan_program();
    }
    // Registers: the next layer into the next group once its data is in and the group free.
    if (!apb_.busy()) {
      Layer* next = nullptr;
      for (auto& l : layers_) {
        if (!l.programmed) {
          next = &l;
          break;
        }
      }
      const unsigned g = next_group_;
      if (refuse_ && !golden_.agu().enabled(g)) {
        AguLayer bad = next != nullptr
                           ? next->low.regs
                           : AguLayer::dense(kD.agu, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);
        bad.out_buf = bad.in_buf;
        for (const auto& w : agu_csr::layer_writes(bad))
          apb_.push({true, group_address(g, w.offset), w.value});
        apb_.push({false, csr::kAguWindow + agu_csr::kStatus, 0});
        apb_.push({true, csr::kAguWindow + agu_csr::kStatus, 1U << agu_csr::kStatusCfgErrBit});
        refuse_ = false;
        ++refused_;
      } else if (next != nullptr && host_issued_ >= next->loaded_after &&
                 !golden_.agu().enabled(g)) {
        for (const auto& w : agu_csr::layer_writes(next->low.regs)) {
          apb_.push({true, group_address(g, w.offset), w.value});
        }
        next->programmed = true;
        // The enable is the last of the group's writes, two cycles each.
        next->start = cycle + 2 * agu_csr::layer_writes(next->low.regs).size();
        next->weight_reads_before = golden_.weight_reads();
        next->act_reads_before = golden_.act_reads();
        next->window_reads_before = golden_.window_reads();
        ++flows_[static_cast<unsigned>(next->flow)];
        mec_layers_ += next->low.regs.order == Order::kMec;
        next_group_ ^= 1U;
      } else if (!perf_ && rng_() % 16 == 0) {
        // A read: the sequencer's registers, the layer registers, the post unit's, an
        // address with no register.
        static const uint32_t kReads[] = {csr::kOwnWindow + csr::kStatus,
                                          csr::kOwnWindow + csr::kInfo,
                                          csr::kOwnWindow + csr::kLayersDone,
                                          csr::kOwnWindow + csr::kCycles,
                                          csr::kOwnWindow + csr::kSteps,
                                          csr::kOwnWindow + csr::kWeightReads,
                                          csr::kOwnWindow + 0x40,
                                          csr::kAguWindow + agu_csr::kStatus,
                                          csr::kAguWindow + agu_csr::kGroupOffset + agu_csr::kMode,
                                          csr::kPostWindow + post_csr::kInfo,
                                          csr::kPostWindow + 0x10,
                                          0x300,
                                          csr::kOwnWindow + csr::kWindowReads,
                                          csr::kAguWindow + agu_csr::kMecWindow,
                                          csr::kOwnWindow + csr::kActReads,
                                          csr::kOwnWindow + csr::kWrites};
        apb_.push({false, kReads[rng_() % 16], 0});
      }
    }
    in_.apb = apb_.plan(rng_);
    // The host port: the queue of writes, or now and then a read in the background.
    host_from_queue_ = false;
    if (!host_.empty()) {
      in_.mem = host_.front();
      host_from_queue_ = true;
    } else if (!perf_ && rng_() % 3 == 0) {
      in_.mem = MemRequest{};
      in_.mem.valid = true;
      in_.mem.target = static_cast<MemTarget>(rng_() % 4);
      in_.mem.addr = in_.mem.target == MemTarget::kWeights  ? rng_() % kD.agu.weight_rows
                     : in_.mem.target == MemTarget::kParams ? rng_() % kD.post.groups()
                                                            : rng_() % kD.agu.act_words;
      in_.mem.data.assign(data_bytes_, 0);
    } else {
      // Idle: arbitrary fields the sequencer must ignore.
      in_.mem.valid = false;
      in_.mem.write = (rng_() & 1U) != 0;
      in_.mem.target = static_cast<MemTarget>(rng_() % 4);
    }
  }

  void layer_done() {
    if (layers_.empty() || !layers_.front().programmed) {
      throw std::logic_error("a layer finished that the bench did not program");
    }
    Layer& l = layers_.front();
    const reference::Tensor got =
        read_tensor(l.low.out_shape, kD.lanes(), l.at.out_base,
                    [&](uint64_t a) { return golden_.buffer_word(l.at.out_buf, a); });
    if (got.data != l.want.data) {
      size_t i = 0;
      while (got.data[i] == l.want.data[i]) ++i;
      const int c = l.want.c, w = l.want.w, h = l.want.h;
      const auto e = static_cast<int>(i);
      failures_.push_back(
          fmt::format("layer {} ({}): output (n {}, y {}, x {}, c {}) is {}, the reference says {}",
                      layers_done_, l.text, e / (c * w * h), e / (c * w) % h, e / c % w, e % c,
                      got.data[i], l.want.data[i]));
    }
    outputs_checked_ += l.want.data.size();
    if (perf_) {
      const uint64_t cycles = now_ + 1 - std::min(l.start, now_);
      const uint64_t bound = l.low.regs.steps(kD.agu);
      const uint64_t ideal = (l.macs + kD.row_bytes() - 1) / kD.row_bytes();
      const uint64_t rows = golden_.weight_reads() - l.weight_reads_before;
      // The weights a row read delivers: the whole row, or fc_batch's one tile slice.
      const uint64_t weights = rows * (l.flow == Dataflow::kFcBatch ? kD.lanes() : kD.row_bytes());
      perf_lines_.push_back(fmt::format(
          "perf: {}: {} cycles from its enable to its last result; mapping bound {} ({:.3f} of "
          "it), ideal ceil(MACs/(T*L)) {} (MAC utilisation {:.3f}); {} weight rows read, "
          "{:.4f} weights read per MAC; {} activation words read from the buffer, {} from the "
          "MEC window",
          l.text, cycles, bound, static_cast<double>(bound) / static_cast<double>(cycles), ideal,
          static_cast<double>(ideal) / static_cast<double>(cycles), rows,
          static_cast<double>(weights) / static_cast<double>(l.macs),
          golden_.act_reads() - l.act_reads_before,
          golden_.window_reads() - l.window_reads_before));
      if (table_) {
        // conv: the im2col matrix's words and the input's footprint, per filter block
        // times the blocks (each block streams the input again).
        std::string matrix = "-", footprint = "-";
        if (l.flow == Dataflow::kConv) {
          const ActivationTraffic t = activation_traffic(kD.agu, l.low.regs);
          const uint64_t blocks = l.low.regs.filter_blocks(kD.tiles());
          matrix = fmt::format("{}", t.materialised * blocks);
          footprint = fmt::format("{}", t.touched);
        }
        table_rows_.push_back(fmt::format(
            "| {} | {} | {} | {:.3f} | {} | {:.3f} | {:.4f} | {} | {} | {} | {} |", l.name, cycles,
            bound, static_cast<double>(bound) / static_cast<double>(cycles), ideal,
            static_cast<double>(ideal) / static_cast<double>(cycles),
            static_cast<double>(weights) / static_cast<double>(l.macs),
            golden_.act_reads() - l.act_reads_before,
            golden_.window_reads() - l.window_reads_before, matrix, footprint));
      }
      const auto f = static_cast<unsigned>(l.flow);
      perf_cycles_[f] += cycles, perf_bound_[f] += bound, perf_macs_[f] += l.macs;
      perf_weights_[f] += weights;
    }
    ++layers_done_;
    layers_.pop_front();
  }

  bool perf_;
  bool table_;  ///< layers mode
  size_t next_shape_ = 0;
  uint64_t cycles_;
  std::mt19937_64 rng_;
  SequencerModel golden_;
  npugen::tb::ApbMaster apb_;
  unsigned data_bytes_;
  SequencerInputs in_;
  SequencerOutputs want_;
  std::deque<Layer> layers_;
  std::deque<MemRequest> host_;
  uint64_t host_issued_ = 0;
  bool host_from_queue_ = false;
  reference::ConvLayer weights_;
  unsigned program_half_ = 0, next_group_ = 0;
  bool refuse_ = false, stuck_ = false;
  uint64_t now_ = 0;
  uint64_t layers_done_ = 0, programs_ = 0, steps_ = 0, busy_cycles_ = 0, outputs_checked_ = 0;
  uint64_t host_writes_ = 0, host_reads_ = 0, host_waits_ = 0, refused_ = 0;
  static constexpr unsigned kEmptyPrograms = 16;
  static constexpr unsigned kSmallestAfter = 4;
  bool smallest_ = false;           ///< this program is the smallest the design takes
  uint64_t failed_programs_ = 0;    ///< programs drawn that planned no layer
  uint64_t smallest_programs_ = 0;  ///< smallest programs run
  uint64_t exact_flat_ = 0;         ///< fc layers given the flattened input's own channel count
  bool whole_ = false;              ///< programs use whole memories, one at a time
  unsigned empty_programs_ = 0;     ///< programs drawn in a row that planned no layer
  std::string last_skip_;           ///< why the last of them planned none
  uint64_t chained_ = 0, padded_ = 0, multi_block_ = 0, mec_layers_ = 0;
  uint64_t flows_[kDataflowCount] = {};
  uint64_t target_reads_[4] = {};
  std::vector<std::string> failures_;
  std::vector<std::string> perf_lines_;
  std::vector<std::string> table_rows_;
  uint64_t perf_cycles_[kDataflowCount] = {}, perf_bound_[kDataflowCount] = {};
  uint64_t perf_macs_[kDataflowCount] = {}, perf_weights_[kDataflowCount] = {};
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<SequencerBench>(argc, argv); }
