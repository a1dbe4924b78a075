// Assembles the whole design folder: RTL, EDA files, co-simulation project,
// resolved configuration and manifest.
#pragma once

#include <filesystem>

#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// Name of the manifest; its presence marks a folder as npugen output.
inline constexpr const char* kManifest = "manifest.json";
/// Build caches inside a design folder (sim/build-<block>[-trace] of every block), kept
/// when the folder is regenerated.
const std::vector<std::string>& build_folders();

/// Every file of the design folder, in memory.
util::FileMap emit_design(const elab::Design& design);

/// Writes the design folder atomically.
util::WriteOutcome write_design(const elab::Design& design, const std::filesystem::path& dir);

/// Checks a design folder against its manifest; returns the problems found.
std::vector<std::string> verify_design_folder(const std::filesystem::path& dir);

}  // namespace npugen::emit
