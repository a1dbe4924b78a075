// Parameterised modules several blocks instantiate, written once per design.
#pragma once

#include <string>

#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// The FIFO's module name: <prefix>_fifo.
std::string fifo_module(const elab::Design& design);
/// Writes rtl/<prefix>_fifo.sv (once, whichever block asks first); returns its path.
std::string emit_fifo(const elab::Design& design, util::FileMap& files);

/// The memory's module name: <prefix>_ram_1r1w (one write port, one registered read port).
std::string ram_1r1w_module(const elab::Design& design);
/// The timing flow's liberty of the design's memory macros: <design>_memories.lib.
std::string memories_lib(const elab::Design& design);
/// Writes rtl/<prefix>_ram_1r1w.sv (once, whichever block asks first); returns its path.
std::string emit_ram_1r1w(const elab::Design& design, util::FileMap& files);

}  // namespace npugen::emit
