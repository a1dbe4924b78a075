// npugen timing's work (docs/timing.md): a liberty checked, then per block the bundle's
// timing scripts run (Yosys to the liberty's cells, OpenSTA on the block's SDC) and their
// outputs read into one report.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "timing/sta_report.hpp"

namespace npugen::timing {

/// What a liberty offers synthesis and the constraints.
struct Liberty {
  std::string name;                     ///< the library's name
  std::vector<std::string> cells;       ///< every cell
  std::vector<std::string> flip_flops;  ///< cells with an ff group
};

/// A liberty that does not parse or lacks what the flow needs.
struct LibertyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads the liberty's cells; throws LibertyError naming the file and what is wrong or
/// missing (no cells, no flip-flop, no `driving_cell`).
Liberty read_liberty(const std::filesystem::path& file, const std::string& driving_cell);

/// One block's result.
struct BlockTiming {
  std::string block, top;
  std::string status;   ///< "met", "violated" or "error"
  std::string message;  ///< what failed (status error)
  double period_ns = 0;
  StaReport sta;
  CellStats stats;
  double synth_seconds = 0, sta_seconds = 0;
  [[nodiscard]] double fmax_mhz() const;  ///< 1000 / (period - setup slack), an estimate
};

struct RunOptions {
  std::filesystem::path design;  ///< the generated design folder
  std::filesystem::path work;    ///< netlists and logs
  std::filesystem::path liberty;
  std::string macro_prefix;  ///< <prefix>_macro_
  std::vector<std::string> flip_flops;
  double period_ns = 0;
  unsigned jobs = 1;
};

/// Runs every (block, top, synthesis script, sta script) with `o.jobs` at once.
struct BlockScripts {
  std::string block, top, synthesis, sta;
};
std::vector<BlockTiming> run_blocks(const std::vector<BlockScripts>& blocks, const RunOptions& o);

nlohmann::json to_json(const BlockTiming& t);

}  // namespace npugen::timing
