// The dense PE array's files: its RTL (array, tile, adder tree), its synthesis script and
// the Icarus replay bench of its co-simulation vectors.
#include <fmt/format.h>

#include "blocks/pe_array/pe_array.hpp"
#include "elab/design.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::pe_array {
namespace {

using emit::dec;
using emit::flag;
using emit::TemplateData;
using kainjow::mustache::list;

std::string kind(bool is_signed) { return is_signed ? "signed" : "unsigned"; }

// Extension of a `from`-bit value to `to` bits: its sign bit repeated, or zeros.
std::string fill(const std::string& msb_bit, int bits, bool is_signed) {
  if (is_signed) return fmt::format("{{{}{{{}}}}}", bits, msb_bit);
  return fmt::format("{}'b0", bits);
}

// Reference to node i of a level signal whose nodes are `width` bits, extended by one bit
// (sign or zero).
std::string extended_node(const std::string& signal, int i, int width, bool is_signed) {
  const int lsb = i * width;
  const std::string top = is_signed ? fmt::format("{}[{}]", signal, lsb + width - 1) : "1'b0";
  return fmt::format("{{{}, {}[{} +: {}]}}", top, signal, lsb, width);
}

TemplateData tree_data(const elab::Design& design, const Array& a) {
  TemplateData d = emit::common_data(design, "//");
  d.set("tree_module", a.tree_module);
  d.set("lanes", dec(a.lanes));
  d.set("product_width", dec(a.product_width));
  d.set("product_kind", kind(a.product_signed));
  d.set("stages", dec(a.tree_stages));
  d.set("has_stages", flag(a.tree_stages > 0));
  d.set("stages_msb", dec(a.tree_stages - 1));
  d.set("products_msb", dec(a.lanes * a.product_width - 1));
  d.set("sum_msb", dec(a.sum_width - 1));

  list levels;
  std::string source = "products_i";  // what the next level reads
  int stage = 0;
  for (const auto& level : a.levels) {
    TemplateData l;
    const std::string base = fmt::format("level{}", level.index);
    const std::string comb = level.registered ? base + "_d" : base;
    l.set("index", dec(level.index));
    l.set("nodes", dec(level.nodes));
    l.set("width", dec(level.width));
    l.set("msb", dec(level.nodes * level.width - 1));
    l.set("comb_name", comb);
    l.set("reg_name", base + "_q");
    l.set("registered", flag(level.registered));
    l.set("stage", dec(stage));
    list adds;
    if (level.index == 0) l.set("whole", source);
    for (int i = 0; level.index > 0 && i < level.nodes; ++i) {
      TemplateData add;
      add.set("lsb", dec(i * level.width));
      add.set("width", dec(level.width));
      const int below = level.width - 1;
      const int below_nodes = a.levels[static_cast<size_t>(level.index - 1)].nodes;
      std::string expr = extended_node(source, 2 * i, below, a.product_signed);
      if (2 * i + 1 < below_nodes) {
        expr += " + " + extended_node(source, 2 * i + 1, below, a.product_signed);
      }
      add.set("expr", expr);
      adds.push_back(add);
    }
    l.set("adds", adds);
    levels.push_back(l);
    source = level.registered ? base + "_q" : comb;
    if (level.registered) ++stage;
  }
  d.set("levels", levels);
  d.set("sum_source", source);
  return d;
}

TemplateData tile_data(const elab::Design& design, const Array& a, bool zero_skip) {
  TemplateData d = port_data(design, a, "//");
  d.set("products_msb", dec(a.lanes * a.product_width - 1));
  d.set("product_msb", dec(a.product_width - 1));
  d.set("product_signed", flag(a.product_signed));
  const std::string wmsb = fmt::format("weight_i[l*{} + {}]", a.weight_width, a.weight_width - 1);
  const std::string amsb = fmt::format("act_i[l*{} + {}]", a.act_width, a.act_width - 1);
  d.set("weight_fill", fill(wmsb, a.product_width - a.weight_width, a.weight_signed));
  d.set("act_fill", fill(amsb, a.product_width - a.act_width, a.act_signed));
  d.set("sum_width", dec(a.sum_width));
  d.set("sum_msb", dec(a.sum_width - 1));
  d.set("sum_extends", flag(a.sum_width < a.acc_width));
  d.set("sum_fits", flag(a.sum_width == a.acc_width));
  d.set("sum_truncates", flag(a.sum_width > a.acc_width));
  d.set("sum_fill",
        fill(fmt::format("sum[{}]", a.sum_width - 1), a.acc_width - a.sum_width, a.product_signed));
  d.set("zero_skip", flag(zero_skip));
  d.set("tile_clock", flag(!zero_skip || a.tree_stages > 0));
  return d;
}

// Next value of a control shift register: the input enters at bit 0.
std::string shift_in(const std::string& reg, const std::string& input, int stages) {
  if (stages == 1) return input;
  return fmt::format("{{{}[{}:0], {}}}", reg, stages - 2, input);
}

}  // namespace

