// Building (or reusing) the verilated co-simulation of a design folder.
#pragma once

#include <filesystem>
#include <string>

#include "elab/design.hpp"

namespace npugen::cli {

struct SimBuild {
  std::filesystem::path binary;  ///< the co-simulation executable
  bool rebuilt = false;          ///< false when the cached build was up to date
  double build_seconds = 0;
};

/// Fails with the install command when Verilator, make, a C++ compiler or the
/// headers the co-simulation needs are missing.
void require_sim_tools();

/// Builds the design folder's co-simulation of a block (sim/build-<block>, -trace added
/// with tracing) unless the cached build matches the folder's content hash.
SimBuild build_sim(const elab::Design& design, const std::filesystem::path& dir, bool trace,
                   bool force, const blocks::BlockDesign& block);

/// The block `name` of the design (its first when empty); bad input when it has none.
const blocks::BlockDesign& sim_block(const elab::Design& design, const std::string& config_file,
                                     const std::string& name);

}  // namespace npugen::cli
