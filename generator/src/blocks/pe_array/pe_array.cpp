#include "blocks/pe_array/pe_array.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "emit/cpp_literal.hpp"
#include "npugen/golden/common/bits.hpp"

namespace npugen::blocks::pe_array {
namespace {

constexpr std::string_view kName = "pe_array";

golden::PeArrayParams read_section(config::Reader& r, config::Section& root) {
  golden::PeArrayParams p;
  config::Section pe = root.section("pe_array", "The PE array: T tiles of L multipliers each.");
  pe.required("tiles", p.tiles, 1, 1024,
              "T: tiles. Each has its own weight row and accumulator; the activation vector is "
              "broadcast to all of them.");
  pe.required("lanes", p.lanes, 1, 1024, "L: multipliers per tile, summed by its adder tree.");
  auto format = [&](const char* key, const char* doc, unsigned& width, bool& is_signed) {
    config::Section s = pe.section(key, doc);
    s.integer("width", width, 2, 32, "Bits per value, as stored and as seen by the multipliers.");
    s.boolean("signed", is_signed, "Two's complement (true) or unsigned (false).");
    s.finish();
  };
  format("weight", "Weight format.", p.weight_width, p.weight_signed);
  format("activation", "Activation format.", p.act_width, p.act_signed);
  config::Section acc =
      pe.section("accumulator", "Accumulator format (signed if either operand is).");
  acc.integer("width", p.acc_width, 2, 64, "Bits per accumulator; sums wrap modulo 2^width.");
  acc.finish();
  config::Section tree = pe.section("adder_tree", "The adder tree that sums a tile's products.");
  tree.integer("pipeline_stages", p.tree_stages, 0, 12,
               "Pipeline registers in the adder tree, spread evenly from the products to the "
               "sum; at the most (ceil(log2(lanes)) + 2) one more registers the tile's inputs, "
               "the weights and activations, before the multipliers. Latency from a step to "
               "the accumulator is pipeline_stages + 1 cycles.");
  tree.finish();
  pe.retired("zero_skip",
             "moved: the zero-skipping array is configured in its own top-level section, zs "
             "(with the same keys: enabled, levels, act_rows_per_cycle, max_rows, "
             "step_buffer_depth)");

  r.rule("pe_array.tiles x pe_array.lanes is at most 65536 multipliers.");
  const uint64_t multipliers = uint64_t{p.tiles} * p.lanes;
  if (r.checks({"pe_array.tiles", "pe_array.lanes"}) && multipliers > 65536) {
    r.error(pe.location_of("lanes"), pe.path_of("lanes"),
            fmt::format("tiles x lanes = {} x {} = {} multipliers; at most 65536 are supported",
                        p.tiles, p.lanes, multipliers));
  }
  r.rule(
      "pe_array.accumulator.width is at least weight.width + activation.width, so that one "
      "product fits in an accumulator.");
  const unsigned product_width = p.weight_width + p.act_width;
  if (r.checks(
          {"pe_array.accumulator.width", "pe_array.weight.width", "pe_array.activation.width"}) &&
      p.acc_width < product_width) {
    r.error(acc.location_of("width"), acc.path_of("width"),
            fmt::format("an accumulator of {} bits cannot hold one {}-bit x {}-bit product "
                        "({} bits); make it at least {} bits wide",
                        p.acc_width, p.weight_width, p.act_width, product_width, product_width));
  }
  r.rule(
      "pe_array.adder_tree.pipeline_stages is at most ceil(log2(lanes)) + 2: one register on "
      "the tile's inputs, one after the multipliers and one after each level of the tree.");
  const unsigned max_stages = max_tree_stages(p.lanes);
  if (r.checks({"pe_array.adder_tree.pipeline_stages", "pe_array.lanes"}) &&
      p.tree_stages > max_stages) {
    r.error(tree.location_of("pipeline_stages"), tree.path_of("pipeline_stages"),
            fmt::format("{} pipeline stages do not fit a tree over {} lanes: it has {} "
                        "register positions (the inputs, after the products and after each of "
                        "its {} levels)",
                        p.tree_stages, p.lanes, max_stages, max_stages - 2));
  }
  pe.finish();
  return p;
}

class PeArrayBlock : public Block {
 public:
  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] std::string_view title() const override { return "the dense PE array"; }
  void read(config::Reader& r, config::Section& root, config::Config& c) const override {
    c.sections.put(kName, read_section(r, root));
  }
  [[nodiscard]] bool enabled(const config::Config&) const override { return true; }
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.modes = {"check"};
    b.vectors = "also write stimulus and expected outputs (for the Icarus replay bench)";
    b.golden = {"pe_array"};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    d->array = elaborate_array(c, kName);
    d->array_module = c.design.module_prefix + "_pe_array";
    d->package = d->array_module + "_pkg";
    return d;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    YAML::Node pe(YAML::NodeType::Map);
    DrawnSection s(d, pe);
    const int64_t max_multipliers = d.small() ? 64 : 65536;
    const int64_t tiles = d.size(1, d.small() ? 16 : 1024);
    const int64_t lanes =
        d.size(1, std::min<int64_t>(d.small() ? 16 : 1024, max_multipliers / tiles));
    s.always("tiles", tiles);
    s.always("lanes", lanes);
    // A format is written whole (its default is signed).
    int product = 0;
    for (const char* key : {"weight", "activation"}) {
      const int width = static_cast<int>(d.chance(35) ? 8 : d.corner(2, 32));
      YAML::Node f(YAML::NodeType::Map);
      f["width"] = width;
      f["signed"] = d.chance(70);
      s.always(key, f);
      product += width;
    }
    const int exact = std::min<int>(
        64, product + static_cast<int>(golden::ceil_log2(static_cast<uint64_t>(lanes))));
    YAML::Node acc(YAML::NodeType::Map);
    acc["width"] =
        d.pick(std::vector<int>{product, exact, 64, static_cast<int>(d.range(product, 64))});
    // Left out, the accumulator is 32 bits: too narrow for wider products.
    if (product > 32) {
      s.always("accumulator", acc);
    } else {
      s.set("accumulator", acc);
    }
    YAML::Node tree(YAML::NodeType::Map);
    tree["pipeline_stages"] =
        d.range(0, static_cast<int64_t>(golden::ceil_log2(static_cast<uint64_t>(lanes))) + 1);
    s.set("adder_tree", tree);
    root["pe_array"] = pe;
  }
};

}  // namespace

