// Emits what lint, simulation, synthesis and place-and-route need beside the RTL, as a
// hardware team takes it into its own flow: per block a filelist, an SDC that OpenSTA reads
// whole and a Yosys script (hierarchical; flattened on request); for the design a filelist
// of everything, a FuseSoC core using the flow API (lint, sim and synthesis targets per
// block) and a README. Every path inside them is relative to the design folder, and the
// scripts find the folder themselves, so they run from any directory.
#pragma once

#include <string>
#include <vector>

#include "blocks/block.hpp"
#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// Paths of the design-wide EDA files, relative to the design folder.
struct EdaPaths {
  std::string filelist;  ///< <design>.f: every block's RTL
  std::string core;      ///< <design>.core
  std::string readme;    ///< README.md
};

EdaPaths eda_paths(const elab::Design& design);

/// A block's Yosys script, synth/<design>_<block>.tcl (yosys -c): its RTL read from the
/// folder the script sits in, its top synthesized to generic gates, hierarchically unless
/// NPUGEN_FLATTEN=1, failing on latches, statistics printed; under FuseSoC it reads
/// edalize's file list and writes edalize's netlist. `checks`: Yosys Tcl lines the block
/// adds after the coarse passes (the dequantizer's memory inference); `coarse_checks`:
/// lines it runs on the RTL's operators before alumacc merges them (the address
/// generator's "no multiplier"). Both rendered from the block's own templates.
/// `synth_options`: options the block adds to Yosys's `synth` (" -noshare"). Returns the
/// script's path.
std::string synthesis_script(const elab::Design& design, const blocks::Block& block,
                             const std::string& top, const std::vector<std::string>& rtl,
                             util::FileMap& files, const std::string& checks = "",
                             const std::string& coarse_checks = "",
                             const std::string& synth_options = "");

/// Every block's filelist and constraints (recorded in `blocks`), the design's filelist,
/// FuseSoC core and README.
void emit_eda(const elab::Design& design, std::vector<blocks::BlockFiles>& blocks,
              util::FileMap& files);

}  // namespace npugen::emit
