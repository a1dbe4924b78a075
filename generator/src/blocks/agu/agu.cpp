#include "blocks/agu/agu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "blocks/pe_array/pe_array.hpp"
#include "blocks/zs/zs.hpp"
#include "emit/cpp_literal.hpp"
#include "npugen/golden/sequencer/params.hpp"
#include "util/text.hpp"

namespace npugen::blocks::agu {
namespace {

constexpr std::string_view kName = "agu";
using golden::AguParams;

AguConfig read_section(config::Reader& r, config::Section& root, const config::Config& c) {
  AguConfig a;
  AguParams& p = a.params;
  const golden::PeArrayParams& array = pe_array::params(c);
  p.lanes = array.lanes;
  p.tiles = array.tiles;
  config::Section s = root.section(
      "agu",
      "Address generator (docs/agu.md): the layer registers (two ping-pong groups) "
      "turned into one address set per cycle for the PE array of section pe_array, in im2col "
      "order, or MEC order for conv layers (fc_batch: its own order). The maxima size every "
      "counter; a layer beyond them is "
      "refused at run time. Absent or disabled: not generated.");
  s.boolean("enabled", a.enabled, "Generate the address generator.");
  s.integer("max_height", p.max_height, 1, AguParams::kMaxDim, "Largest input height H.");
  s.integer("max_width", p.max_width, 1, AguParams::kMaxDim, "Largest input width W.");
  s.integer("max_channels", p.max_channels, 1, AguParams::kMaxDim,
            "Largest input channel count C and filter count K.");
  s.integer("max_batch", p.max_batch, 1, AguParams::kMaxDim, "Largest batch N.");
  s.integer("max_kernel", p.max_kernel, 1, AguParams::kMaxSmall,
            "Largest kernel height and width.");
  s.integer("max_stride", p.max_stride, 1, AguParams::kMaxSmall, "Largest stride.");
  s.integer("max_pad", p.max_pad, 0, AguParams::kMaxSmall - 1,
            "Largest padding on one side (a layer's padding is also below its kernel).");
  s.integer("act_words", p.act_words, 2, int64_t{1} << 24,
            "Words of an activation buffer (a word holds pe_array.lanes channels of a pixel): "
            "sets the activation and output address widths; addresses wrap at the next power "
            "of two.");
  s.integer("weight_rows", p.weight_rows, 2, int64_t{1} << 24,
            "Rows of the weight store: sets the weight row address width.");
  r.rule("agu.max_pad is below agu.max_kernel: padding is below the kernel.");
  if (a.enabled && r.checks({"agu.max_pad", "agu.max_kernel"}) && p.max_pad >= p.max_kernel) {
    r.error(s.location_of("max_pad"), s.path_of("max_pad"),
            fmt::format("padding {} is never below a kernel of at most {} (agu.max_kernel)",
                        p.max_pad, p.max_kernel));
  }
  r.rule(
      "agu.max_kernel is at most agu.max_height and agu.max_width plus twice agu.max_pad: the "
      "largest kernel fits the largest padded input.");
  if (a.enabled && r.checks({"agu.max_kernel", "agu.max_height", "agu.max_width", "agu.max_pad"})) {
    const std::pair<const char*, unsigned> extents[] = {{"max_height", p.max_height},
                                                        {"max_width", p.max_width}};
    for (const auto& [dim, extent] : extents) {
      if (uint64_t{p.max_kernel} > uint64_t{extent} + 2 * uint64_t{p.max_pad}) {
        r.error(s.location_of("max_kernel"), s.path_of("max_kernel"),
                fmt::format("a kernel of {} never fits an input of at most {} ({}) padded by {} "
                            "on each side (agu.max_pad)",
                            p.max_kernel, extent, s.path_of(dim), p.max_pad));
        break;
      }
    }
  }
  const auto names = s.names("dataflows",
                             "The dataflows generated: conv, fc, fc_batch, zero_skip "
                             "(docs/sequencer.md; zero_skip runs conv layers on the sequencer's "
                             "zero-skipping array, section zs); a layer asking for another is "
                             "refused at run time. Absent: conv, fc and fc_batch.",
                             1, static_cast<int>(golden::kDataflowCount));
  if (!names.empty()) {
    p.dataflows = 0;
    for (const auto& n : names) {
      bool known = false;
      for (unsigned d = 0; d < golden::kDataflowCount; ++d) {
        const auto flow = static_cast<golden::Dataflow>(d);
        if (n.text != golden::dataflow_name(flow)) continue;
        known = true;
        if ((p.dataflows & golden::dataflow_bit(flow)) != 0) {
          r.error(n.location, s.path_of("dataflows"),
                  fmt::format("dataflow '{}' is named twice", n.text));
        }
        p.dataflows |= golden::dataflow_bit(flow);
      }
      if (!known) {
        r.refuse(n.location, s.path_of("dataflows"),
                 fmt::format("unknown dataflow '{}': expected conv, fc, fc_batch or zero_skip",
                             util::shorten(n.text)));
      }
    }
  }
  s.integer("mec_window", p.mec_window, 0, AguParams::kMaxMecWindow,
            "Words of the MEC window: the MEC order (seed 004's memory-efficient convolution, "
            "docs/agu.md) is generated when above 0, for conv layers whose kernel window "
            "(KH x KW x ceil(C/L) words) fits; the sequencer keeps the window in a memory of "
            "this many words.");
  r.rule("agu.mec_window is 0 or the conv dataflow is generated: the MEC order is for conv.");
  if (a.enabled && r.checks({"agu.mec_window", "agu.dataflows"}) && p.mec_window > 0 &&
      !p.generates(golden::Dataflow::kConv)) {
    r.error(s.location_of("mec_window"), s.path_of("mec_window"),
            "the MEC order is for conv layers, and conv is not among agu.dataflows");
  }
  // zero_skip: the window the sequencer stages, a slot of zs.max_rows / 3 (derived, not a key).
  if (p.generates(golden::Dataflow::kZeroSkip)) {
    p.zs_window = zs::config_of(c).params.max_rows / golden::SequencerDesign::kZsSlots;
  }
  // The canonical form: every dataflow generated, in order (absent and the default three hash
  // alike).
  nlohmann::json flows = nlohmann::json::array();
  for (unsigned d = 0; d < golden::kDataflowCount; ++d) {
    const auto flow = static_cast<golden::Dataflow>(d);
    if (p.generates(flow)) flows.push_back(golden::dataflow_name(flow));
  }
  s.canonical("dataflows", flows);
  s.finish();
  return a;
}

class AguBlock : public SectionBlock<AguConfig> {
 public:
  AguBlock() : SectionBlock(kName, "the address generator", read_section) {}
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.modes = {"check", "throughput"};
    b.golden = {"agu"};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    const AguParams& p = config_of(c).params;
    d->params = p;
    const uint64_t reach =
        uint64_t{std::max(p.max_height, p.max_width)} + p.max_pad + p.max_stride + p.max_kernel;
    d->coord_bits = static_cast<int>(golden::field_bits(reach + 1) + 1);
    d->chan_bits = static_cast<int>(golden::field_bits(uint64_t{p.max_channels} + p.lanes));
    d->chan_word_bits =
        static_cast<int>(golden::field_bits((uint64_t{p.max_channels} + p.lanes - 1) / p.lanes));
    d->filter_bits = static_cast<int>(golden::field_bits(uint64_t{p.max_channels} + p.tiles));
    // The image counter also counts an fc_batch block's neurons (up to T).
    const uint64_t images =
        std::max<uint64_t>(p.max_batch, p.generates(golden::Dataflow::kFcBatch) ? p.tiles : 0);
    d->batch_bits = static_cast<int>(golden::field_bits(images + 1));
    d->agu_module = fmt::format("{}_{}", c.design.module_prefix, kName);
    d->package = d->agu_module + "_pkg";
    return d;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    if (d.chance(25)) return;  // absent: not generated
    YAML::Node agu(YAML::NodeType::Map);
    DrawnSection s(d, agu);
    s.always("enabled", d.chance(70));
    // The largest kernel fits the largest padded input: drawn first, the extents after.
    const int64_t kernel = d.corner(1, 15);
    const int64_t pad = d.range(0, kernel - 1);
    const int64_t least = std::max<int64_t>(1, kernel - 2 * pad);
    s.set("max_height", d.corner(least, d.small() ? 64 : 4096));
    s.set("max_width", d.corner(least, d.small() ? 64 : 4096));
    s.set("max_channels", d.corner(1, d.small() ? 256 : 65535));
    s.set("max_batch", d.corner(1, 16));
    s.always("max_kernel", kernel);
    s.set("max_stride", d.corner(1, 15));
    s.always("max_pad", pad);
    s.set("act_words", d.power_of_two(1, 16) + (d.chance(30) ? 3 : 0));
    s.set("weight_rows", d.power_of_two(1, 20));
    const bool mec = d.chance(30);
    if (mec) s.always("mec_window", d.corner(1, d.small() ? 512 : 65535));
    if (d.chance(40)) {
      YAML::Node flows(YAML::NodeType::Sequence);
      // zero_skip needs the sequencer's zero-skipping array: not drawn.
      for (unsigned f = 0; f < golden::kDataflowCount; ++f) {
        if (f == static_cast<unsigned>(golden::Dataflow::kZeroSkip)) continue;
        if (d.chance(60)) flows.push_back(golden::dataflow_name(static_cast<golden::Dataflow>(f)));
      }
      bool conv = false;
      for (const auto& f : flows) conv = conv || f.as<std::string>() == "conv";
      if (flows.size() == 0 || (mec && !conv)) flows.push_back("conv");
      agu["dataflows"] = flows;
    }
    root["agu"] = agu;
  }
};

}  // namespace

