#include "blocks/zs/zs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "blocks/sequencer/sequencer.hpp"
#include "emit/cpp_literal.hpp"
#include "npugen/golden/common/bits.hpp"

namespace npugen::blocks::zs {
namespace {

constexpr std::string_view kName = "zs";
constexpr unsigned kMaxLookahead = 4;  ///< a level's lookahead (h or H)
/// R: at most the widest activation window, both levels' lookahead and the current row.
constexpr unsigned kMaxActRows = 2 * kMaxLookahead + 1;

ZsConfig read_section(config::Reader& r, config::Section& root, const config::Config& c) {
  ZsConfig z;
  z.params.array = pe_array::params(c);
  golden::ZeroSkipParams& p = z.params;
  config::Section s = root.section(
      "zs",
      "Zero skipping (docs/zs.md): the PE array of section pe_array with preprocessed weights and "
      "control bits; cycles whose rows are empty in every tile are skipped. Absent or disabled: "
      "the dense array. With the sequencer it sits beside the dense array and runs the "
      "zero_skip layers (agu.dataflows; docs/sequencer.md).");
  s.boolean("enabled", z.enabled,
            "Generate the zero-skipping array: instead of the dense array, or with the "
            "sequencer beside it.");
  std::vector<config::Section> levels = s.list(
      "levels",
      "Levels of preprocessing, lowest first: [0] intra-tile (weights move inside a tile), [1] "
      "inter-tile (whole rows move between tiles). Each works on the sparsity map the level "
      "below leaves; a level not given is off.",
      1, 2, 2);
  golden::SkipDepth* depth[2] = {&p.intra, &p.inter};
  for (size_t i = 0; i < levels.size(); ++i) {
    config::Section& l = levels[i];
    const bool inter = i == 1 || r.describing();
    bool on = true;
    l.boolean("enabled", on, "This level is used; off generates no logic for it.");
    l.integer("lookahead", depth[i]->lookahead, 0, kMaxLookahead,
              "Rows a weight (level 0: h) or a tile row (level 1: H) may move earlier. Level 0: "
              "lane mux inputs; level 1: tile prefetch mux inputs H+1.");
    l.integer("lookaside", depth[i]->lookaside, 0, inter ? 16 : 4,
              "Level 0 (d, at most 4): lanes to either side a weight may move. Level 1 (D, at "
              "most 16): tiles a row may move to from the next ones; the result demultiplexer "
              "has D+1 outputs.");
    l.finish();
    if (!on) *depth[i] = golden::SkipDepth{0, 0};
  }
  if (levels.size() < 2) p.inter = golden::SkipDepth{0, 0};
  auto level_json = [](const golden::SkipDepth& d) {
    return nlohmann::json{{"enabled", d.lookahead != 0 || d.lookaside != 0},
                          {"lookahead", d.lookahead},
                          {"lookaside", d.lookaside}};
  };
  s.canonical("levels", {level_json(p.intra), level_json(p.inter)});
  s.integer("act_rows_per_cycle", p.act_rows_per_cycle, 1, kMaxActRows,
            "R: activation rows the activation buffer delivers per cycle, at most the "
            "activation window (the rule below). A step whose window needs n new rows stalls "
            "ceil(n/R) - 1 cycles.");
  s.integer("max_rows", p.max_rows, 1, 1 << 20,
            "Most original cycles C of one job (rows of the weight tensor); sets the width of "
            "the base-advance field.");
  s.integer("step_buffer_depth", p.step_buffer_depth, 1, 64,
            "Entries of the weight buffer and of the control-bit buffer beside it.");
  r.rule(
      "zs.levels[1].lookaside (D) of an enabled level 1 is less than pe_array.tiles: a row "
      "moves at most to the first tile.");
  if (z.enabled && r.checks({"zs.levels[1]", "pe_array.tiles"}) &&
      p.inter.lookaside >= p.array.tiles) {
    r.error(levels[1].location_of("lookaside"), levels[1].path_of("lookaside"),
            fmt::format("lookaside {} needs at least {} tiles; the array has {}", p.inter.lookaside,
                        p.inter.lookaside + 1, p.array.tiles));
  }
  r.rule(
      "zs.levels[0].lookaside (d) of an enabled level 0 is less than pe_array.lanes: a weight "
      "moves at most to the other edge of its tile.");
  if (z.enabled && r.checks({"zs.levels[0]", "pe_array.lanes"}) &&
      p.intra.lookaside >= p.array.lanes) {
    r.error(levels[0].location_of("lookaside"), levels[0].path_of("lookaside"),
            fmt::format("lookaside {} needs at least {} lanes; a tile has {}", p.intra.lookaside,
                        p.intra.lookaside + 1, p.array.lanes));
  }
  r.rule(
      "zs.act_rows_per_cycle (R) is at most the activation window, levels[0].lookahead + "
      "levels[1].lookahead + 1 (levels switched off count 0): a step never needs more rows "
      "than the window holds.");
  if (z.enabled && r.checks({"zs.act_rows_per_cycle", "zs.levels"}) &&
      p.act_rows_per_cycle > p.window()) {
    r.error(s.location_of("act_rows_per_cycle"), s.path_of("act_rows_per_cycle"),
            fmt::format("{} rows per cycle exceed the activation window of {} row(s); use at "
                        "most {}",
                        p.act_rows_per_cycle, p.window(), p.window()));
  }
  s.finish();
  return z;
}

class ZsBlock : public SectionBlock<ZsConfig> {
 public:
  ZsBlock() : SectionBlock(kName, "the zero-skipping PE array", read_section) {}
  /// Alone, the zero-skipping array stands in for the dense one; the sequencer instantiates
  /// both (zero_skip layers on this one, the others on the dense one).
  [[nodiscard]] std::string_view replaces(const config::Config& c) const override {
    return sequencer::config_of(c).enabled ? std::string_view{} : std::string_view{"pe_array"};
  }
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.golden = {"pe_array", "zs"};
    b.offline = {{"preprocess", OfflineBench::Takes::kFile,
                  "Measure zero-skipping preprocessing of this [T][C][L] .npy instead", true,
                  bench_preprocess}};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override;
  void draw(RandomDraw& d, YAML::Node& root) const override;
};

std::shared_ptr<const BlockDesign> ZsBlock::elaborate(const config::Config& c) const {
  auto z = std::make_shared<Design>();
  z->array = pe_array::elaborate_array(c, kName);
  z->params = config_of(c).params;
  z->beside_dense = sequencer::config_of(c).enabled;
  z->layout = golden::ControlLayout::of(z->params);
  z->window = static_cast<int>(z->params.window());
  // Row counts (fresh rows, rows loaded, rows read: 0 to the window) share one width that
  // also holds R + 1, so that comparing a count with R is never constant (R need not be a
  // power of two).
  z->count_bits = std::max(static_cast<int>(golden::ceil_log2(z->params.window() + 1)),
                           static_cast<int>(golden::ceil_log2(z->params.act_rows_per_cycle + 2)));
  // Rows read reach base + window - 1 <= max_rows - 1 + window - 1; the row arithmetic also
  // takes the counts (and the advance) without truncating them.
  z->row_bits = std::max(
      {static_cast<int>(z->layout.advance_bits), z->count_bits,
       static_cast<int>(golden::ceil_log2(uint64_t{z->params.max_rows} + z->params.window() - 1))});
  z->lane_mux = z->params.lane_selects() > 1;
  z->prefetch_mux = z->params.inter.lookahead > 0;
  z->demux = z->params.inter.lookaside > 0;
  z->row_width = static_cast<int>(z->array.params.lanes * z->array.params.act_width);
  z->tile_rows = static_cast<int>(z->params.intra.lookahead + 1);
  z->lane_span = static_cast<int>(2 * z->params.intra.lookaside + 1);
  z->demux_inputs = static_cast<int>(z->params.inter.lookaside + 1);
  const std::string stem = fmt::format("{}_{}", c.design.module_prefix, kName);
  z->array_module = stem + "_array";
  z->package = stem + "_pkg";
  z->window_module = stem + "_act_window";
  z->prefetch_module = stem + "_prefetch_mux";
  z->lane_mux_module = stem + "_lane_mux";
  z->demux_module = stem + "_result_demux";
  z->accumulator_module = stem + "_accumulator";
  return z;
}

void ZsBlock::draw(RandomDraw& d, YAML::Node& root) const {
  if (!d.chance(50)) return;
  const int64_t tiles = root["pe_array"]["tiles"].as<int64_t>();
  const int64_t lanes = root["pe_array"]["lanes"].as<int64_t>();
  YAML::Node zs(YAML::NodeType::Map);
  DrawnSection z(d, zs);
  z.always("enabled", d.chance(80));
  YAML::Node levels(YAML::NodeType::Sequence);
  const int count = d.chance(80) ? 2 : 1;
  int window = 1;
  for (int i = 0; i < count; ++i) {
    YAML::Node level(YAML::NodeType::Map);
    DrawnSection l(d, level);
    const bool on = d.chance(80);
    l.always("enabled", on);
    const int64_t ahead = d.corner(0, d.small() ? 3 : 4);
    // Lookaside reaches lanes (level 0) or tiles (level 1) of this array only.
    const int64_t aside_limit =
        i == 0 ? std::min<int64_t>(4, lanes - 1) : std::min<int64_t>(16, tiles - 1);
    const int64_t aside = aside_limit <= 0 ? 0 : d.corner(0, aside_limit);
    l.always("lookahead", ahead);
    l.always("lookaside", aside);
    if (on) window += static_cast<int>(ahead);
    levels.push_back(level);
  }
  z.always("levels", levels);
  z.always("act_rows_per_cycle", d.range(1, window));
  z.set("max_rows", d.chance(20) ? d.range(1, 3) : d.size(1, d.small() ? 1024 : 1 << 20));
  const int64_t depth_limit = d.small() && tiles * lanes > 8 ? 8 : 64;
  z.set("step_buffer_depth", d.corner(1, depth_limit));
  root["zs"] = zs;
}

}  // namespace

const Block& block() {
  static const ZsBlock kBlock;
  return kBlock;
}

const ZsConfig& config_of(const config::Config& config) {
  return config.sections.get<ZsConfig>(kName);
}

nlohmann::json Design::derived_json() const {
  nlohmann::json fields = nlohmann::json::array();
  for (const auto& f : layout.fields()) {
    fields.push_back({{"name", f.name}, {"lsb", f.lsb}, {"bits", f.width}});
  }
  nlohmann::json j = pe_array::array_json(array);
  j["window_rows"] = window;
  j["lane_mux_inputs"] = params.lane_selects();
  j["control_word_bits"] = layout.width();
  j["control_fields"] = fields;
  j["row_address_bits"] = row_bits;
  j["modules"] = {array_module,    array.tile_module, array.tree_module, window_module,
                  prefetch_module, lane_mux_module,   demux_module,      accumulator_module};
  return j;
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  elab::SvConstants c = array.constants();
  const auto& p = params;
  const elab::SvConstants more = {
      SvConstant::integer("IntraLookahead", p.intra.lookahead,
                          "h: rows a weight may move earlier (level 0)."),
      SvConstant::integer("IntraLookaside", p.intra.lookaside,
                          "d: lanes to either side a weight may move (level 0)."),
      SvConstant::integer("InterLookahead", p.inter.lookahead,
                          "H: rows a tile may run ahead (level 1)."),
      SvConstant::integer("InterLookaside", p.inter.lookaside,
                          "D: tiles a row may move to from the next ones (level 1)."),
      SvConstant::integer("DemuxOutputs", p.inter.lookaside + 1,
                          "Outputs of a result demultiplexer: D + 1 accumulators a sum may reach."),
      SvConstant::integer("Window", window, "Activation rows the window holds: h + H + 1."),
      SvConstant::integer("ActRdWidth",
                          int64_t{p.act_rows_per_cycle} * p.array.lanes * p.array.act_width,
                          "Bits of the rows read per cycle: RowsPerCycle x Lanes x ActWidth."),
      SvConstant::integer("WindowWidth", int64_t{window} * p.array.lanes * p.array.act_width,
                          "Bits of the window: Window x Lanes x ActWidth."),
      SvConstant::integer("TileRowsWidth",
                          int64_t{p.intra.lookahead + 1} * p.array.lanes * p.array.act_width,
                          "Bits of the rows one tile reads: (h + 1) x Lanes x ActWidth."),
      SvConstant::integer("DemuxWidth", int64_t{p.inter.lookaside + 1} * p.array.acc_width,
                          "Bits of a result demultiplexer's outputs: DemuxOutputs x AccWidth."),
      SvConstant::integer("RowsPerCycle", p.act_rows_per_cycle,
                          "R: activation rows read per cycle."),
      SvConstant::integer("StepBufferDepth", p.step_buffer_depth,
                          "Steps the weight and control-bit buffers hold."),
      SvConstant::integer("LaneSelects", p.lane_selects(),
                          "Inputs of a lane's activation mux: 1 + h(2d + 1)."),
      SvConstant::integer("CountWidth", count_bits,
                          "Bits of a row count (0 to Window, and R + 1)."),
      SvConstant::integer("RowAddrWidth", row_bits, "Bits of an activation row index."),
      SvConstant::integer("CtrlWidth", layout.width(), "Bits of a step's control word."),
      SvConstant::integer("CtrlAdvanceWidth", layout.advance_bits,
                          "Bits of the control word's advance field."),
      SvConstant::integer("CtrlOffsetWidth", layout.tile_offset_bits,
                          "Bits of a tile offset (0: level 1 lookahead off)."),
      SvConstant::integer("CtrlDestWidth", layout.dest_bits,
                          "Bits of a tile's destination (0: level 1 lookaside off)."),
      SvConstant::integer("CtrlSelectWidth", layout.lane_select_bits,
                          "Bits of a lane select (0: level 0 off)."),
  };
  c.insert(c.end(), more.begin(), more.end());
  return c;
}

std::vector<std::string> Design::summary() const {
  const golden::PeArrayParams& a = array.params;
  return {
      fmt::format("zero-skipping PE array {} x {}: {}-bit {} weights, {}-bit {} activations, "
                  "{}-bit accumulators; adder tree latency {} cycle(s)",
                  a.tiles, a.lanes, a.weight_width, a.weight_signed ? "signed" : "unsigned",
                  a.act_width, a.act_signed ? "signed" : "unsigned", a.acc_width, a.latency()),
      fmt::format("zero skipping: intra-tile h={} d={}, inter-tile H={} D={}; window {} row(s), "
                  "{} read per cycle; control word {} bits; buffers {} step(s); jobs up to {} "
                  "rows",
                  params.intra.lookahead, params.intra.lookaside, params.inter.lookahead,
                  params.inter.lookaside, window, params.act_rows_per_cycle, layout.width(),
                  params.step_buffer_depth, params.max_rows)};
}

DesignParams Design::design_params() const {
  return {{"npugen/golden/pe_array/params.hpp", "npugen/golden/zs/params.hpp"},
          (beside_dense ? std::string{} : pe_array::params_declaration(array) + "\n") +
              emit::cpp_constant("ZeroSkipParams", "kZeroSkip", params) +
              fmt::format("static_assert(kZeroSkip.window() == {}, \"golden window differs from "
                          "the RTL's\");\n",
                          window)};
}

}  // namespace npugen::blocks::zs
