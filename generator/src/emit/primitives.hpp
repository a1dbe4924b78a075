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

}  // namespace npugen::emit
