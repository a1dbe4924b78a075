// The zero-skipping array's files: its RTL, its control-word document and its synthesis
// script.
#include <fmt/format.h>

#include "blocks/zs/zs.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
#include "emit/sv_package.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::zs {
namespace {

using emit::dec;
using emit::flag;
using emit::render;
using emit::TemplateData;

// What every template of the block reads: module names, the package, the flags that say
// which levels exist, and the numbers its comments show.
TemplateData zs_data(const elab::Design& design, const Design& z) {
  const auto& p = z.params;
  TemplateData d = pe_array::port_data(design, z.array, z.package);
  d.set("array_module", z.array_module);
  d.set("fifo_module", emit::fifo_module(design));
  d.set("window_module", z.window_module);
  d.set("prefetch_module", z.prefetch_module);
  d.set("lane_mux_module", z.lane_mux_module);
  d.set("demux_module", z.demux_module);
  d.set("accumulator_module", z.accumulator_module);
  d.set("lane_mux", flag(z.lane_mux));
  d.set("prefetch_mux", flag(z.prefetch_mux));
  d.set("demux", flag(z.demux));
  d.set("one_row", flag(z.window == 1));
  // Numbers the comments show.
  d.set("depth", dec(p.step_buffer_depth));
  d.set("window", dec(z.window));
  d.set("rows_per_cycle", dec(p.act_rows_per_cycle));
  d.set("row_width", dec(z.row_width));
  d.set("ctrl_width", dec(z.layout.width()));
  d.set("h", dec(p.intra.lookahead));
  d.set("d", dec(p.intra.lookaside));
  d.set("big_h", dec(p.inter.lookahead));
  d.set("big_d", dec(p.inter.lookaside));
  d.set("tile_rows", dec(z.tile_rows));
  d.set("lane_selects", dec(p.lane_selects()));
  d.set("span", dec(z.lane_span));
  d.set("inputs", dec(z.demux_inputs));
  return d;
}

}  // namespace

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = array_module;
  out.rtl.push_back(
      emit::emit_package(design, block().name(), block().title(), constants(), files));
  out.rtl.push_back(emit::emit_fifo(design, files));
  for (const auto& path : pe_array::emit_tile_and_tree(design, array, package, true, files)) {
    out.rtl.push_back(path);
  }
  const TemplateData d = zs_data(design, *this);
  std::vector<std::pair<std::string, std::string>> modules = {
      {window_module, "zs/act_window.sv.mustache"}};
  if (prefetch_mux) modules.emplace_back(prefetch_module, "zs/prefetch_mux.sv.mustache");
  if (lane_mux) modules.emplace_back(lane_mux_module, "zs/lane_mux.sv.mustache");
  if (demux) modules.emplace_back(demux_module, "zs/result_demux.sv.mustache");
  modules.emplace_back(accumulator_module, "zs/accumulator.sv.mustache");
  modules.emplace_back(array_module, "zs/array.sv.mustache");
  for (auto& path : emit::render_modules(d, modules, files)) out.rtl.push_back(std::move(path));
  files["docs/control_word.md"] = control_word_markdown(design);
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);
  return out;
}

std::string Design::control_word_markdown(const elab::Design& design) const {
  const Design& z = *this;
  const auto& lay = z.layout;
  std::string out = fmt::format(
      "<!-- {} -->\n# Control word of {}\n\n"
      "One control word per step, {} bits, stored in the control-bit buffer beside the step's "
      "weights and presented on `step_ctrl_i`. Bit 0 is the least significant; "
      "`npugen preprocess` writes the words as `control.npy` (uint32, word 0 holds bits 0-31).\n\n"
      "Levels: intra-tile lookahead h = {}, lookaside d = {}; inter-tile lookahead H = {}, "
      "lookaside D = {}; window {} row(s); R = {} row(s) per cycle.\n\n"
      "| field | lsb | bits | meaning |\n| --- | --- | --- | --- |\n",
      emit::file_header(design, "").substr(1), array_module, lay.width(), z.params.intra.lookahead,
      z.params.intra.lookaside, z.params.inter.lookahead, z.params.inter.lookaside, z.window,
      z.params.act_rows_per_cycle);
  for (const auto& f : lay.fields()) {
    out += fmt::format("| `{}` | {} | {} | {} |\n", f.name, f.lsb, f.width, f.meaning);
  }
  out +=
      "\nFields of width 0 do not exist: a level switched off has no control bits and no "
      "logic.\n";
  return out;
}

}  // namespace npugen::blocks::zs
