#include "blocks/planar/planar.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "blocks/pe_array/pe_array.hpp"
#include "emit/cpp_literal.hpp"
#include "util/text.hpp"

namespace npugen::blocks::planar {
namespace {

constexpr std::string_view kName = "planar";
using golden::PlanarOp;
using golden::PlanarParams;

PlanarConfig read_section(config::Reader& r, config::Section& root, const config::Config& c) {
  PlanarConfig pc;
  PlanarParams& p = pc.params;
  p.lanes = pe_array::params(c).lanes;
  config::Section s = root.section(
      "planar",
      "Planar engine (docs/planar.md): pooling, ADD, "
      "gain and bias, reductions and the clamp on int8 NHWC tensors of words of pe_array.lanes "
      "channels, with two ping-pong task register groups. The maxima size every counter and "
      "the line buffer; a task beyond them is refused at run time. Absent or disabled: not "
      "generated.");
  s.boolean("enabled", pc.enabled, "Generate the planar engine.");
  s.integer("words_per_cycle", p.words, 1, PlanarParams::kMaxWords,
            "W: words a beat reads (from A, and from B for add) and writes; one beat a cycle "
            "while streaming.");
  s.integer("max_window", p.max_window, 1, PlanarParams::kMaxSmall,
            "Largest pooling kernel height and width (the line buffer holds max_window - 1 "
            "rows).");
  s.integer("max_stride", p.max_stride, 1, PlanarParams::kMaxSmall, "Largest pooling stride.");
  s.integer("max_pad", p.max_pad, 0, PlanarParams::kMaxSmall - 1,
            "Largest pooling padding on a side (a task's padding is also below its kernel).");
  s.integer("max_height", p.max_height, 1, PlanarParams::kMaxDim, "Largest input height H.");
  s.integer("max_width", p.max_width, 1, PlanarParams::kMaxDim, "Largest input width W.");
  s.integer("max_channels", p.max_channels, 1, PlanarParams::kMaxDim,
            "Largest channel count C (the gain table holds this many channels).");
  s.integer("max_batch", p.max_batch, 1, PlanarParams::kMaxDim, "Largest batch N.");
  s.integer("act_words", p.act_words, 2, kMaxActWords,
            "Words of the memory the ports address: sets the address width; addresses wrap at "
            "the next power of two.");
  s.integer("read_latency", p.read_latency, 1, PlanarParams::kMaxReadLatency,
            "Cycles from a read request taken to its response that the engine streams at full "
            "rate against: its read queues hold read_latency + 2 beats.");
  s.integer("pipeline_stages", p.pipeline_stages, 0, PlanarParams::kMaxOutStages,
            "Registers between the filters' stage and the output register (docs/planar.md), "
            "each cutting the longest step left: 1 after the H and V filters, 2 before the "
            "multiply (MBQM, or the average's reciprocal), 3 after it, 4 after the doubling "
            "high multiply, 5 between the multiply's two 32 x 16 halves and their sum, 6 "
            "after the rounding divide, 7 after ADD's input MBQMs' doubling high multiplies, 8 "
            "after their rounding divides and sum (without add in modes, 7 and 8 only delay). "
            "Each adds a cycle to a task's last write.");
  const auto names = s.names("modes",
                             "The operations generated: max_pool, avg_pool, add, gain_bias, "
                             "reduce_sum, reduce_max, activation, lut; a task asking for "
                             "another is refused at run time. Absent: all eight.",
                             1, static_cast<int>(golden::kPlanarOpCount));
  if (!names.empty()) {
    p.modes = 0;
    for (const auto& n : names) {
      bool known = false;
      for (unsigned o = 0; o < golden::kPlanarOpCount; ++o) {
        const auto op = static_cast<PlanarOp>(o);
        if (n.text != golden::planar_op_name(op)) continue;
        known = true;
        if (p.generates(op)) {
          r.error(n.location, s.path_of("modes"), fmt::format("mode '{}' is named twice", n.text));
        }
        p.modes |= golden::planar_op_bit(op);
      }
      if (!known) {
        r.refuse(n.location, s.path_of("modes"),
                 fmt::format("unknown mode '{}': expected max_pool, avg_pool, add, gain_bias, "
                             "reduce_sum, reduce_max, activation or lut",
                             util::shorten(n.text)));
      }
    }
  }
  r.rule(
      fmt::format("planar.words_per_cycle x pe_array.lanes is at most {}: the channels of a "
                  "beat (its 32-bit accumulators, its multipliers).",
                  PlanarParams::kMaxBeatLanes));
  if (pc.enabled && r.checks({"planar.words_per_cycle", "pe_array.lanes"}) &&
      p.beat_lanes() > PlanarParams::kMaxBeatLanes) {
    r.error(s.location_of("words_per_cycle"), s.path_of("words_per_cycle"),
            fmt::format("{} words of {} lanes (pe_array.lanes) make a beat of {} channels, above "
                        "the {} the planar engine takes",
                        p.words, p.lanes, p.beat_lanes(), PlanarParams::kMaxBeatLanes));
  }
  r.rule(
      fmt::format("(planar.max_width + planar.max_pad) x ceil(planar.max_channels / (W x L)) "
                  "x W x L is at most {}: the H results a line-buffer bank holds.",
                  PlanarParams::kMaxBankLanes));
  if (pc.enabled &&
      r.checks({"planar.max_width", "planar.max_pad", "planar.max_channels",
                "planar.words_per_cycle", "pe_array.lanes"}) &&
      p.bank_lanes() > PlanarParams::kMaxBankLanes) {
    r.error(s.location_of("max_channels"), s.path_of("max_channels"),
            fmt::format("a line-buffer bank would hold {} H results ({} columns x {} channels "
                        "in beats of {}), above {}: lower planar.max_width or max_channels",
                        p.bank_lanes(), uint64_t{p.max_width} + p.max_pad,
                        uint64_t{p.max_beats()} * p.beat_lanes(), p.beat_lanes(),
                        PlanarParams::kMaxBankLanes));
  }
  r.rule("planar.max_pad is below planar.max_window: padding is below the window.");
  if (pc.enabled && r.checks({"planar.max_pad", "planar.max_window"}) &&
      p.max_pad >= p.max_window) {
    r.error(s.location_of("max_pad"), s.path_of("max_pad"),
            fmt::format("padding {} is never below a window of at most {} (planar.max_window)",
                        p.max_pad, p.max_window));
  }
  r.rule(
      "planar.max_window is at most planar.max_height and planar.max_width plus twice "
      "planar.max_pad: the largest window fits the largest padded input.");
  if (pc.enabled &&
      r.checks({"planar.max_window", "planar.max_height", "planar.max_width", "planar.max_pad"})) {
    const std::pair<const char*, unsigned> extents[] = {{"max_height", p.max_height},
                                                        {"max_width", p.max_width}};
    for (const auto& [dim, extent] : extents) {
      if (uint64_t{p.max_window} > uint64_t{extent} + 2 * uint64_t{p.max_pad}) {
        r.error(s.location_of("max_window"), s.path_of("max_window"),
                fmt::format("a window of {} never fits an input of at most {} ({}) padded by {} "
                            "on each side (planar.max_pad)",
                            p.max_window, extent, s.path_of(dim), p.max_pad));
        break;
      }
    }
  }
  r.rule(
      "planar.max_height x planar.max_width x 255 is below 2^31 when reduce_sum is generated: "
      "a spatial sum of x - x_zp fits its 32-bit accumulator.");
  if (pc.enabled && r.checks({"planar.max_height", "planar.max_width", "planar.modes"}) &&
      p.generates(PlanarOp::kReduceSum) &&
      uint64_t{p.max_height} * p.max_width * 255 >= (uint64_t{1} << 31)) {
    r.error(s.location_of("max_width"), s.path_of("max_width"),
            fmt::format("a spatial reduce_sum over {} x {} pixels can reach {} and overflow its "
                        "32-bit accumulator: lower the maxima or leave reduce_sum out of modes",
                        p.max_height, p.max_width, uint64_t{p.max_height} * p.max_width * 255));
  }
  nlohmann::json modes = nlohmann::json::array();
  for (unsigned o = 0; o < golden::kPlanarOpCount; ++o) {
    if (p.generates(static_cast<PlanarOp>(o))) {
      modes.push_back(golden::planar_op_name(static_cast<PlanarOp>(o)));
    }
  }
  s.canonical("modes", modes);
  s.finish();
  return pc;
}

class PlanarBlock : public SectionBlock<PlanarConfig> {
 public:
  PlanarBlock() : SectionBlock(kName, "the planar engine", read_section) {}
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.modes = {"check", "throughput"};
    b.golden = {"planar", "post"};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    const PlanarParams& p = config_of(c).params;
    d->params = p;
    const uint64_t reach =
        uint64_t{std::max(p.max_height, p.max_width)} + p.max_pad + p.max_stride + p.max_window;
    d->coord_bits = static_cast<int>(golden::field_bits(reach + 1) + 1);
    d->batch_bits = static_cast<int>(golden::field_bits(uint64_t{p.max_batch} + 1));
    d->out_dim_bits = static_cast<int>(
        golden::field_bits(uint64_t{std::max(p.max_height, p.max_width)} + p.max_pad + 1));
    d->beat_bits = static_cast<int>(golden::field_bits(uint64_t{p.max_beats()} + 1));
    d->row_bits = static_cast<int>(golden::field_bits(p.table_rows()));
    d->param_row_bits = static_cast<int>(golden::field_bits(p.param_rows()));
    d->count_bits = static_cast<int>(golden::field_bits(uint64_t{p.beat_lanes()} + 1));
    d->bank_bits = static_cast<int>(golden::field_bits(p.lb_banks()));
    d->lb_addr_bits = static_cast<int>(golden::field_bits(p.lb_depth()));
    d->planar_module = fmt::format("{}_{}", c.design.module_prefix, kName);
    d->package = d->planar_module + "_pkg";
    return d;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    if (d.chance(30)) return;  // absent: not generated
    // A beat holds at most kMaxBeatLanes channels: wider words leave the engine out.
    const int64_t lanes = root["pe_array"]["lanes"].as<int64_t>(1);
    if (lanes > PlanarParams::kMaxBeatLanes) return;
    YAML::Node planar(YAML::NodeType::Map);
    DrawnSection s(d, planar);
    s.always("enabled", d.chance(70));
    const int64_t window = d.corner(1, 15);
    const int64_t pad = d.range(0, window - 1);
    const int64_t least = std::max<int64_t>(1, window - 2 * pad);
    const int64_t height = d.corner(least, d.small() ? 64 : 4096);
    const int64_t width = d.corner(least, d.small() ? 64 : 2000);
    // Small: at most 8 channels a beat beyond one word (W x L multipliers of 32 x 32 and
    // 2 x W x L of 9 x 32 with every mode).
    const int64_t most = d.small() ? 8 : PlanarParams::kMaxBeatLanes;
    s.set("words_per_cycle",
          d.corner(1, std::max<int64_t>(1, std::min<int64_t>(16, most / lanes))));
    s.always("max_window", window);
    s.set("max_stride", d.corner(1, 15));
    s.always("max_pad", pad);
    s.always("max_height", height);
    s.always("max_width", width);
    // A line-buffer bank holds at most kMaxBankLanes H results whatever the beat (<= 256).
    const int64_t columns = width + pad;
    const int64_t channels = static_cast<int64_t>(PlanarParams::kMaxBankLanes) / columns -
                             static_cast<int64_t>(PlanarParams::kMaxBeatLanes);
    s.set("max_channels",
          d.corner(1, std::max<int64_t>(1, std::min<int64_t>(d.small() ? 256 : 65535, channels))));
    s.set("max_batch", d.corner(1, 16));
    s.set("act_words", d.power_of_two(1, 16) + (d.chance(30) ? 3 : 0));
    s.set("read_latency", d.corner(1, 8));
    // reduce_sum only where its accumulator cannot overflow.
    const bool sum_fits = height * width * 255 < (int64_t{1} << 31);
    if (d.chance(40) || !sum_fits) {
      YAML::Node modes(YAML::NodeType::Sequence);
      for (unsigned o = 0; o < golden::kPlanarOpCount; ++o) {
        const auto op = static_cast<PlanarOp>(o);
        if (op == PlanarOp::kReduceSum && !sum_fits) continue;
        if (d.chance(60)) modes.push_back(golden::planar_op_name(op));
      }
      if (modes.size() == 0) modes.push_back("max_pool");
      planar["modes"] = modes;
    }
    root["planar"] = planar;
  }
};

}  // namespace