TemplateData port_data(const elab::Design& design, const Array& a, std::string_view comment) {
  TemplateData d = emit::common_data(design, comment);
  d.set("tile_module", a.tile_module);
  d.set("tree_module", a.tree_module);
  d.set("tiles", dec(a.tiles));
  d.set("lanes", dec(a.lanes));
  d.set("weight_width", dec(a.weight_width));
  d.set("weight_msb", dec(a.weight_width - 1));
  d.set("weight_kind", kind(a.weight_signed));
  d.set("weight_count", dec(a.tiles * a.lanes));
  d.set("weight_row_msb", dec(a.lanes * a.weight_width - 1));
  d.set("weights_msb", dec(a.tiles * a.lanes * a.weight_width - 1));
  d.set("act_width", dec(a.act_width));
  d.set("act_msb", dec(a.act_width - 1));
  d.set("act_kind", kind(a.act_signed));
  d.set("act_vec_msb", dec(a.lanes * a.act_width - 1));
  d.set("acc_width", dec(a.acc_width));
  d.set("acc_msb", dec(a.acc_width - 1));
  d.set("acc_kind", kind(a.product_signed));
  d.set("accs_msb", dec(a.tiles * a.acc_width - 1));
  d.set("product_width", dec(a.product_width));
  d.set("stages", dec(a.tree_stages));
  d.set("has_stages", flag(a.tree_stages > 0));
  d.set("stages_msb", dec(a.tree_stages - 1));
  return d;
}

std::vector<std::string> emit_tile_and_tree(const elab::Design& design, const Array& array,
                                            bool zero_skip, util::FileMap& files) {
  const std::string tree = fmt::format("rtl/{}.sv", array.tree_module);
  const std::string tile = fmt::format("rtl/{}.sv", array.tile_module);
  files[tree] = emit::render("pe_array/adder_tree.sv.mustache", tree_data(design, array));
  files[tile] = emit::render("pe_array/tile.sv.mustache", tile_data(design, array, zero_skip));
  return {tree, tile};
}

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = array_module;
  out.rtl = emit_tile_and_tree(design, array, false, files);
  TemplateData d = port_data(design, array, "//");
  d.set("array_module", array_module);
  d.set("latency", dec(array.latency));
  d.set("stage_valid_next", shift_in("stage_valid_q", "step_valid_i", array.tree_stages));
  d.set("stage_first_next", shift_in("stage_first_q", "step_first_i", array.tree_stages));
  d.set("stage_last_next", shift_in("stage_last_q", "step_last_i", array.tree_stages));
  d.set("weight_row_width", dec(array.lanes * array.weight_width));
  const std::string path = fmt::format("rtl/{}.sv", array_module);
  files[path] = emit::render("pe_array/pe_array.sv.mustache", d);
  out.rtl.push_back(path);
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);

  // The Icarus replay bench of the co-simulation's vectors.
  TemplateData icarus = port_data(design, array, "//");
  icarus.set("array_module", array_module);
  icarus.set("filelist", emit::eda_paths(design).filelist);
  files[fmt::format("sim/{}_icarus_tb.sv", array_module)] =
      emit::render("pe_array/icarus_tb.sv.mustache", icarus);
  return out;
}

}  // namespace npugen::blocks::pe_array
