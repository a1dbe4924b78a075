// Emits the vector-quantized weight dequantizer (SPEC M3): one codebook copy module and
// the dequantizer around P copies of it, its register map (Markdown and a C header) and
// its synthesis script.
#pragma once

#include <string>
#include <vector>

#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// Adds rtl/<module>.sv for the dequantizer's modules; returns their paths, leaves first.
std::vector<std::string> emit_vq_rtl(const elab::Design& design, util::FileMap& files);

/// Paths of the dequantizer's documents and scripts inside the design folder.
struct VqPaths {
  std::string registers_md;  ///< docs/vq_registers.md
  std::string registers_h;   ///< sw/<name>_vq_regs.h
  std::string yosys;         ///< synth/<name>_vq.ys
};
VqPaths vq_paths(const elab::Design& design);

/// The register map documents and the block's synthesis script.
void emit_vq_docs(const elab::Design& design, const std::vector<std::string>& rtl_files,
                  util::FileMap& files);

}  // namespace npugen::emit
