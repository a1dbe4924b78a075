// The dense PE array: T tiles of L multipliers, an adder tree and an accumulator per tile,
// one activation vector per step broadcast to all tiles. Its section (`pe_array`) also
// describes the array the zero-skipping block builds on.
#pragma once

#include <string>
#include <vector>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "emit/templates.hpp"
#include "npugen/golden/pe_array/params.hpp"

namespace npugen::blocks::pe_array {

const Block& block();

/// The array's golden parameters, as the `pe_array` section gives them.
const golden::PeArrayParams& params(const config::Config& config);

/// One level of the adder tree. Level 0 holds the products; level j > 0 adds pairs of
/// level j-1 nodes (an odd last node passes through, extended by one bit).
struct TreeLevel {
  int index = 0;
  int nodes = 0;
  int width = 0;            ///< bits per node: product width + index
  bool registered = false;  ///< a pipeline register follows this level
};

/// The arithmetic structure of an array, shared by the dense and the zero-skipping block:
/// its parameters as the section gives them (tiles, lanes, formats, pipeline stages; the
/// products' signedness is `params.acc_signed()`, the latency `params.latency()`) and what
/// the elaboration derives from them.
struct Array {
  golden::PeArrayParams params;
  int product_width = 0;          ///< weight_width + act_width: holds every product exactly
  int sum_width = 0;              ///< width of the adder tree's output
  std::vector<TreeLevel> levels;  ///< levels[0] = products, levels.back() = the sum
  /// A register on the tile's inputs (its weights and activations) before the multipliers:
  /// at the most stages, one more than the tree's positions, which are then all registered.
  bool input_register = false;

  /// Module names of the tile and the tree (each block owns its own).
  std::string tile_module;
  std::string tree_module;

  /// The array's constants in its block's package (Tiles, Lanes, WeightWidth, ...).
  [[nodiscard]] elab::SvConstants constants() const;
};

/// The array a configuration describes, its tile and tree modules named
/// <prefix>_<block>_tile and <prefix>_<block>_adder_tree.
Array elaborate_array(const config::Config& config, std::string_view block_name);

/// The most adder-tree pipeline stages a tile of `lanes` takes: one after the products, one
/// after each of the tree's ceil(log2(lanes)) levels, and one on the tile's inputs.
unsigned max_tree_stages(unsigned lanes);

/// Which register positions (0 = after the products, k = after tree level k) hold a
/// pipeline register when `stages` registers are spread evenly over `positions`.
std::vector<bool> spread_registers(int stages, int positions);

/// The elaborated dense array.
class Design : public BlockDesign {
 public:
  Array array;
  std::string array_module;  ///< the top
  std::string package;       ///< its package

  [[nodiscard]] const Block& block() const override { return pe_array::block(); }
  [[nodiscard]] std::string top() const override { return array_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

/// Template data of an array's ports (their documentation) and module names, its
/// package `package` (the RTL and the Icarus bench).
emit::TemplateData port_data(const elab::Design& design, const Array& array,
                             const std::string& package);
/// The adder tree and the tile of an array, as rtl/<module>.sv files (tree first), reading
/// their constants from `package`. `zs`: the tile of the zero-skipping array, which
/// outputs its sum (that array accumulates elsewhere).
std::vector<std::string> emit_tile_and_tree(const elab::Design& design, const Array& array,
                                            const std::string& package, bool zs,
                                            util::FileMap& files);
/// The golden parameters as a C++ initializer named kPeArray (shared by both arrays).
std::string params_declaration(const Array& array);
/// derived_json of an array's arithmetic.
nlohmann::json array_json(const Array& array);

}  // namespace npugen::blocks::pe_array
