#include "elab/pe_array_design.hpp"

#include <stdexcept>

namespace npugen::elab {

std::vector<bool> spread_registers(int stages, int positions) {
  if (stages < 0 || stages > positions) {
    throw std::invalid_argument("spread_registers: more stages than register positions");
  }
  // Register i of `stages` closes the i-th of `stages` equal slices of the tree, so
  // the last one always sits on the tree's output.
  std::vector<bool> registered(static_cast<size_t>(positions), false);
  for (int i = 0; i < stages; ++i) {
    registered[static_cast<size_t>((i + 1) * positions / stages - 1)] = true;
  }
  return registered;
}

PeArrayDesign elaborate_pe_array(const config::Config& config) {
  const auto& pe = config.pe_array;
  PeArrayDesign d;
  d.tiles = pe.tiles;
  d.lanes = pe.lanes;
  d.weight_width = pe.weight.width;
  d.weight_signed = pe.weight.is_signed;
  d.act_width = pe.activation.width;
  d.act_signed = pe.activation.is_signed;
  d.acc_width = pe.accumulator_width;
  d.tree_stages = pe.adder_tree_stages;
  d.product_signed = d.weight_signed || d.act_signed;
  d.product_width = d.weight_width + d.act_width;

  int nodes = d.lanes;
  d.levels.push_back(TreeLevel{0, nodes, d.product_width, false});
  while (nodes > 1) {
    nodes = (nodes + 1) / 2;
    const int index = static_cast<int>(d.levels.size());
    d.levels.push_back(TreeLevel{index, nodes, d.product_width + index, false});
  }
  const std::vector<bool> registered =
      spread_registers(d.tree_stages, static_cast<int>(d.levels.size()));
  for (size_t i = 0; i < d.levels.size(); ++i) d.levels[i].registered = registered[i];
  d.sum_width = d.levels.back().width;
  d.latency = d.tree_stages + 1;

  const std::string& prefix = config.design.module_prefix;
  d.array_module = prefix + "_pe_array";
  d.tile_module = prefix + "_pe_tile";
  d.tree_module = prefix + "_adder_tree";
  return d;
}

}  // namespace npugen::elab
