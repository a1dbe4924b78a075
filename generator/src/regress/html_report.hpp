// npugen regress --html: one self-contained page of a run (docs/regress.md): the pass/fail
// matrix of designs x blocks x jobs with links to logs and reproduce lines, cycles/s per
// design, and for network runs their layers' MAC utilisation, a Gantt chart of the layers
// on the engines, and the zero-skipping layers' speed-ups and weight sparsity maps.
#pragma once

#include <filesystem>
#include <string>

#include "regress/results.hpp"

namespace npugen::regress {

/// The page for `run`; links to logs are relative to `page_dir`, where it will be written.
/// Network runs' stats.json files (Result::details) are read here; a missing one is noted.
std::string html_report(const Run& run, const std::filesystem::path& page_dir);

}  // namespace npugen::regress
