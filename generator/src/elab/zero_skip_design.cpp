#include "elab/zero_skip_design.hpp"

#include <algorithm>

namespace npugen::elab {

golden::ZeroSkipParams zero_skip_params(const config::Config& c) {
  const auto& pe = c.pe_array;
  const auto& z = pe.zero_skip;
  golden::ZeroSkipParams p;
  p.array = golden::PeArrayParams{static_cast<unsigned>(pe.tiles),
                                  static_cast<unsigned>(pe.lanes),
                                  static_cast<unsigned>(pe.weight.width),
                                  pe.weight.is_signed,
                                  static_cast<unsigned>(pe.activation.width),
                                  pe.activation.is_signed,
                                  static_cast<unsigned>(pe.accumulator_width),
                                  static_cast<unsigned>(pe.adder_tree_stages)};
  p.intra = {static_cast<unsigned>(z.lookahead(0)), static_cast<unsigned>(z.lookaside(0))};
  p.inter = {static_cast<unsigned>(z.lookahead(1)), static_cast<unsigned>(z.lookaside(1))};
  p.act_rows_per_cycle = static_cast<unsigned>(z.act_rows_per_cycle);
  p.max_rows = static_cast<unsigned>(z.max_rows);
  p.step_buffer_depth = static_cast<unsigned>(z.step_buffer_depth);
  return p;
}

ZeroSkipDesign elaborate_zero_skip(const config::Config& c) {
  ZeroSkipDesign z;
  z.enabled = c.pe_array.zero_skip.enabled;
  z.params = zero_skip_params(c);
  z.layout = golden::ControlLayout::of(z.params);
  z.window = static_cast<int>(z.params.window());
  // Row counts (fresh rows, rows loaded, rows read: 0 to the window) share one width that
  // also holds R + 1, so that comparing a count with R is never constant (R need not be a
  // power of two).
  z.count_bits = std::max(static_cast<int>(golden::bits_for(z.params.window() + 1)),
                          static_cast<int>(golden::bits_for(z.params.act_rows_per_cycle + 2)));
  // Rows read reach base + window - 1 <= max_rows - 1 + window - 1; the row arithmetic
  // also takes the counts (and the advance) without truncating them.
  z.row_bits = std::max(
      {static_cast<int>(z.layout.advance_bits), z.count_bits,
       static_cast<int>(golden::bits_for(uint64_t{z.params.max_rows} + z.params.window() - 1))});
  z.lane_mux = z.params.lane_selects() > 1;
  z.prefetch_mux = z.params.inter.lookahead > 0;
  z.demux = z.params.inter.lookaside > 0;
  const std::string& p = c.design.module_prefix;
  z.buffer_module = p + "_step_buffer";
  z.window_module = p + "_act_window";
  z.prefetch_module = p + "_prefetch_mux";
  z.lane_mux_module = p + "_lane_mux";
  z.demux_module = p + "_result_demux";
  z.accumulator_module = p + "_accumulator";
  return z;
}

}  // namespace npugen::elab
