// Emits what synthesis and place-and-route need beside the RTL: filelist, timing
// constraints, FuseSoC core file and a Yosys synthesis script.
#pragma once

#include <string>
#include <vector>

#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// Paths of the EDA files, relative to the design folder.
struct EdaPaths {
  std::string filelist;
  std::string sdc;
  std::string core;
  std::string yosys;
};

EdaPaths eda_paths(const elab::Design& design);

void emit_eda(const elab::Design& design, const std::vector<std::string>& rtl_files,
              util::FileMap& files);

}  // namespace npugen::emit
