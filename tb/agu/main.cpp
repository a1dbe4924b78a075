// Co-simulation of a generated address generator: the verilated RTL and the golden
// model run the same seeded stimulus, and every output is compared every cycle from the
// first cycle of reset: set_valid_o, cfg_err_o, the APB port and, while a set is offered,
// every field of the address set. Every set taken is also checked against the plain
// reference (im2col_reference: the layer's im2col matrix walked with direct index
// arithmetic), which shares no code with the model.
//
// The stimulus programs layers of random shapes (1x1 kernels, edge padding, stride above
// the kernel, C and K not multiples of L and T, several images, H or W of 1) and of every
// dataflow generated (conv, fc, fc_batch; conv also in MEC order when the design has a MEC
// window) into the two register groups in turn, the next
// one while the current one streams, with random back-pressure; it also programs layers
// the hardware must refuse (a value above a maximum, a zero stride, padding not below the
// kernel, a kernel beyond the padded input, a dataflow not generated, an fc_batch layer
// that is not 1 x 1 or has more images than tiles, the MEC order where it cannot run, one
// buffer read and written, an empty clamp) and writes to the group that is streaming, both
// of which must set STATUS.CFG_ERR.
//
// --mode throughput takes every set at once and fails on any cycle without a set while a
// layer is enabled: one address set per cycle, no cycle lost at a layer switch.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "common/apb_port.hpp"
#include "common/cosim.hpp"
#include "npugen/golden/agu/model.hpp"
#include "npugen/golden/agu/reference.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::ApbMaster;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;

constexpr const AguParams& kP = npugen::design::kAgu;
/// Sets a throughput-mode layer has at least: programming a group takes 15 register
/// writes of two cycles each, which the running layer must outlast.
constexpr uint64_t kMinThroughputSets = 48;
namespace csr = agu_csr;

std::string set_text(const AddressSet& s) {
  return fmt::format(
      "{}{} act {}{}{} wrow {} out {}.{} filters {} tile {}{}{}{}{}{}{} group {}",
      dataflow_name(s.layer.dataflow), s.layer.order == Order::kMec ? " mec" : "", s.act_addr,
      s.pad ? " (pad)" : "",
      s.layer.order == Order::kMec ? fmt::format(" window {}{}", s.win, s.reuse ? " (reuse)" : "")
                                   : "",
      s.wrow, s.out_addr, s.out_lane, s.filters, s.tile, s.load ? " load" : "",
      s.first ? " first" : "", s.last ? " last" : "", s.layer_first ? " layer-first" : "",
      s.block_first ? " block-first" : "", s.layer_end ? " layer-end" : "", s.group);
}

// The fields in which `got` differs from `want`, each as "name want/got".
std::string set_differences(const AddressSet& want, const AddressSet& got) {
  std::vector<std::string> d;
  auto field = [&](const char* name, auto w, auto g) {
    if (w != g) d.push_back(fmt::format("{} {}/{}", name, w, g));
  };
  field("act_addr", want.act_addr, got.act_addr);
  field("pad", want.pad, got.pad);
  field("reuse", want.reuse, got.reuse);
  field("win", want.win, got.win);
  field("wrow", want.wrow, got.wrow);
  field("first", want.first, got.first);
  field("last", want.last, got.last);
  field("out_addr", want.out_addr, got.out_addr);
  field("out_lane", want.out_lane, got.out_lane);
  field("filters", want.filters, got.filters);
  field("tile", want.tile, got.tile);
  field("load", want.load, got.load);
  field("layer_first", want.layer_first, got.layer_first);
  field("block_first", want.block_first, got.block_first);
  field("block_last", want.block_last, got.block_last);
  field("layer_end", want.layer_end, got.layer_end);
  field("group", want.group, got.group);
  const SetLayer &w = want.layer, &g = got.layer;
  field("dataflow", static_cast<unsigned>(w.dataflow), static_cast<unsigned>(g.dataflow));
  field("order", static_cast<unsigned>(w.order), static_cast<unsigned>(g.order));
  field("in_buf", w.in_buf, g.in_buf);
  field("out_buf", w.out_buf, g.out_buf);
  field("pad_value", w.pad_value, g.pad_value);
  field("zero_point", w.zero_point, g.zero_point);
  field("act_min", w.act_min, g.act_min);
  field("act_max", w.act_max, g.act_max);
  field("param_base", w.param_base, g.param_base);
  field("out_stride", w.out_stride, g.out_stride);
  return fmt::format("{}", fmt::join(d, ", "));
}

