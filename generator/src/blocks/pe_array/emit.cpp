// The dense PE array's files: its package and RTL (array, tile, adder tree), its synthesis
// script and the Icarus replay bench of its co-simulation vectors. The templates take
// every number from the package; the data here names modules and documents ports.
#include <fmt/format.h>

#include "blocks/pe_array/pe_array.hpp"
#include "elab/design.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/sv_package.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::pe_array {
namespace {

using emit::dec;
using emit::flag;
using emit::TemplateData;

std::string kind(bool is_signed) { return is_signed ? "signed" : "unsigned"; }

}  // namespace

TemplateData port_data(const elab::Design& design, const Array& a, const std::string& package) {
  TemplateData d = emit::common_data(design, "//");
  d.set("pkg", package);
  d.set("tile_module", a.tile_module);
  d.set("tree_module", a.tree_module);
  const golden::PeArrayParams& p = a.params;
  d.set("tiles", dec(p.tiles));
  d.set("lanes", dec(p.lanes));
  d.set("weight_width", dec(p.weight_width));
  d.set("weight_kind", kind(p.weight_signed));
  d.set("act_width", dec(p.act_width));
  d.set("act_kind", kind(p.act_signed));
  d.set("acc_width", dec(p.acc_width));
  d.set("acc_kind", kind(p.acc_signed()));
  d.set("product_width", dec(a.product_width));
  d.set("product_kind", kind(p.acc_signed()));
  d.set("stages", dec(p.tree_stages));
  d.set("has_stages", flag(p.tree_stages > 0));
  d.set("latency", dec(p.latency()));
  return d;
}

std::vector<std::string> emit_tile_and_tree(const elab::Design& design, const Array& array,
                                            const std::string& package, bool zs,
                                            util::FileMap& files) {
  const std::string tree = fmt::format("rtl/{}.sv", array.tree_module);
  const std::string tile = fmt::format("rtl/{}.sv", array.tile_module);
  TemplateData d = port_data(design, array, package);
  d.set("zs", flag(zs));
  d.set("tile_clock", flag(!zs || array.params.tree_stages > 0));
  files[tree] = emit::render("pe_array/adder_tree.sv.mustache", d);
  files[tile] = emit::render("pe_array/tile.sv.mustache", d);
  return {tree, tile};
}

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = array_module;
  out.rtl.push_back(
      emit::emit_package(design, block().name(), block().title(), array.constants(), files));
  for (const auto& path : emit_tile_and_tree(design, array, package, false, files)) {
    out.rtl.push_back(path);
  }
  TemplateData d = port_data(design, array, package);
  d.set("array_module", array_module);
  const std::string path = fmt::format("rtl/{}.sv", array_module);
  files[path] = emit::render("pe_array/pe_array.sv.mustache", d);
  out.rtl.push_back(path);
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);

  // The Icarus replay bench of the co-simulation's vectors.
  TemplateData icarus = port_data(design, array, package);
  icarus.set("array_module", array_module);
  icarus.set("filelist", emit::eda_paths(design).filelist);
  out.icarus_bench = fmt::format("sim/{}_icarus_tb.sv", array_module);
  out.icarus_bench_top = array_module + "_icarus_tb";
  files[out.icarus_bench] = emit::render("pe_array/icarus_tb.sv.mustache", icarus);
  return out;
}

}  // namespace npugen::blocks::pe_array