const Block& block() {
  static const AguBlock kBlock;
  return kBlock;
}

const AguConfig& config_of(const config::Config& config) {
  return config.sections.get<AguConfig>(kName);
}

nlohmann::json Design::derived_json() const {
  const auto& p = params;
  return {{"act_addr_bits", p.act_addr_bits()},
          {"weight_addr_bits", p.weight_addr_bits()},
          {"coord_bits", coord_bits},
          {"modules", {agu_module}}};
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  const auto& p = params;
  return {
      SvConstant::integer("Lanes", p.lanes, "L: channels in an activation word."),
      SvConstant::integer("Tiles", p.tiles, "T: filters computed at once."),
      SvConstant::integer("MaxHeight", p.max_height, "Largest input height."),
      SvConstant::integer("MaxWidth", p.max_width, "Largest input width."),
      SvConstant::integer("MaxChannels", p.max_channels, "Largest channel and filter count."),
      SvConstant::integer("MaxBatch", p.max_batch, "Largest batch."),
      SvConstant::integer("MaxKernel", p.max_kernel, "Largest kernel height and width."),
      SvConstant::integer("MaxStride", p.max_stride, "Largest stride."),
      SvConstant::integer("MaxPad", p.max_pad, "Largest padding on a side."),
      SvConstant::integer("DimBits", AguParams::kDimBits,
                          "Bits of the H, W, C, N and K register fields."),
      SvConstant::integer("SmallBits", AguParams::kSmallBits,
                          "Bits of the kernel, stride and padding register fields."),
      SvConstant::integer("ActAddrBits", p.act_addr_bits(), "Bits of an activation word address."),
      SvConstant::integer("WeightAddrBits", p.weight_addr_bits(), "Bits of a weight row address."),
      SvConstant::integer("LaneBits", p.lane_bits(), "Bits of a lane inside a word."),
      SvConstant::integer("TileBits", p.tile_bits(), "Bits of a tile index."),
      SvConstant::integer("TilesWords", p.tiles / p.lanes,
                          "Whole words in T output elements (a filter block's output step)."),
      SvConstant::integer("TilesLanes", p.tiles % p.lanes,
                          "Lanes beyond them: T = TilesWords x L + TilesLanes."),
      SvConstant::integer("FiltersBits", p.filters_bits(), "Bits of a block's filter count."),
      SvConstant::integer("Dataflows", p.dataflows,
                          "The dataflows generated, a bit each: 0 conv, 1 fc, 2 fc_batch."),
      SvConstant::integer("HasFcBatch", p.generates(golden::Dataflow::kFcBatch) ? 1 : 0,
                          "1: the fc_batch order is generated."),
      SvConstant::integer("CoordBits", coord_bits,
                          "Bits of a signed input coordinate (padding below 0, the next window "
                          "past the input)."),
      SvConstant::integer("ChanBits", chan_bits, "Bits of the channel counter (up to C + L)."),
      SvConstant::integer("ChanWordBits", chan_word_bits, "Bits of the channel-word counter."),
      SvConstant::integer("FilterBits", filter_bits,
                          "Bits of the filter-block counter (up to K + T)."),
      SvConstant::integer("BatchBits", batch_bits, "Bits of the image counter (up to N)."),
      SvConstant::integer("MecWindow", p.mec_window,
                          "Words of the MEC window; 0: the MEC order is not generated."),
      SvConstant::integer("WinBits", p.win_bits(), "Bits of a MEC window slot."),
      SvConstant::integer("GroupStrideLog2", golden::ceil_log2(golden::agu_csr::kGroupStride),
                          "log2 of the bytes between register groups."),
  };
}

