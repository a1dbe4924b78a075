// Emits the timing flow beside the RTL (docs/timing.md): per block a Yosys script that
// synthesizes its top to a liberty's cells and an OpenSTA script that times the netlist
// against the block's SDC; for the design the memory macros' black boxes, their liberty
// stubs (timing.memory_* of the configuration) and the memory module's body that
// instantiates them. npugen timing runs the scripts; a hardware team can run them too.
#pragma once

#include <string>
#include <vector>

#include "blocks/block.hpp"
#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// The area the liberty stubs give a macro, per bit (in the liberty's units: square
/// micrometres for osu018; about a 0.18 um SRAM's).
inline constexpr double kMacroAreaPerBit = 5.0;

/// A memory shape the timing flow makes a macro.
struct MacroShape {
  std::string name;  ///< <prefix>_macro_<depth>x<width>[_m<bits per mask>]
  uint64_t depth = 0;
  uint64_t width = 0;
  uint64_t data_bits_per_mask = 0;
  [[nodiscard]] unsigned addr_bits() const;
};

/// The shapes of the design's memories of at least timing.memory_macro_bits bits, each
/// once, in order of first appearance.
std::vector<MacroShape> macro_shapes(const elab::Design& design,
                                     const std::vector<blocks::BlockFiles>& blocks);

/// The timing scripts of one block (their paths in the design folder).
struct TimingScripts {
  std::string synthesis;  ///< timing/<design>_<block>.synth.tcl (yosys -c)
  std::string sta;        ///< timing/<design>_<block>.sta.tcl (sta)
};

/// Writes timing/* for every block (in `blocks` order, each block's paths returned in the
/// same order).
std::vector<TimingScripts> emit_timing(const elab::Design& design,
                                       const std::vector<blocks::BlockFiles>& blocks,
                                       util::FileMap& files);

}  // namespace npugen::emit
