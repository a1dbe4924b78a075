// Emits what synthesis and place-and-route need beside the RTL: filelist, timing
// constraints, FuseSoC core file, and the per-block Yosys synthesis scripts.
#pragma once

#include <string>
#include <vector>

#include "blocks/block.hpp"
#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// Paths of the design-wide EDA files, relative to the design folder.
struct EdaPaths {
  std::string filelist;
  std::string sdc;
  std::string core;
};

EdaPaths eda_paths(const elab::Design& design);

/// A block's generic synthesis script, synth/<name>_<block>.ys: its RTL read, its top
/// synthesized (flattened) to generic gates, failing on latches, statistics printed.
/// Returns the script's path.
std::string synthesis_script(const elab::Design& design, const blocks::Block& block,
                             const std::string& top, const std::vector<std::string>& rtl,
                             util::FileMap& files);

/// The filelist, constraints and core file of every block's RTL.
void emit_eda(const elab::Design& design, const std::vector<blocks::BlockFiles>& blocks,
              util::FileMap& files);

}  // namespace npugen::emit