const Block& block() {
  static const PeArrayBlock kBlock;
  return kBlock;
}

const golden::PeArrayParams& params(const config::Config& config) {
  return config.sections.get<golden::PeArrayParams>(kName);
}

unsigned max_tree_stages(unsigned lanes) { return golden::ceil_log2(lanes) + 2; }

std::vector<bool> spread_registers(int stages, int positions) {
  if (stages < 0 || stages > positions) {
    throw std::invalid_argument("spread_registers: more stages than register positions");
  }
  // Register i of `stages` closes the i-th of `stages` equal slices of the tree, so the
  // last one always sits on the tree's output.
  std::vector<bool> registered(static_cast<size_t>(positions), false);
  for (int i = 0; i < stages; ++i) {
    registered[static_cast<size_t>((i + 1) * positions / stages - 1)] = true;
  }
  return registered;
}

Array elaborate_array(const config::Config& config, std::string_view block_name) {
  const golden::PeArrayParams& p = params(config);
  Array a;
  a.params = p;
  a.product_width = static_cast<int>(p.weight_width + p.act_width);
  int nodes = static_cast<int>(p.lanes);
  a.levels.push_back(TreeLevel{0, nodes, a.product_width, false});
  while (nodes > 1) {
    nodes = (nodes + 1) / 2;
    const int index = static_cast<int>(a.levels.size());
    a.levels.push_back(TreeLevel{index, nodes, a.product_width + index, false});
  }
  // The inputs' register comes last: only when every position of the tree has one.
  const int positions = static_cast<int>(a.levels.size());
  a.input_register = static_cast<int>(p.tree_stages) > positions;
  const std::vector<bool> registered =
      spread_registers(std::min(static_cast<int>(p.tree_stages), positions), positions);
  for (size_t i = 0; i < a.levels.size(); ++i) a.levels[i].registered = registered[i];
  a.sum_width = a.levels.back().width;
  const std::string stem = fmt::format("{}_{}", config.design.module_prefix, block_name);
  a.tile_module = stem + "_tile";
  a.tree_module = stem + "_adder_tree";
  return a;
}

