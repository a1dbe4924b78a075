// The zero-skipping array's files: its RTL, its control-word document and its synthesis
// script.
#include <fmt/format.h>

#include "blocks/zs/zs.hpp"
#include "elab/design.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/templates.hpp"
#include "npugen/golden/common/bits.hpp"

namespace npugen::blocks::zs {
namespace {

using emit::dec;
using emit::flag;
using emit::render;
using emit::TemplateData;

// Zero-extension of a `from`-bit signal to `to` bits.
std::string zext(const std::string& signal, int from, int to) {
  if (from == to) return signal;
  return fmt::format("{{{}'b0, {}}}", to - from, signal);
}

// A `from`-bit signal at `to` bits: zero-extended, or its low bits.
std::string resize(const std::string& signal, int from, int to) {
  if (from <= to) return zext(signal, from, to);
  return fmt::format("{}[{}:0]", signal, to - 1);
}

// Next value of a flat shift register of `stages` groups of `width` bits.
std::string shift_groups(const std::string& reg, const std::string& input, int stages, int width) {
  if (stages == 1) return input;
  return fmt::format("{{{}[{}:0], {}}}", reg, (stages - 1) * width - 1, input);
}

TemplateData zs_data(const elab::Design& design, const Design& z) {
  const auto& pe = z.array;
  const auto& p = z.params;
  const auto& lay = z.layout;
  TemplateData d = pe_array::port_data(design, z.array, "//");
  d.set("array_module", z.array_module);
  const int row_width = pe.lanes * pe.act_width;
  const int h = static_cast<int>(p.intra.lookahead);
  d.set("buffer_module", z.buffer_module);
  d.set("window_module", z.window_module);
  d.set("prefetch_module", z.prefetch_module);
  d.set("lane_mux_module", z.lane_mux_module);
  d.set("demux_module", z.demux_module);
  d.set("accumulator_module", z.accumulator_module);
  d.set("depth", dec(p.step_buffer_depth));
  d.set("window", dec(z.window));
  d.set("window_last", dec(z.window - 1));
  d.set("rows_per_cycle", dec(p.act_rows_per_cycle));
  d.set("row_width", dec(row_width));
  d.set("window_msb", dec(z.window * row_width - 1));
  d.set("rd_data_msb", dec(static_cast<int>(p.act_rows_per_cycle) * row_width - 1));
  d.set("count_width", dec(z.count_bits));
  d.set("count_msb", dec(z.count_bits - 1));
  d.set("row_width_bits", dec(z.row_bits));
  d.set("row_msb", dec(z.row_bits - 1));
  d.set("ctrl_width", dec(lay.width()));
  d.set("ctrl_msb", dec(lay.width() - 1));
  d.set("adv_lsb", dec(lay.advance_lsb()));
  d.set("adv_width", dec(lay.advance_bits));
  d.set("adv_msb", dec(lay.advance_bits - 1));
  d.set("h", dec(h));
  d.set("d", dec(p.intra.lookaside));
  d.set("big_h", dec(p.inter.lookahead));
  d.set("big_d", dec(p.inter.lookaside));
  d.set("lane_mux", flag(z.lane_mux));
  d.set("prefetch_mux", flag(z.prefetch_mux));
  d.set("demux", flag(z.demux));
  d.set("latency", dec(pe.latency));
  d.set("advance_ext", zext("head_advance", static_cast<int>(lay.advance_bits), z.row_bits));
  // The advance as a row count: the comparison before it keeps it below the window.
  d.set("advance_count", resize("head_advance", static_cast<int>(lay.advance_bits), z.count_bits));
  d.set("fresh_ext", zext("fresh", z.count_bits, z.row_bits));
  d.set("done_ext", zext("done", z.count_bits, z.row_bits));
  // the template's row constant uses row_width for the address width
  d.set("row_width", dec(row_width));
  d.set("tile_lsb", dec(lay.tile_lsb(0)));
  d.set("tile_bits", dec(lay.tile_bits()));
  d.set("offset_width", dec(lay.tile_offset_bits));
  d.set("dest_width", dec(lay.dest_bits));
  d.set("lane_lsb", dec(lay.lane_lsb(0, 0)));
  d.set("select_width", dec(lay.lane_select_bits));
  d.set("tile_rows_msb", dec((h + 1) * row_width - 1));
  d.set("weight_row_width", dec(pe.lanes * pe.weight_width));
  const int stages = pe.tree_stages;
  d.set("stage_valid_next",
        stages > 0 ? (stages == 1 ? std::string("cmp_valid_q")
                                  : fmt::format("{{stage_valid_q[{}:0], cmp_valid_q}}", stages - 2))
                   : "");
  d.set("stage_first_next",
        stages > 0
            ? (stages == 1 ? std::string("cmp_ctrl_q[0]")
                           : fmt::format("{{stage_first_q[{}:0], cmp_ctrl_q[0]}}", stages - 2))
            : "");
  d.set("stage_last_next",
        stages > 0
            ? (stages == 1 ? std::string("cmp_ctrl_q[1]")
                           : fmt::format("{{stage_last_q[{}:0], cmp_ctrl_q[1]}}", stages - 2))
            : "");
  // Destinations of all tiles from the compute registers, tile 0 lowest.
  const int dests_width = pe.tiles * static_cast<int>(lay.dest_bits);
  std::string dests;
  if (z.demux) {
    for (int t = pe.tiles - 1; t >= 0; --t) {
      dests +=
          fmt::format("{}cmp_ctrl_q[{} +: {}]", dests.empty() ? "" : ", ",
                      lay.tile_lsb(static_cast<unsigned>(t)) + lay.tile_offset_bits, lay.dest_bits);
    }
    dests = pe.tiles == 1 ? dests : "{" + dests + "}";
  }
  d.set("cmp_dests", dests);
  d.set("dests_width", dec(dests_width));
  d.set("dests_msb", dec(dests_width - 1));
  d.set("stage_dests_msb", dec(stages * dests_width - 1));
  d.set("stage_dest_next",
        stages > 0 ? shift_groups("stage_dest_q", dests, stages, dests_width) : "");
  const int outs = z.demux ? static_cast<int>(p.inter.lookaside + 1) : 1;
  d.set("tile_outs_width", dec(outs * pe.acc_width));
  d.set("routed_msb", dec(pe.tiles * outs * pe.acc_width - 1));
  const int inputs = static_cast<int>(p.lane_selects());
  d.set("cand_msb", dec(inputs * pe.act_width - 1));
  // Lane candidates: input k (ZeroSkipParams::lane_select_code) reads tile row dc, lane l + dl.
  std::string cands;
  for (int k = 0; k < inputs; ++k) {
    unsigned dc = 0;
    int dl = 0;
    p.lane_select_of(static_cast<unsigned>(k), dc, dl);
    std::string source;
    if (dl == 0) {
      source = fmt::format("rows[{}*{} + l*{} +: {}]", dc, row_width, pe.act_width, pe.act_width);
    } else {
      // Lanes off the tile's edge read zero (a generate condition: no out-of-range select).
      const std::string cond =
          dl < 0 ? fmt::format("l >= {}", -dl) : fmt::format("l + {} < {}", dl, pe.lanes);
      cands += fmt::format(
          "      if ({}) begin : g_cand{}\n"
          "        assign cand[{} +: {}] = rows[{}*{} + (l{}{})*{} +: {}];\n"
          "      end else begin : g_edge{}\n"
          "        assign cand[{} +: {}] = '0;\n"
          "      end\n",
          cond, k, k * pe.act_width, pe.act_width, dc, row_width, dl < 0 ? "-" : "+", std::abs(dl),
          pe.act_width, pe.act_width, k, k * pe.act_width, pe.act_width);
      continue;
    }
    cands +=
        fmt::format("      assign cand[{} +: {}] = {};\n", k * pe.act_width, pe.act_width, source);
  }
  d.set("lane_candidates", cands);
  // Accumulators: tile t's accumulator adds output k of tile t-k's demultiplexer.
  std::string accs;
  const int big_d = static_cast<int>(p.inter.lookaside);
  for (int t = 0; t < pe.tiles; ++t) {
    std::string ins;
    for (int k = big_d; k >= 0; --k) {
      std::string part =
          t - k >= 0 ? fmt::format("routed[{} +: {}]",
                                   (t - k) * outs * pe.acc_width + k * pe.acc_width, pe.acc_width)
                     : fmt::format("{}'d0", pe.acc_width);
      ins += (ins.empty() ? "" : ", ") + part;
    }
    if (big_d > 0) ins = "{" + ins + "}";
    accs += fmt::format(
        "  {} u_accumulator_{} (\n"
        "    .clk_i  (clk_i),\n"
        "    .rst_ni (rst_ni),\n"
        "    .en_i   (acc_en),\n"
        "    .first_i(acc_first),\n"
        "    .sums_i ({}),\n"
        "    .acc_o  (acc_o[{} +: {}])\n"
        "  );\n\n",
        z.accumulator_module, t, ins, t * pe.acc_width, pe.acc_width);
  }
  // Demultiplexer outputs past the last tile go nowhere.
  std::string unused;
  for (int t = 0; t < pe.tiles; ++t) {
    for (int k = 1; k <= big_d; ++k) {
      if (t + k < pe.tiles) continue;
      unused += fmt::format("{}routed[{} +: {}]", unused.empty() ? "" : ", ",
                            t * outs * pe.acc_width + k * pe.acc_width, pe.acc_width);
    }
  }
  if (!unused.empty()) {
    accs += fmt::format(
        "  // Demultiplexer outputs past the last tile have no accumulator.\n"
        "  logic unused_routed;\n  assign unused_routed = ^{{{}}};\n\n",
        unused);
  }
  d.set("accumulators", accs);
  return d;
}

std::string buffer(const elab::Design& design, const Design& z) {
  TemplateData d = zs_data(design, z);
  const int depth = static_cast<int>(z.params.step_buffer_depth);
  const int ptr = static_cast<int>(golden::field_bits(depth));
  const int count = static_cast<int>(golden::field_bits(depth + 1));
  d.set("ptr_width", dec(ptr));
  d.set("ptr_msb", dec(ptr - 1));
  d.set("last", dec(depth - 1));
  d.set("count_width", dec(count));
  d.set("count_msb", dec(count - 1));
  d.set("push_ext", zext("push_i", 1, count));
  d.set("pop_ext", zext("pop_i", 1, count));
  return render("zs/step_buffer.sv.mustache", d);
}

std::string window_rtl(const elab::Design& design, const Design& z) {
  const auto& pe = z.array;
  TemplateData d = zs_data(design, z);
  const int rw = pe.lanes * pe.act_width;
  const int w = z.window;
  const int cb = z.count_bits;
  std::string logic;
  for (int i = 0; i < w; ++i) {
    // Row i: a row written this cycle, else the row moved down into it, else kept.
    std::string expr;
    for (int k = 0; k <= i && k < static_cast<int>(z.params.act_rows_per_cycle); ++k) {
      expr +=
          fmt::format("(wr_count_i > {}'d{} && wr_pos_i == {}'d{}) ? data_i[{} +: {}] :\n      ",
                      cb, k, cb, i - k, k * rw, rw);
    }
    expr += fmt::format("!shift_i ? win_q[{} +: {}] :\n      ", i * rw, rw);
    for (int s = 1; s < w - i; ++s) {
      expr += fmt::format("(shift_rows_i == {}'d{}) ? win_q[{} +: {}] :\n      ", cb, s,
                          (i + s) * rw, rw);
    }
    expr += "'0";
    logic += fmt::format("  assign win_d[{} +: {}] =\n      {};\n\n", i * rw, rw, expr);
  }
  if (w == 1) {
    logic +=
        "  // A one-row window is replaced whole by every step: how far it moves does not "
        "matter.\n  logic unused_shift_rows;\n  assign unused_shift_rows = ^shift_rows_i;\n\n";
  }
  d.set("window_logic", logic);
  return render("zs/act_window.sv.mustache", d);
}

std::string prefetch(const elab::Design& design, const Design& z) {
  const auto& pe = z.array;
  TemplateData d = zs_data(design, z);
  const int rw = pe.lanes * pe.act_width;
  const int rows = static_cast<int>(z.params.intra.lookahead) + 1;
  const int ob = static_cast<int>(z.layout.tile_offset_bits);
  d.set("tile_rows", dec(rows));
  d.set("lookahead", dec(z.params.inter.lookahead));
  d.set("sel_msb", dec(ob - 1));
  d.set("rows_msb", dec(rows * rw - 1));
  std::string cases;
  for (unsigned a = 0; a <= z.params.inter.lookahead; ++a) {
    cases += fmt::format("(sel_i == {}'d{}) ? win_i[{} +: {}] :\n                  ", ob, a, a * rw,
                         rows * rw);
  }
  cases += "'0";
  d.set("cases", cases);
  return render("zs/prefetch_mux.sv.mustache", d);
}

std::string lane_mux_rtl(const elab::Design& design, const Design& z) {
  const auto& pe = z.array;
  TemplateData d = zs_data(design, z);
  const int inputs = static_cast<int>(z.params.lane_selects());
  const int sb = static_cast<int>(z.layout.lane_select_bits);
  d.set("inputs", dec(inputs));
  d.set("span", dec(2 * z.params.intra.lookaside + 1));
  d.set("sel_msb", dec(sb - 1));
  d.set("act_msb", dec(pe.act_width - 1));
  std::string cases;
  for (int k = 0; k < inputs; ++k) {
    cases += fmt::format("(sel_i == {}'d{}) ? cand_i[{} +: {}] :\n                 ", sb, k,
                         k * pe.act_width, pe.act_width);
  }
  cases += "'0";
  d.set("cases", cases);
  return render("zs/lane_mux.sv.mustache", d);
}

std::string demux_rtl(const elab::Design& design, const Design& z) {
  const auto& pe = z.array;
  TemplateData d = zs_data(design, z);
  const int db = static_cast<int>(z.layout.dest_bits);
  const int outs = static_cast<int>(z.params.inter.lookaside) + 1;
  d.set("lookaside", dec(z.params.inter.lookaside));
  d.set("sel_msb", dec(db - 1));
  d.set("outs_msb", dec(outs * pe.acc_width - 1));
  std::string lines;
  for (int k = 0; k < outs; ++k) {
    lines += fmt::format("  assign sums_o[{} +: {}] = (dest_i == {}'d{}) ? sum_i : '0;\n",
                         k * pe.acc_width, pe.acc_width, db, k);
  }
  d.set("outputs", lines);
  return render("zs/result_demux.sv.mustache", d);
}

std::string accumulator(const elab::Design& design, const Design& z) {
  const auto& pe = z.array;
  TemplateData d = zs_data(design, z);
  const int inputs = static_cast<int>(z.params.inter.lookaside) + 1;
  d.set("inputs", dec(inputs));
  d.set("lookaside", dec(z.params.inter.lookaside));
  d.set("ins_msb", dec(inputs * pe.acc_width - 1));
  std::string sum;
  for (int k = 0; k < inputs; ++k) {
    sum += fmt::format("{}sums_i[{} +: {}]", k ? " + " : "", k * pe.acc_width, pe.acc_width);
  }
  d.set("sum_expr", sum);
  return render("zs/accumulator.sv.mustache", d);
}

}  // namespace

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  const Design& z = *this;
  BlockFiles out;
  out.top = array_module;
  out.rtl = pe_array::emit_tile_and_tree(design, array, true, files);
  std::vector<std::pair<std::string, std::string>> modules;
  modules.emplace_back(buffer_module, buffer(design, z));
  modules.emplace_back(window_module, window_rtl(design, z));
  if (prefetch_mux) modules.emplace_back(prefetch_module, prefetch(design, z));
  if (lane_mux) modules.emplace_back(lane_mux_module, lane_mux_rtl(design, z));
  if (demux) modules.emplace_back(demux_module, demux_rtl(design, z));
  modules.emplace_back(accumulator_module, accumulator(design, z));
  modules.emplace_back(array_module, render("zs/array.sv.mustache", zs_data(design, z)));
  for (const auto& [module, text] : modules) {
    const std::string path = fmt::format("rtl/{}.sv", module);
    files[path] = text;
    out.rtl.push_back(path);
  }
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
