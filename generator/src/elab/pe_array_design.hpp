// Elaboration of the dense PE array: every number and structure the emitters and
// the co-simulation need, derived once from the validated configuration.
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"

namespace npugen::elab {

/// One level of the adder tree. Level 0 holds the products; level j > 0 adds pairs
/// of level j-1 nodes (an odd last node passes through, extended by one bit).
struct TreeLevel {
  int index = 0;
  int nodes = 0;
  int width = 0;            ///< bits per node: product width + index
  bool registered = false;  ///< a pipeline register follows this level
};

struct PeArrayDesign {
  int tiles = 0;
  int lanes = 0;
  int weight_width = 0;
  bool weight_signed = false;
  int act_width = 0;
  bool act_signed = false;
  int acc_width = 0;
  int tree_stages = 0;

  bool product_signed = false;    ///< products are signed when either operand is
  int product_width = 0;          ///< weight_width + act_width: holds every product exactly
  int sum_width = 0;              ///< width of the adder tree's output
  int latency = 0;                ///< clock edges from a step to the accumulator outputs
  std::vector<TreeLevel> levels;  ///< levels[0] = products, levels.back() = the sum

  // Module names.
  std::string array_module;
  std::string tile_module;
  std::string tree_module;
};

PeArrayDesign elaborate_pe_array(const config::Config& config);

/// Which register positions (0 = after the products, k = after tree level k) hold a
/// pipeline register when `stages` registers are spread evenly over `positions`.
std::vector<bool> spread_registers(int stages, int positions);

}  // namespace npugen::elab