elab::SvConstants Array::constants() const {
  using elab::SvConstant;
  std::vector<bool> registers;
  for (const auto& level : levels) registers.push_back(level.registered);
  const golden::PeArrayParams& p = params;
  return {
      SvConstant::integer("Tiles", p.tiles, "T: tiles, each with its weight row and accumulator."),
      SvConstant::integer("Lanes", p.lanes, "L: multipliers per tile."),
      SvConstant::integer("WeightWidth", p.weight_width, "Bits per weight."),
      SvConstant::flag("WeightSigned", p.weight_signed, "Weights are two's complement."),
      SvConstant::integer("ActWidth", p.act_width, "Bits per activation."),
      SvConstant::flag("ActSigned", p.act_signed, "Activations are two's complement."),
      SvConstant::integer("AccWidth", p.acc_width, "Bits per accumulator (sums wrap)."),
      SvConstant::integer("ProductWidth", product_width,
                          "Bits of a product: WeightWidth + ActWidth holds every product exactly."),
      SvConstant::flag("ProductSigned", p.acc_signed(),
                       "Products and sums are signed (either operand is)."),
      SvConstant::integer("TreeLevels", static_cast<int64_t>(levels.size()) - 1,
                          "Adder levels of a tile's tree: ceil(log2(Lanes))."),
      SvConstant::integer("SumWidth", sum_width,
                          "Bits of the tree's sum: ProductWidth + TreeLevels (no sum overflows)."),
      SvConstant::integer("TreeStages", p.tree_stages, "Pipeline registers in the adder tree."),
      SvConstant::bits("TreeRegisters", registers,
                       "Bit k: a pipeline register follows tree level k (0: the products)."),
      SvConstant::flag("TreeInputRegister", input_register,
                       "A pipeline register (the first) holds the tile's weights and "
                       "activations before the multipliers."),
      SvConstant::integer("ActRowWidth", int64_t{p.lanes} * p.act_width,
                          "Bits of an activation vector: Lanes x ActWidth."),
      SvConstant::integer("WeightRowWidth", int64_t{p.lanes} * p.weight_width,
                          "Bits of a tile's weight row: Lanes x WeightWidth."),
      SvConstant::integer("ProductsWidth", int64_t{p.lanes} * product_width,
                          "Bits of a tile's products: Lanes x ProductWidth."),
      SvConstant::integer("StepWeightWidth", int64_t{p.tiles} * p.lanes * p.weight_width,
                          "Bits of a step's weights: Tiles x Lanes x WeightWidth."),
      SvConstant::integer("Latency", p.latency(),
                          "Clock edges from a step taken to its sum in the accumulators."),
  };
}

nlohmann::json array_json(const Array& a) {
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& level : a.levels) {
    levels.push_back({{"level", level.index},
                      {"nodes", level.nodes},
                      {"width", level.width},
                      {"registered", level.registered}});
  }
  return {{"product_width", a.product_width},     {"product_signed", a.params.acc_signed()},
          {"input_register", a.input_register},   {"sum_width", a.sum_width},
          {"latency_cycles", a.params.latency()}, {"multipliers", a.params.tiles * a.params.lanes},
          {"adder_tree_levels", levels}};
}

nlohmann::json Design::derived_json() const {
  nlohmann::json j = array_json(array);
  j["modules"] = {array_module, array.tile_module, array.tree_module};
  return j;
}

std::vector<std::string> Design::summary() const {
  const golden::PeArrayParams& p = array.params;
  return {fmt::format("PE array {} x {}: {}-bit {} weights, {}-bit {} activations, {}-bit "
                      "accumulators",
                      p.tiles, p.lanes, p.weight_width, p.weight_signed ? "signed" : "unsigned",
                      p.act_width, p.act_signed ? "signed" : "unsigned", p.acc_width),
          fmt::format("adder tree: {} level(s), {} pipeline stage(s), latency {} cycle(s)",
                      array.levels.size() - 1, p.tree_stages, p.latency())};
}

std::string params_declaration(const Array& a) {
  return emit::cpp_constant("PeArrayParams", "kPeArray", a.params) +
         fmt::format(
             "static_assert(kPeArray.latency() == {}, \"golden latency differs from the "
             "RTL's\");\n",
             a.params.latency());
}

DesignParams Design::design_params() const {
  return {{"npugen/golden/pe_array/params.hpp"}, params_declaration(array)};
}

}  // namespace npugen::blocks::pe_array