std::string dataflow_list(const AguParams& p) {
  std::string out;
  for (unsigned d = 0; d < golden::kDataflowCount; ++d) {
    const auto flow = static_cast<golden::Dataflow>(d);
    if (!p.generates(flow)) continue;
    out += (out.empty() ? "" : ", ") + std::string(golden::dataflow_name(flow));
  }
  return out;
}

std::vector<std::string> Design::summary() const {
  const auto& p = params;
  return {fmt::format(
      "address generator {}: {}{} for {} tiles x {} lanes; H, W up to {} x {}, C and K up to "
      "{}, N up to {}, kernel up to {}, stride up to {}, padding up to {}; {}-bit activation "
      "and output, {}-bit weight addresses; two register groups",
      agu_module, dataflow_list(p),
      p.mec_window > 0 ? fmt::format(" (conv im2col and MEC, a {}-word window)", p.mec_window)
                       : std::string(),
      p.tiles, p.lanes, p.max_height, p.max_width, p.max_channels, p.max_batch, p.max_kernel,
      p.max_stride, p.max_pad, p.act_addr_bits(), p.weight_addr_bits())};
}

DesignParams Design::design_params() const {
  return {{"npugen/golden/agu/params.hpp"},
          emit::cpp_constant("AguParams", "kAgu", params) +
              fmt::format("static_assert(kAgu.act_addr_bits() == {}, \"golden address width "
                          "differs from the RTL's\");\n",
                          params.act_addr_bits())};
}

}  // namespace npugen::blocks::agu
