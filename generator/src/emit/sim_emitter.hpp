// Emits the design's co-simulation project under sim/: Makefile, generated design
// parameters, the testbench and golden-model sources, and an Icarus replay bench.
#pragma once

#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

void emit_sim(const elab::Design& design, util::FileMap& files);

}  // namespace npugen::emit
