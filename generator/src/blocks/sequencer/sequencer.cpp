#include "blocks/sequencer/sequencer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "blocks/agu/agu.hpp"
#include "blocks/pe_array/pe_array.hpp"
#include "blocks/post/post.hpp"
#include "blocks/zs/zs.hpp"
#include "emit/cpp_literal.hpp"

namespace npugen::blocks::sequencer {
namespace {

constexpr std::string_view kName = "sequencer";
using golden::SequencerParams;

SequencerConfig read_section(config::Reader& r, config::Section& root, const config::Config& c) {
  SequencerConfig sc;
  SequencerParams& p = sc.params;
  config::Section s = root.section(
      "sequencer",
      "Sequencer (docs/sequencer.md): the neural engine that runs conv, fc and fc_batch "
      "layers on the dense PE array, with activation buffers A and B (agu.act_words words each), "
      "a weight store (agu.weight_rows rows of pe_array.tiles x lanes weights) and a two-set "
      "weight cache. It instantiates the address generator (section agu), the PE array and the "
      "post unit (section post), which must be enabled too. Absent or disabled: not generated.");
  s.boolean("enabled", sc.enabled, "Generate the sequencer.");
  s.integer("cache_rows", p.cache_rows, 1, SequencerParams::kMaxCacheRows,
            "Rows of each tile's weight cache, per set (two sets): a conv filter block of "
            "KH x KW x ceil(C/L) rows up to this is read from the store once; a longer one "
            "streams from the store. fc_batch keeps each image's ceil(C/L) feature words here.");
  if (!r.describing() && !sc.enabled) {
    s.finish();
    return sc;
  }
  const golden::PeArrayParams& array = pe_array::params(c);
  const agu::AguConfig& agu = agu::config_of(c);
  const post::PostConfig& post = post::config_of(c);
  const auto where = s.location_of("enabled");
  const std::string path = s.path_of("enabled");
  r.rule(
      "sequencer.enabled needs agu.enabled and post.enabled: the sequencer instantiates the "
      "address generator, the post unit and the dense array.");
  if (r.checks({"agu.enabled"}) && !agu.enabled) {
    r.error(where, path, "the sequencer needs the address generator: set agu.enabled");
  }
  if (r.checks({"post.enabled"}) && !post.enabled) {
    r.error(where, path, "the sequencer needs the post unit: set post.enabled");
  }
  r.rule(
      "With the sequencer, zs.enabled exactly when zero_skip is among agu.dataflows: the "
      "zero-skipping array beside the dense one runs the zero_skip layers (docs/sequencer.md).");
  const bool zs_on = zs::config_of(c).enabled;
  const bool zs_flow = agu.params.generates(golden::Dataflow::kZeroSkip);
  if (agu.enabled && r.checks({"zs.enabled", "agu.dataflows"}) && zs_on != zs_flow) {
    r.error(where, path,
            zs_on ? "zs.enabled puts the zero-skipping array into the sequencer: add zero_skip "
                    "to agu.dataflows"
                  : "agu.dataflows names zero_skip: the sequencer runs it on the zero-skipping "
                    "array, so set zs.enabled");
  }
  r.rule(
      fmt::format("With the sequencer's zero-skipping array, zs.max_rows is at least {0}: the "
                  "staging memory holds {0} pixel windows of zs.max_rows / {0} words.",
                  golden::SequencerDesign::kZsSlots));
  if (zs_on && zs_flow && r.checks({"zs.max_rows"}) &&
      zs::config_of(c).params.max_rows < golden::SequencerDesign::kZsSlots) {
    r.error(where, path,
            fmt::format("zs.max_rows {} leaves no room for a pixel window in each of the {} "
                        "staging slots: make it at least {}",
                        zs::config_of(c).params.max_rows, golden::SequencerDesign::kZsSlots,
                        golden::SequencerDesign::kZsSlots));
  }
  r.rule(
      "With the sequencer's zero-skipping array, zs.max_rows is at most 3 x the largest pixel "
      "window the address generator streams, agu.max_kernel^2 x ceil(agu.max_channels / "
      "pe_array.lanes): a larger staging memory holds nothing more.");
  const uint64_t largest_window =
      uint64_t{agu.params.max_kernel} * agu.params.max_kernel *
      ((uint64_t{agu.params.max_channels} + array.lanes - 1) / std::max(1U, array.lanes));
  if (zs_on && zs_flow &&
      r.checks({"zs.max_rows", "agu.max_kernel", "agu.max_channels", "pe_array.lanes"}) &&
      zs::config_of(c).params.max_rows > golden::SequencerDesign::kZsSlots * largest_window) {
    r.error(where, path,
            fmt::format("zs.max_rows {} stages more than {} pixel windows of at most {} words "
                        "(agu.max_kernel^2 x ceil(agu.max_channels / pe_array.lanes)): make it at "
                        "most {}",
                        zs::config_of(c).params.max_rows, golden::SequencerDesign::kZsSlots,
                        largest_window, golden::SequencerDesign::kZsSlots * largest_window));
  }
  r.rule(
      "With the sequencer, pe_array is TFLite int8: 8-bit signed weights and activations, "
      "32-bit accumulators.");
  if (r.checks({"pe_array.weight", "pe_array.activation", "pe_array.accumulator"}) &&
      (array.weight_width != 8 || !array.weight_signed || array.act_width != 8 ||
       !array.act_signed || array.acc_width != 32)) {
    r.error(
        where, path,
        fmt::format("the sequencer runs TFLite int8 layers: pe_array needs signed 8-bit "
                    "weights and activations and 32-bit accumulators (it has {}{}-bit "
                    "weights, {}{}-bit activations, {}-bit accumulators)",
                    array.weight_signed ? "signed " : "unsigned ", array.weight_width,
                    array.act_signed ? "signed " : "unsigned ", array.act_width, array.acc_width));
  }
  r.rule(
      "With the sequencer, post.lanes divides pe_array.lanes: a beat of results is written "
      "into one buffer word.");
  if (post.enabled && r.checks({"post.lanes", "pe_array.lanes"}) &&
      array.lanes % post.params.lanes != 0) {
    r.error(where, path,
            fmt::format("post.lanes {} does not divide pe_array.lanes {}: a beat of results "
                        "would straddle two buffer words",
                        post.params.lanes, array.lanes));
  }
  r.rule(
      fmt::format("With the sequencer, pe_array.lanes is at most {} and tiles x lanes at most "
                  "{} (the width of a weight row).",
                  SequencerParams::kMaxLanes, SequencerParams::kMaxMultipliers));
  if (r.checks({"pe_array.tiles", "pe_array.lanes"}) &&
      (array.lanes > SequencerParams::kMaxLanes ||
       uint64_t{array.tiles} * array.lanes > SequencerParams::kMaxMultipliers)) {
    r.error(where, path,
            fmt::format("a {} x {} array is too wide for the sequencer: at most {} lanes and {} "
                        "multipliers",
                        array.tiles, array.lanes, SequencerParams::kMaxLanes,
                        SequencerParams::kMaxMultipliers));
  }
  r.rule(
      "With fc_batch generated, sequencer.cache_rows holds an image's features: at least "
      "ceil(agu.max_channels / pe_array.lanes).");
  const uint64_t feature_words =
      (uint64_t{agu.params.max_channels} + array.lanes - 1) / array.lanes;
  if (r.checks({"sequencer.cache_rows", "agu.max_channels", "agu.dataflows", "pe_array.lanes"}) &&
      agu.params.generates(golden::Dataflow::kFcBatch) && p.cache_rows < feature_words) {
    r.error(s.location_of("cache_rows"), s.path_of("cache_rows"),
            fmt::format("{} rows cannot hold an fc_batch image of up to {} channels ({} words "
                        "of {} lanes): make it at least {}, or leave fc_batch out of "
                        "agu.dataflows",
                        p.cache_rows, agu.params.max_channels, feature_words, array.lanes,
                        feature_words));
  }
  s.finish();
  return sc;
}

class SequencerBlock : public SectionBlock<SequencerConfig> {
 public:
  SequencerBlock() : SectionBlock(kName, "the sequencer", read_section) {}
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.modes = {"check", "perf", "layers"};
    b.golden = {"agu", "pe_array", "zs", "post", "sequencer"};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    golden::SequencerDesign& g = d->design;
    g.seq = config_of(c).params;
    g.agu = agu::config_of(c).params;
    g.array = pe_array::params(c);
    g.post = post::config_of(c).params;
    if (g.agu.generates(golden::Dataflow::kZeroSkip)) {
      g.zs = zs::config_of(c).params;
      d->zs_array_module = fmt::format("{}_zs_array", c.design.module_prefix);
    }
    const uint64_t max_rows = uint64_t{g.agu.max_kernel} * g.agu.max_kernel *
                              ((uint64_t{g.agu.max_channels} + g.lanes() - 1) / g.lanes());
    d->row_count_bits = golden::field_bits(std::max<uint64_t>(max_rows, g.seq.cache_rows) + 1);
    d->cache_addr_bits = golden::field_bits(g.seq.cache_rows);
    d->beat_index_bits = golden::field_bits(uint64_t{g.tiles()} + 1);
    d->pending_bits = golden::field_bits(uint64_t{g.result_queue_depth()} + 8);
    const std::string& prefix = c.design.module_prefix;
    d->seq_module = fmt::format("{}_{}", prefix, kName);
    d->ram_module = fmt::format("{}_ram_1r1w", prefix);
    d->package = d->seq_module + "_pkg";
    d->agu_module = fmt::format("{}_agu", prefix);
    d->post_module = fmt::format("{}_post", prefix);
    d->array_module = fmt::format("{}_pe_array", prefix);
    return d;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    if (d.chance(50)) return;  // absent: not generated
    YAML::Node seq(YAML::NodeType::Map);
    DrawnSection s(d, seq);
    YAML::Node pe = root["pe_array"];
    const int64_t tiles = pe["tiles"].as<int64_t>(1);
    const int64_t lanes = pe["lanes"].as<int64_t>(1);
    const bool fits =
        lanes <= SequencerParams::kMaxLanes && tiles * lanes <= SequencerParams::kMaxMultipliers;
    // Enabled: the sections it needs are made to fit it (int8 array, address generator and
    // post unit on, no zero-skipping array, memories a co-simulation fills in seconds).
    const bool enabled = fits && d.chance(70);
    s.always("enabled", enabled);
    int64_t channels = 256;
    if (enabled) {
      for (const char* key : {"weight", "activation"}) {
        pe[key]["width"] = 8;
        pe[key]["signed"] = true;
      }
      pe["accumulator"]["width"] = 32;
      // The zero-skipping array beside the dense one, now and then (a drawn zs section
      // switched on, its staging memory of 3 to 96 words, zero_skip among the dataflows).
      const bool with_zs = root["zs"] && d.chance(40);
      if (root["zs"]) root["zs"]["enabled"] = with_zs;
      YAML::Node agu = root["agu"];
      if (!agu) agu = YAML::Node(YAML::NodeType::Map);
      agu["enabled"] = true;
      agu["act_words"] = d.range(256, 4096);
      agu["weight_rows"] = d.range(256, 4096);
      channels = d.corner(1, 64);
      agu["max_channels"] = channels;
      const int64_t kernel = d.corner(1, 5);
      const int64_t pad = d.range(0, kernel - 1);
      const int64_t least = std::max<int64_t>(1, kernel - 2 * pad);  // the kernel fits
      agu["max_kernel"] = kernel;
      agu["max_pad"] = pad;
      agu["max_height"] = d.corner(least, 16);
      agu["max_width"] = d.corner(least, 16);
      if (agu["mec_window"]) agu["mec_window"] = d.corner(1, 256);  // a window sim fills fast
      agu["max_batch"] = d.corner(1, 4);
      if (with_zs) {
        const int64_t window = kernel * kernel * ((channels + lanes - 1) / lanes);
        root["zs"]["max_rows"] = d.range(3, 3 * std::min<int64_t>(32, window));
        YAML::Node flows = agu["dataflows"];
        if (!flows) {
          flows = YAML::Node(YAML::NodeType::Sequence);
          for (const char* f : {"conv", "fc", "fc_batch"}) flows.push_back(f);
        }
        flows.push_back("zero_skip");
        agu["dataflows"] = flows;
      }
      root["agu"] = agu;
      YAML::Node post = root["post"];
      if (!post) post = YAML::Node(YAML::NodeType::Map);
      post["enabled"] = true;
      std::vector<int64_t> divisors;  // of both T and L
      for (int64_t p = 1; p <= std::min<int64_t>(tiles, lanes); ++p) {
        if (tiles % p == 0 && lanes % p == 0) divisors.push_back(p);
      }
      post["lanes"] = d.pick(divisors);
      post["max_channels"] = std::max<int64_t>(4 * tiles + 2, d.corner(1, 256));
      root["post"] = post;
    }
    // Rows enough for an fc_batch image of the largest channel count the generator takes.
    const int64_t words = (channels + lanes - 1) / lanes;
    s.always("cache_rows", std::min<int64_t>(SequencerParams::kMaxCacheRows,
                                             std::max<int64_t>(words, d.corner(1, 256))));
    root["sequencer"] = seq;
  }
};

}  // namespace