const Block& block() {
  static const PlanarBlock kBlock;
  return kBlock;
}

const PlanarConfig& config_of(const config::Config& config) {
  return config.sections.get<PlanarConfig>(kName);
}

std::string mode_list(const PlanarParams& p) {
  std::string out;
  for (unsigned o = 0; o < golden::kPlanarOpCount; ++o) {
    const auto op = static_cast<PlanarOp>(o);
    if (!p.generates(op)) continue;
    out += (out.empty() ? "" : ", ") + std::string(golden::planar_op_name(op));
  }
  return out;
}

nlohmann::json Design::derived_json() const {
  const auto& p = params;
  return {{"beat_lanes", p.beat_lanes()},       {"act_addr_bits", p.act_addr_bits()},
          {"queue_depth", p.queue_depth()},     {"line_buffer_banks", p.lb_banks()},
          {"line_buffer_depth", p.lb_depth()},  {"gain_table_rows", p.table_rows()},
          {"divider_shift", p.divider().shift}, {"modules", {planar_module}}};
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  const auto& p = params;
  const golden::PoolDivider div = p.divider();
  return {
      SvConstant::integer("Lanes", p.lanes, "L: channels in a word."),
      SvConstant::integer("Words", p.words, "W: words of a beat."),
      SvConstant::integer("BeatLanes", p.beat_lanes(), "V = W x L: channels of a beat."),
      SvConstant::integer("MaxWindow", p.max_window, "Largest pooling kernel side."),
      SvConstant::integer("MaxStride", p.max_stride, "Largest pooling stride."),
      SvConstant::integer("MaxPad", p.max_pad, "Largest pooling padding on a side."),
      SvConstant::integer("MaxHeight", p.max_height, "Largest input height."),
      SvConstant::integer("MaxWidth", p.max_width, "Largest input width."),
      SvConstant::integer("MaxChannels", p.max_channels, "Largest channel count."),
      SvConstant::integer("MaxBatch", p.max_batch, "Largest batch."),
      SvConstant::integer("OutStages", p.pipeline_stages,
                          "Registers between stage B and the output register (0 to 6)."),
      SvConstant::integer("Modes", p.modes, "Operations generated, a bit each (MODE.OP's values)."),
      SvConstant::integer("DimBits", PlanarParams::kDimBits, "Bits of the H, W, C, N fields."),
      SvConstant::integer("SmallBits", PlanarParams::kSmallBits,
                          "Bits of the kernel, stride and padding fields."),
      SvConstant::integer("ActAddrBits", p.act_addr_bits(), "Bits of a word address."),
      SvConstant::integer("CoordBits", coord_bits,
                          "Bits of a signed window coordinate (padding below 0)."),
      SvConstant::integer("BatchBits", batch_bits, "Bits of the image counter."),
      SvConstant::integer("OutDimBits", out_dim_bits,
                          "Bits of the output row and column counters."),
      SvConstant::integer("BeatBits", beat_bits, "Bits of the beat-in-pixel counter."),
      SvConstant::integer("RowBits", row_bits, "Bits of a gain-table row."),
      SvConstant::integer("ParamRowBits", param_row_bits,
                          "Bits of a parameter-port row: the gain table's, and the LUT's."),
      SvConstant::integer("TableRows", p.table_rows(),
                          "Rows of the gain table: ceil(MaxChannels / BeatLanes), at least 2."),
      SvConstant::integer("CountBits", count_bits, "Bits of a beat's channel count (1 to V)."),
      SvConstant::integer("LbBanks", p.lb_banks(),
                          "Line-buffer banks: a window's rows before its last."),
      SvConstant::integer("BankBits", bank_bits, "Bits of a bank index."),
      SvConstant::integer(
          "LbDepth", p.lb_depth(),
          "Entries of a bank: (MaxWidth + MaxPad) x ceil(MaxChannels / BeatLanes), at least 2."),
      SvConstant::integer("LbAddrBits", lb_addr_bits, "Bits of a line-buffer entry index."),
      SvConstant::integer("HBits", PlanarParams::kHBits,
                          "Bits of an H-filter result (15 int8 taps summed)."),
      SvConstant::integer("ShiftBits", PlanarParams::kShiftBits, "Bits of a signed shift."),
      SvConstant::integer("BeatShiftBits", p.beat_lanes() * PlanarParams::kShiftBits,
                          "Bits of a gain-table row's shifts: BeatLanes x ShiftBits."),
      SvConstant::integer("QueueDepth", p.queue_depth(),
                          "Entries of the tag and response queues: read latency + 2."),
      SvConstant::integer("DivShift", div.shift, "k: the average divides by 2^k."),
      SvConstant::integer("RecipBits", div.reciprocal_bits(),
                          "Bits of a reciprocal ceil(2^k / n)."),
      SvConstant::integer("GroupWords", golden::planar_csr::kGroupWords, "Registers of a group."),
      SvConstant::integer("GroupStrideLog2", golden::ceil_log2(golden::planar_csr::kGroupStride),
                          "log2 of the bytes between register groups."),
  };
}

std::vector<std::string> Design::summary() const {
  const auto& p = params;
  return {fmt::format(
      "planar engine {}: {}; {} word(s) of {} lanes a beat; H, W up to {} x {}, C up to {}, N "
      "up to {}, windows up to {} x {}, stride up to {}, padding up to {}; a line buffer of "
      "{} bank(s) x {} entries; {}-bit addresses; read queues of {}; two register groups",
      planar_module, mode_list(p), p.words, p.lanes, p.max_height, p.max_width, p.max_channels,
      p.max_batch, p.max_window, p.max_window, p.max_stride, p.max_pad, p.lb_banks(), p.lb_depth(),
      p.act_addr_bits(), p.queue_depth())};
}

DesignParams Design::design_params() const {
  return {{"npugen/golden/planar/params.hpp"},
          emit::cpp_constant("PlanarParams", "kPlanar", params) +
              fmt::format("static_assert(kPlanar.lb_depth() == {}, \"golden line buffer differs "
                          "from the RTL's\");\n",
                          params.lb_depth())};
}

}  // namespace npugen::blocks::planar
