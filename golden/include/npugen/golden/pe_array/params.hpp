// Parameters of a dense PE array, as the golden model and the testbench see them.
// The generator fills this struct from the validated configuration (one source of
// truth); this header only describes the hardware's arithmetic and timing.
#pragma once

#include <cstdint>

namespace npugen::golden {

struct PeArrayParams {
  unsigned tiles = 1;         ///< T: tiles (processing elements), one accumulator each
  unsigned lanes = 1;         ///< L: multipliers per tile
  unsigned weight_width = 8;  ///< bits per weight
  bool weight_signed = true;  ///< weights are two's complement
  unsigned act_width = 8;     ///< bits per activation
  bool act_signed = true;     ///< activations are two's complement
  unsigned acc_width = 32;    ///< bits per accumulator (arithmetic wraps modulo 2^acc_width)
  unsigned tree_stages = 1;   ///< pipeline registers in the adder tree

  /// Every member by name, in declaration order (the generator writes the co-simulation's
  /// constants from it; a new member is added here too).
  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("tiles", tiles), f("lanes", lanes), f("weight_width", weight_width);
    f("weight_signed", weight_signed), f("act_width", act_width), f("act_signed", act_signed);
    f("acc_width", acc_width), f("tree_stages", tree_stages);
  }

  /// Products (and so accumulators) are signed when either operand is.
  [[nodiscard]] constexpr bool acc_signed() const { return weight_signed || act_signed; }
  /// Clock edges from a step on the inputs to its effect on the accumulator outputs.
  [[nodiscard]] constexpr unsigned latency() const { return tree_stages + 1; }
};

}  // namespace npugen::golden
