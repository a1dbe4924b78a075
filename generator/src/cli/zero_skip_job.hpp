// One zero-skipping preprocessing job as the CLI runs it: load and validate a weight
// tensor, schedule it, check the contract, and describe the result.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "blocks/zs/zs.hpp"
#include "elab/design.hpp"
#include "npugen/golden/zs/schedule.hpp"
#include "util/output_tree.hpp"

namespace npugen::cli {

struct ZeroSkipJob {
  golden::HierTensor tensor;
  golden::HierSchedule schedule;
  golden::ScheduleStats stats;
  golden::LowerBound bound;
  std::vector<std::string> problems;  ///< contract violations (none, unless npugen is wrong)
  uint64_t intra_only_steps = 0;      ///< steps with the inter-tile level switched off
  uint64_t inter_only_steps = 0;      ///< steps with the intra-tile level switched off
};

/// The design's zero-skipping array; CommandError(kBadInput) when it has none.
const blocks::zs::Design& zero_skip_design(const elab::Design& design);

/// Reads W.npy and checks it against the design: dtype, rank, shape, value range.
/// Throws CommandError(kBadInput) naming the file and the problem.
ZeroSkipJob load_zero_skip_job(const elab::Design& design, const std::filesystem::path& weights);
/// Preprocesses, checks the contract and computes the lower bound.
void run_zero_skip_job(const elab::Design& design, ZeroSkipJob& job);
nlohmann::json zero_skip_stats_json(const elab::Design& design, const ZeroSkipJob& job);
/// The files of the output folder.
util::FileMap zero_skip_outputs(const elab::Design& design, const ZeroSkipJob& job);

}  // namespace npugen::cli