std::string layer_text(const AguLayer& l) {
  return fmt::format("{}{} {}x{}x{} N {} -> K {}, kernel {}x{}, stride {}x{}, pad t{} b{} l{} r{}",
                     dataflow_name(l.dataflow), l.order == Order::kMec ? " (MEC)" : "", l.height,
                     l.width, l.channels, l.batch, l.filters, l.kernel_h, l.kernel_w, l.stride_y,
                     l.stride_x, l.pad_top, l.pad_bottom, l.pad_left, l.pad_right);
}

class AguBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the address generator of design {} (RTL against the golden model, "
        "and every address set against the plain im2col reference)",
        npugen::design::kName);
    s.modes = {"check", "throughput"};
    s.modes_help =
        "check: random layers, refused layers, writes to the streaming group and "
        "back-pressure; throughput: every set taken at once, failing on any cycle without a "
        "set while a layer is enabled";
    return s;
  }

  explicit AguBench(const BenchOptions& o)
      : throughput_(o.mode == "throughput"),
        cycles_(o.cycles),
        rng_(o.seed),
        ready_threshold_(npugen::tb::probability_threshold(npugen::design::kReadyProbability)),
        golden_(kP),
        apb_(golden_.register_map().addr_bits()) {
    // Some 16 layers per run at the back-pressure this run sees (1500 sets at the most).
    const double ready = throughput_ ? 1.0 : npugen::design::kReadyProbability;
    max_sets_ =
        std::clamp<uint64_t>(static_cast<uint64_t>(static_cast<double>(o.cycles) * ready / 16), 16,
                             throughput_ ? 4000 : 1500);
  }

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    in_.set_ready = junk() & 1U;
    const uint64_t r = junk();
    in_.apb = npugen::tb::arbitrary_request(
        r, static_cast<uint32_t>(r >> 8) & ((1U << golden_.register_map().addr_bits()) - 1));
    drive(dut, in_);
  }
  void check_reset(const Vdut& dut, Checker& check) { compare(dut, golden_.outputs(in_), check); }

  bool drive(Vdut& dut, uint64_t cycle) {
    if (cycle >= cycles_) return false;
    if (!apb_.busy()) plan_registers();
    in_.apb = apb_.plan(rng_);
    in_.set_ready = throughput_ || rng_() <= ready_threshold_;
    drive(dut, in_);
    want_ = golden_.outputs(in_);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    compare(dut, want_, check);
    // Cycles while a layer is enabled: with a set, the one cycle a layer takes to start
    // when the generator was idle, or lost (a bubble the generator should not have).
    const bool idle_start = !golden_.busy() && golden_.enabled(golden_.consumer());
    if (want_.set_valid) {
      ++set_cycles_;
    } else if (idle_start) {
      ++idle_starts_;
    } else if (golden_.enabled(0) || golden_.enabled(1)) {
      ++lost_cycles_;
      check.fail("a cycle without an address set while a layer is enabled");
    }
    if (switch_ready_ && !want_.set_valid) {
      check.fail("a cycle lost at a switch to a group enabled before the layer's last set");
    }
    taken_ = want_.set_valid && in_.set_ready;
    if (taken_) against_reference(rtl_set(dut), check);
  }

  void tick() {
    // A write reaching an enabled group (the golden model refuses it at this edge).
    if (in_.apb.write() && in_.apb.paddr >= csr::kGroupOffset) {
      const uint32_t g = (in_.apb.paddr - csr::kGroupOffset) / csr::kGroupStride;
      if (g < csr::kGroups && golden_.enabled(g)) ++busy_writes_;
    }
    switch_ready_ = false;
    if (taken_ && want_.set.layer_end) {
      ++switches_;
      if (golden_.enabled(want_.set.group ^ 1U)) {
        ++switches_ready_;
        switch_ready_ = true;  // the next cycle must offer the next layer's first set
      }
    }
    golden_.tick(in_);
    apb_.advance(want_.apb);
  }

  void finish(Checker& check, npugen::tb::RunSummary& s) {
    s.compared("address sets", sets_);
    s.count("padded sets", padded_);
    s.count("layers finished", layers_done_);
    s.count("layers programmed", programmed_);
    s.count("layers refused", refused_);
    s.count("writes to an enabled group", busy_writes_);
    s.count("layers at the maxima", edge_layers_);
    s.count("register writes", apb_.writes());
    s.count("register reads", apb_.reads());
    s.count("transfers answered PSLVERR", apb_.errors());
    s.count("layer switches", switches_);
    s.count("switches to a group already enabled", switches_ready_);
    s.count("cycles lost while a layer was enabled", lost_cycles_);
    s.count("idle starts", idle_starts_);
    const uint64_t enabled_cycles = set_cycles_ + lost_cycles_;
    s.lines.push_back(fmt::format(
        "throughput: {} address sets in {} cycles with a layer streaming ({:.3f} per cycle); "
        "{} layer switches, {} of them to a group enabled in time, 0 cycles lost there; {} "
        "idle starts (a layer enabled while the generator was idle starts a cycle later)",
        set_cycles_, enabled_cycles,
        enabled_cycles == 0
            ? 0.0
            : static_cast<double>(set_cycles_) / static_cast<double>(enabled_cycles),
        switches_, switches_ready_, idle_starts_));
    s.goal("layers finished", layers_done_);
    s.goal("padded sets", padded_, kP.max_pad > 0);
    if (kP.max_pad == 0) s.limits.push_back("agu.max_pad is 0: no padded position");
    s.goal("switches to a group already enabled", switches_ready_, throughput_ && !short_layers_);
    if (short_layers_) {
      s.limits.push_back(fmt::format(
          "the maxima allow no layer of {} sets: programming the next group takes longer than "
          "a layer, so switches wait for it",
          kMinThroughputSets));
    }
    if (!throughput_) {
      s.goal("layers refused", refused_);
      s.goal("writes to an enabled group", busy_writes_);
      s.goal("layers at the maxima", edge_layers_);
      s.goal("register reads", apb_.reads());
      s.goal("transfers answered PSLVERR", apb_.errors());
      s.goal("layers with several images", shapes_[0], kP.max_batch > 1);
      s.goal("layers with a stride above the kernel", shapes_[1], kP.max_stride > 1);
      s.goal("layers with C not a multiple of L", shapes_[2], kP.lanes > 1);
      s.goal("layers with K not a multiple of T", shapes_[3], kP.tiles > 1);
      s.goal("layers with H or W of 1", shapes_[4]);
      s.goal("layers with a 1x1 kernel", shapes_[5]);
      for (unsigned d = 0; d < kDataflowCount; ++d) {
        const auto flow = static_cast<Dataflow>(d);
        s.goal(fmt::format("{} layers", dataflow_name(flow)), flows_[d], kP.generates(flow));
        if (!kP.generates(flow)) {
          s.limits.push_back(
              fmt::format("agu.dataflows leaves out {}: no such layer", dataflow_name(flow)));
        }
      }
      s.goal("MEC layers", mec_layers_, kP.mec_window > 0);
      // Required where random layers reuse without relying on padding (H of 3 or more).
      s.goal("MEC sets from the window", reused_, kP.mec_reuse_possible() && kP.max_height >= 3);
      if (kP.mec_window == 0) s.limits.push_back("agu.mec_window is 0: no MEC layer");
      if (kP.max_batch == 1) s.limits.push_back("agu.max_batch is 1: one image per layer");
      if (kP.max_stride == 1) s.limits.push_back("agu.max_stride is 1: no stride above a kernel");
      if (kP.lanes == 1) s.limits.push_back("pe_array.lanes is 1: C is a multiple of L");
      if (kP.tiles == 1) s.limits.push_back("pe_array.tiles is 1: K is a multiple of T");
    }
    if (throughput_ && layers_done_ < 2) {
      check.fail(
          fmt::format("throughput mode finished {} layers; it needs a switch", layers_done_));
    }
  }

  [[nodiscard]] std::vector<std::string> diagnose() const {
    std::vector<std::string> out = {
        fmt::format("sets taken so far: {}; layers finished: {}; consumer group {}", sets_,
                    layers_done_, golden_.consumer())};
    if (!expected_.empty()) {
      out.push_back(fmt::format("the streaming layer: {} (set {} of {})",
                                layer_text(expected_.front().layer), current_,
                                expected_.front().sets.size()));
    }
    return out;
  }
  [[nodiscard]] std::string repro_args() const { return throughput_ ? " --mode throughput" : ""; }

 private:
  struct Expected {
    AguLayer layer;
    std::vector<AddressSet> sets;
  };

  static void drive(Vdut& dut, const AguInputs& in) {
    npugen::tb::drive_apb(dut, in.apb);
    dut.set_ready_i = in.set_ready;
  }

  static void compare(const Vdut& dut, const AguOutputs& want, Checker& check) {
    check.compare("set_valid_o", want.set_valid, dut.set_valid_o);
    check.compare("cfg_err_o", want.cfg_err, dut.cfg_err_o);
    npugen::tb::compare_apb(dut, want.apb, check);
    if (!want.set_valid) return;
    const AddressSet& s = want.set;
    check.compare("set_act_addr_o", s.act_addr, dut.set_act_addr_o);
    check.compare("set_pad_o", s.pad, dut.set_pad_o);
    check.compare("set_wrow_o", s.wrow, dut.set_wrow_o);
    check.compare("set_first_o", s.first, dut.set_first_o);
    check.compare("set_last_o", s.last, dut.set_last_o);
    check.compare("set_out_addr_o", s.out_addr, dut.set_out_addr_o);
    check.compare("set_out_lane_o", s.out_lane, dut.set_out_lane_o);
    check.compare("set_filters_o", s.filters, dut.set_filters_o);
    check.compare("set_tile_o", s.tile, dut.set_tile_o);
    check.compare("set_load_o", s.load, dut.set_load_o);
    check.compare("set_layer_first_o", s.layer_first, dut.set_layer_first_o);
    check.compare("set_block_first_o", s.block_first, dut.set_block_first_o);
    check.compare("set_block_last_o", s.block_last, dut.set_block_last_o);
    check.compare("set_layer_end_o", s.layer_end, dut.set_layer_end_o);
    check.compare("set_group_o", s.group, dut.set_group_o);
    const SetLayer& l = s.layer;
    check.compare("set_dataflow_o", static_cast<unsigned>(l.dataflow), dut.set_dataflow_o);
    check.compare("set_order_o", static_cast<unsigned>(l.order), dut.set_order_o);
    check.compare("set_reuse_o", s.reuse, dut.set_reuse_o);
    check.compare("set_win_o", s.win, dut.set_win_o);
    check.compare("set_in_buf_o", l.in_buf, dut.set_in_buf_o);
    check.compare("set_out_buf_o", l.out_buf, dut.set_out_buf_o);
    check.compare("set_pad_value_o", static_cast<uint8_t>(l.pad_value), dut.set_pad_value_o);
    check.compare("set_zero_point_o", static_cast<uint8_t>(l.zero_point), dut.set_zero_point_o);
    check.compare("set_act_min_o", static_cast<uint8_t>(l.act_min), dut.set_act_min_o);
    check.compare("set_act_max_o", static_cast<uint8_t>(l.act_max), dut.set_act_max_o);
    check.compare("set_param_base_o", l.param_base, dut.set_param_base_o);
    check.compare("set_out_stride_o", l.out_stride, dut.set_out_stride_o);
  }

  static AddressSet rtl_set(const Vdut& dut) {
    AddressSet s;
    s.act_addr = dut.set_act_addr_o;
    s.pad = dut.set_pad_o;
    s.wrow = dut.set_wrow_o;
    s.first = dut.set_first_o;
    s.last = dut.set_last_o;
    s.out_addr = dut.set_out_addr_o;
    s.out_lane = dut.set_out_lane_o;
    s.filters = dut.set_filters_o;
    s.tile = dut.set_tile_o;
    s.load = dut.set_load_o;
    s.layer_first = dut.set_layer_first_o;
    s.block_first = dut.set_block_first_o;
    s.block_last = dut.set_block_last_o;
    s.layer_end = dut.set_layer_end_o;
    s.group = dut.set_group_o;
    SetLayer& l = s.layer;
    s.reuse = dut.set_reuse_o;
    s.win = dut.set_win_o;
    l.dataflow = static_cast<Dataflow>(dut.set_dataflow_o);
    l.order = static_cast<Order>(dut.set_order_o);
    l.in_buf = dut.set_in_buf_o, l.out_buf = dut.set_out_buf_o;
    l.pad_value = static_cast<int8_t>(dut.set_pad_value_o);
    l.zero_point = static_cast<int8_t>(dut.set_zero_point_o);
    l.act_min = static_cast<int8_t>(dut.set_act_min_o);
    l.act_max = static_cast<int8_t>(dut.set_act_max_o);
    l.param_base = dut.set_param_base_o;
    l.out_stride = dut.set_out_stride_o;
    return s;
  }

  // The set the RTL offers and the testbench takes, against the reference.
  void against_reference(AddressSet got, Checker& check) {
    if (expected_.empty()) {
      check.fail(fmt::format("a set was streamed with no layer enabled: {}", set_text(got)));
      return;
    }
    const Expected& e = expected_.front();
    AddressSet ref = e.sets[current_];
    if (ref.pad) got.act_addr = 0;  // meaningless on a padded set
    if (!(got == ref)) {
      check.fail(
          fmt::format("RTL vs im2col reference, layer {} ({}), set {}: {} (reference/RTL); "
                      "reference {}, RTL {}",
                      layers_done_, layer_text(e.layer), current_, set_differences(ref, got),
                      set_text(ref), set_text(got)));
    }
    ++sets_;
    padded_ += ref.pad ? 1 : 0;
    reused_ += ref.reuse ? 1 : 0;
    if (++current_ == e.sets.size()) {
      expected_.pop_front();
      current_ = 0;
      ++layers_done_;
    }
  }

  uint32_t group_address(unsigned g, uint32_t offset) const {
    return csr::kGroupOffset + g * csr::kGroupStride + offset;
  }

  unsigned draw(unsigned lo, unsigned hi) {
    return hi <= lo ? lo : lo + static_cast<unsigned>(rng_() % (hi - lo + 1));
  }

  // A dataflow the design generates.
  Dataflow random_dataflow() {
    for (;;) {
      const auto flow = static_cast<Dataflow>(draw(0, kDataflowCount - 1));
      if (kP.generates(flow)) return flow;
    }
  }

  // The registers the generator passes on, at random (a clamp that is not empty).
  void random_pass_through(AguLayer& l) {
    l.in_buf = draw(0, 1), l.out_buf = 1 - l.in_buf;
    l.pad_value = static_cast<int>(draw(0, 255)) - 128;
    l.zero_point = static_cast<int>(draw(0, 255)) - 128;
    l.act_min = static_cast<int>(draw(0, 255)) - 128;
    l.act_max = static_cast<int>(draw(static_cast<unsigned>(l.act_min + 128), 255)) - 128;
    l.param_base = draw(0, 65535);
  }

  // A random layer the hardware can do, small enough to finish soon.
  AguLayer random_layer() {
    for (;;) {
      const Dataflow flow = random_dataflow();
      const bool batch = flow == Dataflow::kFcBatch;
      const unsigned kind = draw(0, 9);
      const unsigned h = kind == 0 || batch ? 1 : draw(1, std::min(kP.max_height, 9U));
      const unsigned w = kind == 1 || batch ? 1 : draw(1, std::min(kP.max_width, 9U));
      unsigned c = draw(1, std::min(kP.max_channels, 3 * kP.lanes + 1));
      const unsigned k = draw(1, std::min(kP.max_channels, 2 * kP.tiles + 1));
      const unsigned n = draw(1, std::min({kP.max_batch, 3U, batch ? kP.tiles : 3U}));
      const unsigned kh = kind == 2 || batch ? 1 : draw(1, std::min(kP.max_kernel, 4U));
      const unsigned kw = kind == 2 || batch ? 1 : draw(1, std::min(kP.max_kernel, 4U));
      const unsigned sy = draw(1, std::min(kP.max_stride, kind == 3 ? 6U : 3U));
      const unsigned sx = draw(1, std::min(kP.max_stride, kind == 3 ? 6U : 3U));
      auto pad = [&](unsigned kernel) {
        return std::min(kP.max_pad, kernel - 1) == 0 ? 0
                                                     : draw(0, std::min(kP.max_pad, kernel - 1));
      };
      const unsigned pt = pad(kh), pb = pad(kh), pl = pad(kw), pr = pad(kw);
      // Half the conv layers in MEC order; a quarter of those with the most channels whose
      // window fits (the edge of the RTL's table, which must take it).
      const bool mec = flow == Dataflow::kConv && kP.mec_window > 0 && draw(0, 1) == 0;
      if (mec && draw(0, 3) == 0 && kP.mec_max_channels(kh, kw) > 0) {
        c = kP.mec_max_channels(kh, kw);
      }
      const uint64_t act_mask = (uint64_t{1} << kP.act_addr_bits()) - 1;
      AguLayer l =
          AguLayer::dense(kP, h, w, c, n, k, kh, kw, sy, sx, pt, pb, pl, pr, rng_() & act_mask,
                          rng_() & ((uint64_t{1} << kP.weight_addr_bits()) - 1), rng_() & act_mask);
      l.dataflow = flow;
      if (mec) l.order = Order::kMec;
      random_pass_through(l);
      // Strides wrap at the address width too; views wider than dense, sometimes.
      l.out_pixel_stride = (l.out_pixel_stride + (kind == 6 ? 2 : 0)) & act_mask;
      l.in_pixel_stride = (l.in_pixel_stride + (kind == 4 ? 1 : 0)) & act_mask;
      l.in_row_stride = (l.in_pixel_stride * w + (kind == 5 ? 3 : 0)) & act_mask;
      l.in_image_stride = (l.in_row_stride * h) & act_mask;
      l.out_row_stride = (l.out_pixel_stride * l.out_width() + (kind == 7 ? 5 : 0)) & act_mask;
      if (!agu_refusal(kP, l).empty()) continue;
      // Layers short enough that a run finishes many at the back-pressure it sees; in
      // throughput mode long enough to program the other group meanwhile.
      const uint64_t sets = l.address_sets(kP);
      if (sets > max_sets_) continue;
      if (throughput_ && sets < kMinThroughputSets && ++short_draws_ < 400) continue;
      if (throughput_ && sets < kMinThroughputSets) short_layers_ = true;
      short_draws_ = 0;
      return l;
    }
  }

  // A layer the hardware must refuse: one rule broken.
  // A layer the hardware must refuse: one rule broken, each rule as likely (a rule the
  // configuration makes unbreakable, a maximum at the field's largest value, falls back to
  // a zero).
  AguLayer refused_layer() {
    AguLayer l = random_layer();
    // A value above its maximum, or zero when the maximum is the field's largest value.
    auto above = [](unsigned& field, unsigned max, unsigned field_max) {
      field = max < field_max ? max + 1 : 0;
    };
    const unsigned dim = AguParams::kMaxDim, small = AguParams::kMaxSmall;
    switch (draw(0, 29)) {
      case 0:
        above(l.height, kP.max_height, dim);
        break;
      case 1:
        above(l.width, kP.max_width, dim);
        break;
      case 2:
        above(l.channels, kP.max_channels, dim);
        break;
      case 3:
        above(l.batch, kP.max_batch, dim);
        break;
      case 4:
        above(l.filters, kP.max_channels, dim);
        break;
      case 5:
        above(l.kernel_h, kP.max_kernel, small);
        break;
      case 6:
        above(l.kernel_w, kP.max_kernel, small);
        break;
      case 7:
        above(l.stride_y, kP.max_stride, small);
        break;
      case 8:
        above(l.stride_x, kP.max_stride, small);
        break;
      case 9:
        l.pad_top = kP.max_pad + 1;
        break;  // max_pad < 15: the field holds it
      case 10:
        l.pad_bottom = kP.max_pad + 1;
        break;
      case 11:
        l.pad_left = kP.max_pad + 1;
        break;
      case 12:
        l.pad_right = kP.max_pad + 1;
        break;
      case 13:
        l.height = 0;
        break;
      case 14:
        l.width = 0;
        break;
      case 15:
        l.channels = 0;
        break;
      case 16:
        l.batch = 0;
        break;
      case 17:
        l.filters = 0;
        break;
      case 18:
        l.kernel_h = 0;
        break;
      case 19:
        l.stride_y = 0;
        break;
      case 20:
        l.stride_x = 0;
        break;
      case 21:
        // Padding not below the kernel (within max_pad when the maxima allow it).
        l.pad_bottom = l.kernel_h;
        break;
      case 22:
        l.pad_left = l.kernel_w;
        break;
      case 23:
        l.pad_right = l.kernel_w;
        break;
      case 24: {
        // A dataflow not generated (3: none is).
        unsigned flow = 3;
        for (unsigned d = 0; d < kDataflowCount; ++d) {
          if (!kP.generates(static_cast<Dataflow>(d))) flow = d;
        }
        l.dataflow = static_cast<Dataflow>(flow);
        break;
      }
      case 25:
        // fc_batch on a layer that is not 1 x 1, or with more images than tiles.
        if (kP.generates(Dataflow::kFcBatch)) {
          l.dataflow = Dataflow::kFcBatch;
          if (l.height * l.width * l.kernel_h * l.kernel_w == 1) {
            l.batch = kP.tiles + 1;
            if (l.batch > kP.max_batch) l.height = 0;  // the maxima allow no such layer
          }
        } else {
          l.stride_x = 0;
        }
        break;
      case 26:
        l.out_buf = l.in_buf;
        break;
      case 27:
        l.act_min = 1, l.act_max = 0;
        break;
      case 28:
        // The MEC order: not generated, on a layer that is not conv, or with a window larger
        // than the MEC window (when the maxima allow one; else a zero height).
        l.order = Order::kMec;
        if (kP.mec_window == 0) break;
        if (l.dataflow == Dataflow::kConv) {
          // One channel more than the RTL's table allows for a random kernel size (its
          // other edge is in random_layer), or failing that the largest window.
          const unsigned kh = draw(1, kP.max_kernel), kw = draw(1, kP.max_kernel);
          const uint64_t over = uint64_t{kP.lanes} * (kP.mec_window / (kh * kw)) + 1;
          l.kernel_h = kh, l.kernel_w = kw;
          l.pad_top = l.pad_bottom = std::min(kP.max_pad, kh - 1);
          l.pad_left = l.pad_right = std::min(kP.max_pad, kw - 1);
          l.height = std::min(kP.max_height, std::max(l.height, kh));
          l.width = std::min(kP.max_width, std::max(l.width, kw));
          l.channels = static_cast<unsigned>(std::min<uint64_t>(over, kP.max_channels));
          if (agu_refusal(kP, l).find("MEC window") == std::string::npos) {
            l.kernel_h = l.kernel_w = kP.max_kernel;
            l.channels = kP.max_channels;
            if (agu_refusal(kP, l).empty()) l.height = 0;
          }
        }
        break;
      default:
        // A kernel wider than the padded input, when the maxima allow one.
        l.width = 1, l.pad_left = 0, l.pad_right = 0;
        l.kernel_w = std::min(kP.max_kernel, 2U);
        if (l.kernel_w == 1) l.width = 0;
        break;
    }
    return l;
  }

  // A layer at the generated maxima, where the counters' widths are tight: C and K at their
  // maximum with a 1 x 1 kernel; H (or W) at its maximum with the largest kernel, stride
  // and padding along it; N at its maximum. Refused or too long for the run: none.
  std::optional<AguLayer> edge_layer() {
    const uint64_t act_mask = (uint64_t{1} << kP.act_addr_bits()) - 1;
    const unsigned kind = draw(0, 3);
    AguLayer l;
    if (kind == 0) {
      l = AguLayer::dense(kP, 1, 1, kP.max_channels, 1, kP.max_channels, 1, 1, 1, 1, 0, 0, 0, 0,
                          rng_() & act_mask);
    } else if (kind == 3) {
      l = AguLayer::dense(kP, 1, 1, 1, kP.max_batch, 1, 1, 1, 1, 1, 0, 0, 0, 0, rng_() & act_mask);
    } else {
      const unsigned k = kP.max_kernel, pad = std::min(kP.max_pad, k - 1);
      if (kind == 1) {
        l = AguLayer::dense(kP, kP.max_height, 1, 1, 1, 1, k, 1, kP.max_stride, 1, pad, pad, 0, 0,
                            rng_() & act_mask);
      } else {
        l = AguLayer::dense(kP, 1, kP.max_width, 1, 1, 1, 1, k, 1, kP.max_stride, 0, 0, pad, pad,
                            rng_() & act_mask);
      }
    }
    // The stride registers hold an activation address: a stride wider than the buffer
    // (a pixel of more words than it has) wraps, as the addresses do.
    l.in_pixel_stride &= act_mask, l.in_row_stride &= act_mask, l.in_image_stride &= act_mask;
    l.out_pixel_stride &= act_mask, l.out_row_stride &= act_mask;
    if (!agu_refusal(kP, l).empty() || l.address_sets(kP) > max_sets_) return std::nullopt;
    if (throughput_ && l.address_sets(kP) < kMinThroughputSets) return std::nullopt;
    return l;
  }

  void push_layer(unsigned g, const AguLayer& l) {
    for (const auto& w : csr::layer_writes(l)) {
      apb_.push({true, group_address(g, w.offset), w.value});
    }
  }

  void clear_cfg_err() { apb_.push({true, csr::kStatus, 1U << csr::kStatusCfgErrBit}); }

  // The next register traffic, when the port is free.
  void plan_registers() {
    const unsigned g = next_group_;
    const unsigned r = draw(0, 99);
    if (!throughput_ && r < 6) {
      // Reads: status, the constants, a group register, an address with no register.
      static const uint32_t kReads[] = {csr::kStatus,
                                        csr::kInfo,
                                        csr::kLimits,
                                        csr::kLayersDone,
                                        csr::kMecWindow,
                                        group_address(1, csr::kWindow),
                                        0x3c,
                                        group_address(0, csr::kInBase),
                                        group_address(1, csr::kOutRowStride)};
      apb_.push({false, kReads[draw(0, 8)], 0});
      return;
    }
    if (!throughput_ && r < 9 && golden_.enabled(g ^ 1U)) {
      // A write to the group that streams (or waits): ignored, CFG_ERR.
      apb_.push({true, group_address(g ^ 1U, csr::kInShape), static_cast<uint32_t>(rng_())});
      clear_cfg_err();
      return;
    }
    if (golden_.enabled(g)) return;         // the next group still holds an unfinished layer
    if (!throughput_ && draw(0, 3) == 0) {  // a quarter of the layers programmed are refused
      const AguLayer bad = refused_layer();
      if (agu_refusal(kP, bad).empty()) return;
      push_layer(g, bad);
      apb_.push({false, csr::kStatus, 0});
      clear_cfg_err();
      ++refused_;
      return;
    }
    std::optional<AguLayer> edge;
    if (draw(0, 9) == 0) edge = edge_layer();
    const AguLayer l = edge ? *edge : random_layer();
    edge_layers_ += edge ? 1 : 0;
    push_layer(g, l);
    expected_.push_back({l, im2col_reference(kP, l, g)});
    ++programmed_;
    shapes_[0] += l.batch > 1;
    shapes_[1] += l.stride_y > l.kernel_h || l.stride_x > l.kernel_w;
    shapes_[2] += l.channels % kP.lanes != 0;
    shapes_[3] += l.filters % kP.tiles != 0;
    shapes_[4] += l.height == 1 || l.width == 1;
    shapes_[5] += l.kernel_h == 1 && l.kernel_w == 1;
    ++flows_[static_cast<unsigned>(l.dataflow)];
    mec_layers_ += l.order == Order::kMec;
    next_group_ ^= 1U;
  }

  bool throughput_;
  uint64_t cycles_;
  std::mt19937_64 rng_;
  uint64_t ready_threshold_;
  AguModel golden_;
  ApbMaster apb_;
  AguInputs in_;
  AguOutputs want_;
  bool taken_ = false;
  bool switch_ready_ = false;
  bool short_layers_ = false;
  unsigned short_draws_ = 0;
  uint64_t max_sets_ = 0;
  unsigned next_group_ = 0;
  std::deque<Expected> expected_;
  size_t current_ = 0;
  uint64_t sets_ = 0, padded_ = 0, layers_done_ = 0, programmed_ = 0, refused_ = 0;
  uint64_t busy_writes_ = 0, switches_ = 0, switches_ready_ = 0, edge_layers_ = 0;
  uint64_t set_cycles_ = 0, lost_cycles_ = 0, idle_starts_ = 0;
  uint64_t shapes_[6] = {};
  uint64_t flows_[kDataflowCount] = {};
  uint64_t mec_layers_ = 0, reused_ = 0;
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<AguBench>(argc, argv); }