const Block& block() {
  static const SequencerBlock kBlock;
  return kBlock;
}

const SequencerConfig& config_of(const config::Config& config) {
  return config.sections.get<SequencerConfig>(kName);
}

nlohmann::json Design::derived_json() const {
  return {{"mem_data_bits", design.mem_data_bits()},
          {"mem_addr_bits", design.mem_addr_bits()},
          {"row_count_bits", row_count_bits},
          {"modules", {seq_module, ram_module}}};
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  using namespace golden::sequencer_csr;
  const golden::SequencerDesign& g = design;
  return {
      SvConstant::integer("Tiles", g.tiles(), "T: tiles of the PE array."),
      SvConstant::integer("Lanes", g.lanes(), "L: lanes of the PE array, bytes of a buffer word."),
      SvConstant::integer("AccWidth", g.array.acc_width, "Bits of an accumulator."),
      SvConstant::integer("PostLanes", g.post.lanes, "P: the post unit's results per beat."),
      SvConstant::integer("PostLaneBits", golden::field_bits(g.post.lanes),
                          "Bits of a lane of a beat."),
      SvConstant::integer("PostCountBits", g.post.count_bits(), "Bits of a beat's count."),
      SvConstant::integer("PostGroupBits", g.post.group_bits(), "Bits of a parameter-table group."),
      SvConstant::integer("PostShiftBits", golden::PostParams::kShiftBits, "Bits of a shift."),
      SvConstant::integer("BlockGroups", g.tiles() / g.post.lanes,
                          "Table groups of a filter block: T / P."),
      SvConstant::integer("ActWords", g.agu.act_words, "Words of each activation buffer."),
      SvConstant::integer("ActAddrBits", g.agu.act_addr_bits(), "Bits of a buffer word address."),
      SvConstant::integer("WeightRows", g.agu.weight_rows, "Rows of the weight store."),
      SvConstant::integer("WeightAddrBits", g.agu.weight_addr_bits(),
                          "Bits of a weight row address."),
      SvConstant::integer("CacheRows", g.seq.cache_rows, "Rows of a weight-cache set."),
      SvConstant::integer("MecWindow", g.agu.mec_window,
                          "Words of the MEC window; 0: the MEC order is not generated."),
      SvConstant::integer("WinBits", g.agu.win_bits(), "Bits of a MEC window slot."),
      SvConstant::integer("CacheAddrBits", cache_addr_bits, "Bits of a cache row address."),
      SvConstant::integer("RowCountBits", row_count_bits,
                          "Bits of a filter block's row count (kernel^2 x ceil(C/L) at most)."),
      SvConstant::integer("LaneBits", g.agu.lane_bits(), "Bits of a lane of a word."),
      SvConstant::integer("TileBits", g.agu.tile_bits(), "Bits of a tile."),
      SvConstant::integer("FiltersBits", g.agu.filters_bits(), "Bits of a result count."),
      SvConstant::integer("BeatIndexBits", beat_index_bits, "Bits of the drain's beat counters."),
      SvConstant::integer("PendingBits", pending_bits,
                          "Bits of the dot products in flight per output buffer."),
      SvConstant::integer("ResultDepth", g.result_queue_depth(),
                          "Dot products in flight in the array, at most."),
      SvConstant::integer("BeatDepth", g.beat_queue_depth(), "Beats in the post unit, at most."),
      SvConstant::integer("MemAddrBits", g.mem_addr_bits(), "Bits of the host port's address."),
      SvConstant::integer("MemDataBits", g.mem_data_bits(), "Bits of the host port's data."),
      SvConstant::integer("ApbAddrBits", kAddrBits, "Bits of the APB port's address."),
      SvConstant::integer("AguWindow", kAguWindow, "The address generator's window."),
      SvConstant::integer("PostWindow", kPostWindow, "The post unit's window."),
      SvConstant::integer("OwnWindow", kOwnWindow, "The sequencer's own registers' window."),
      SvConstant::integer("AguAddrBits", golden::agu_csr::register_map(g.agu).addr_bits(),
                          "Bits of the address generator's register address."),
      SvConstant::integer("PostAddrBits", golden::post_csr::register_map(g.post).addr_bits(),
                          "Bits of the post unit's register address."),
      SvConstant::integer("HasZs", g.zs ? 1 : 0,
                          "The zero-skipping array and its path (dataflow zero_skip)."),
      SvConstant::integer("StoreBytes", g.store_row_bytes(),
                          "Bytes of a store row: T x L weights, with zs a step's control above."),
      SvConstant::integer("ZsRows", std::max(1U, g.zs_stage_rows()),
                          "Zero skip: words of the staging memory (zs.max_rows)."),
      SvConstant::integer("ZsSlots", golden::SequencerDesign::kZsSlots,
                          "Zero skip: pixel windows the staging memory holds."),
      SvConstant::integer("ZsSlotBits", golden::field_bits(golden::SequencerDesign::kZsSlots),
                          "Zero skip: bits of a slot."),
      SvConstant::integer("ZsSlotRows", std::max(1U, g.zs_slot_rows()),
                          "Zero skip: words of a slot, a pixel window at most."),
      SvConstant::integer("ZsRowBits", golden::field_bits(std::max(1U, g.zs_stage_rows())),
                          "Zero skip: bits of a staging row."),
      SvConstant::integer("ZsRowsPerCycle", g.zs ? g.zs->act_rows_per_cycle : 1,
                          "Zero skip: rows the array reads a cycle (R)."),
      SvConstant::integer("ZsCtrlLsb", g.zs_ctrl_lsb(),
                          "Zero skip: a step's control word in its row."),
      SvConstant::integer("ZsCtrlBits", std::max(1U, g.zs_ctrl_bits()),
                          "Zero skip: bits of the control word."),
      SvConstant::integer("ZsFiltersLsb", g.zs_filters_lsb(), "Zero skip: the job's filters."),
      SvConstant::integer("ZsEndBit", g.zs_end_bit(), "Zero skip: the pixel's last step."),
  };
}

std::vector<std::string> Design::summary() const {
  const golden::SequencerDesign& g = design;
  return {fmt::format(
      "sequencer {}: {} on the {} x {} array; buffers A and B of {} words, a store of {} rows, a "
      "cache of 2 x {} rows per tile; post unit {} ({} per beat); host port {} data bits",
      seq_module, agu::dataflow_list(g.agu), g.tiles(), g.lanes(), g.agu.act_words,
      g.agu.weight_rows, g.seq.cache_rows, post_module, g.post.lanes, g.mem_data_bits())};
}

DesignParams Design::design_params() const {
  return {{"npugen/golden/sequencer/params.hpp"},
          emit::cpp_constant("SequencerParams", "kSequencer", design.seq) +
              fmt::format("static_assert(kSequencer.cache_rows == {}, \"golden cache size "
                          "differs from the RTL's\");\n"
                          "/// The sequencer's zero-skipping array (nullopt: none).\n"
                          "inline std::optional<golden::ZeroSkipParams> sequencer_zs() {{ "
                          "return {}; }}\n",
                          design.seq.cache_rows, design.zs ? "kZeroSkip" : "std::nullopt")};
}

}  // namespace npugen::blocks::sequencer
