// Emits the zero-skipping PE array (SPEC M1): buffers, sequencer, activation window,
// prefetch and lane muxes, result demultiplexers and accumulators, plus the control-word
// documentation of the design. A level switched off emits no module for it.
#pragma once

#include <string>
#include <vector>

#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// Adds rtl/<module>.sv for the zero-skipping modules (not the tile and tree, which
/// emit_rtl adds); returns their paths, leaves first, the array last.
std::vector<std::string> emit_zero_skip_rtl(const elab::Design& design, util::FileMap& files);

/// docs/control_word.md: the control word's bit layout for this design.
std::string control_word_markdown(const elab::Design& design);

}  // namespace npugen::emit
