#include "emit/rtl_emitter.hpp"

#include <fmt/format.h>

#include "emit/tasks_rtl_emitter.hpp"
#include "emit/templates.hpp"
#include "emit/vq_rtl_emitter.hpp"
#include "emit/zs_rtl_emitter.hpp"

namespace npugen::emit {
namespace {

using kainjow::mustache::list;

std::string kind(bool is_signed) { return is_signed ? "signed" : "unsigned"; }

// Extension of a `from`-bit value to `to` bits: its sign bit repeated, or zeros.
std::string fill(const std::string& msb_bit, int bits, bool is_signed) {
  if (is_signed) return fmt::format("{{{}{{{}}}}}", bits, msb_bit);
  return fmt::format("{}'b0", bits);
}

// Reference to node i of a level signal whose nodes are `width` bits, extended by
// one bit (sign or zero).
std::string extended_node(const std::string& signal, int i, int width, bool is_signed) {
  const int lsb = i * width;
  const std::string top = is_signed ? fmt::format("{}[{}]", signal, lsb + width - 1) : "1'b0";
  return fmt::format("{{{}, {}[{} +: {}]}}", top, signal, lsb, width);
}

TemplateData tree_data(const elab::Design& design) {
  const elab::PeArrayDesign& pe = design.pe_array;
  TemplateData d = common_data(design, "//");
  d.set("tree_module", pe.tree_module);
  d.set("lanes", std::to_string(pe.lanes));
  d.set("product_width", std::to_string(pe.product_width));
  d.set("product_kind", kind(pe.product_signed));
  d.set("stages", std::to_string(pe.tree_stages));
  d.set("has_stages", flag(pe.tree_stages > 0));
  d.set("stages_msb", std::to_string(pe.tree_stages - 1));
  d.set("products_msb", std::to_string(pe.lanes * pe.product_width - 1));
  d.set("sum_msb", std::to_string(pe.sum_width - 1));

  list levels;
  std::string source = "products_i";  // what the next level reads
  int stage = 0;
  for (const auto& level : pe.levels) {
    TemplateData l;
    const std::string base = fmt::format("level{}", level.index);
    const std::string comb = level.registered ? base + "_d" : base;
    l.set("index", std::to_string(level.index));
    l.set("nodes", std::to_string(level.nodes));
    l.set("width", std::to_string(level.width));
    l.set("msb", std::to_string(level.nodes * level.width - 1));
    l.set("comb_name", comb);
    l.set("reg_name", base + "_q");
    l.set("registered", flag(level.registered));
    l.set("stage", std::to_string(stage));
    list adds;
    if (level.index == 0) l.set("whole", source);
    for (int i = 0; level.index > 0 && i < level.nodes; ++i) {
      TemplateData a;
      a.set("lsb", std::to_string(i * level.width));
      a.set("width", std::to_string(level.width));
      const int below = level.width - 1;
      const int below_nodes = pe.levels[static_cast<size_t>(level.index - 1)].nodes;
      std::string expr = extended_node(source, 2 * i, below, pe.product_signed);
      if (2 * i + 1 < below_nodes) {
        expr += " + " + extended_node(source, 2 * i + 1, below, pe.product_signed);
      }
      a.set("expr", expr);
      adds.push_back(a);
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

TemplateData tile_data(const elab::Design& design) {
  const elab::PeArrayDesign& pe = design.pe_array;
  TemplateData d = pe_array_port_data(design, "//");
  d.set("products_msb", std::to_string(pe.lanes * pe.product_width - 1));
  d.set("product_msb", std::to_string(pe.product_width - 1));
  d.set("product_signed", flag(pe.product_signed));
  const std::string wmsb = fmt::format("weight_i[l*{} + {}]", pe.weight_width, pe.weight_width - 1);
  const std::string amsb = fmt::format("act_i[l*{} + {}]", pe.act_width, pe.act_width - 1);
  d.set("weight_fill", fill(wmsb, pe.product_width - pe.weight_width, pe.weight_signed));
  d.set("act_fill", fill(amsb, pe.product_width - pe.act_width, pe.act_signed));
  d.set("sum_width", std::to_string(pe.sum_width));
  d.set("sum_msb", std::to_string(pe.sum_width - 1));
  d.set("sum_extends", flag(pe.sum_width < pe.acc_width));
  d.set("sum_fits", flag(pe.sum_width == pe.acc_width));
  d.set("sum_truncates", flag(pe.sum_width > pe.acc_width));
  d.set("sum_fill", fill(fmt::format("sum[{}]", pe.sum_width - 1), pe.acc_width - pe.sum_width,
                         pe.product_signed));
  d.set("zero_skip", flag(design.zero_skip.enabled));
  d.set("tile_clock", flag(!design.zero_skip.enabled || pe.tree_stages > 0));
  return d;
}

// Next value of a control shift register: the input enters at bit 0.
std::string shift_in(const std::string& reg, const std::string& input, int stages) {
  if (stages == 1) return input;
  return fmt::format("{{{}[{}:0], {}}}", reg, stages - 2, input);
}

TemplateData array_data(const elab::Design& design) {
  const elab::PeArrayDesign& pe = design.pe_array;
  TemplateData d = pe_array_port_data(design, "//");
  d.set("latency", std::to_string(pe.latency));
  d.set("stage_valid_next", shift_in("stage_valid_q", "step_valid_i", pe.tree_stages));
  d.set("stage_first_next", shift_in("stage_first_q", "step_first_i", pe.tree_stages));
  d.set("stage_last_next", shift_in("stage_last_q", "step_last_i", pe.tree_stages));
  d.set("weight_row_width", std::to_string(pe.lanes * pe.weight_width));
  return d;
}

}  // namespace

TemplateData pe_array_port_data(const elab::Design& design, std::string_view comment) {
  const elab::PeArrayDesign& pe = design.pe_array;
  TemplateData d = common_data(design, comment);
  d.set("array_module", pe.array_module);
  d.set("tile_module", pe.tile_module);
  d.set("tree_module", pe.tree_module);
  d.set("tiles", std::to_string(pe.tiles));
  d.set("lanes", std::to_string(pe.lanes));
  d.set("weight_width", std::to_string(pe.weight_width));
  d.set("weight_msb", std::to_string(pe.weight_width - 1));
  d.set("weight_kind", kind(pe.weight_signed));
  d.set("weight_count", std::to_string(pe.tiles * pe.lanes));
  d.set("weight_row_msb", std::to_string(pe.lanes * pe.weight_width - 1));
  d.set("weights_msb", std::to_string(pe.tiles * pe.lanes * pe.weight_width - 1));
  d.set("act_width", std::to_string(pe.act_width));
  d.set("act_msb", std::to_string(pe.act_width - 1));
  d.set("act_kind", kind(pe.act_signed));
  d.set("act_vec_msb", std::to_string(pe.lanes * pe.act_width - 1));
  d.set("acc_width", std::to_string(pe.acc_width));
  d.set("acc_msb", std::to_string(pe.acc_width - 1));
  d.set("acc_kind", kind(pe.product_signed));
  d.set("accs_msb", std::to_string(pe.tiles * pe.acc_width - 1));
  d.set("product_width", std::to_string(pe.product_width));
  d.set("stages", std::to_string(pe.tree_stages));
  d.set("has_stages", flag(pe.tree_stages > 0));
  d.set("stages_msb", std::to_string(pe.tree_stages - 1));
  return d;
}

std::vector<std::string> emit_rtl(const elab::Design& design, util::FileMap& files) {
  const elab::PeArrayDesign& pe = design.pe_array;
  std::vector<std::pair<std::string, std::string>> modules = {
      {pe.tree_module, render("adder_tree.sv.mustache", tree_data(design))},
      {pe.tile_module, render("pe_tile.sv.mustache", tile_data(design))},
  };
  if (!design.zero_skip.enabled) {
    modules.emplace_back(pe.array_module, render("pe_array.sv.mustache", array_data(design)));
  }
  std::vector<std::string> paths;
  for (const auto& [module, text] : modules) {
    const std::string path = fmt::format("rtl/{}.sv", module);
    files[path] = text;
    paths.push_back(path);
  }
  if (design.zero_skip.enabled) {
    const auto more = emit_zero_skip_rtl(design, files);
    paths.insert(paths.end(), more.begin(), more.end());
    files["docs/control_word.md"] = control_word_markdown(design);
  }
  if (design.vq.enabled) {
    const auto vq = emit_vq_rtl(design, files);
    paths.insert(paths.end(), vq.begin(), vq.end());
    emit_vq_docs(design, vq, files);
  }
  if (design.tasks.enabled) {
    const auto tasks = emit_tasks_rtl(design, files);
    paths.insert(paths.end(), tasks.begin(), tasks.end());
    emit_tasks_docs(design, tasks, files);
  }
  return paths;
}

}  // namespace npugen::emit
