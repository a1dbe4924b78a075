// One zero-skipping preprocessing job, as `npugen preprocess` and `npugen bench
// --preprocess` run it: load and validate a weight tensor, schedule it, check the
// contract, and describe the result.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "blocks/zs/zs.hpp"
#include "elab/design.hpp"
#include "npugen/golden/zs/schedule.hpp"
#include "util/output_tree.hpp"

namespace npugen::blocks::zs {

struct ZsJob {
  golden::HierTensor tensor;
  golden::HierSchedule schedule;
  golden::ScheduleStats stats;
  golden::LowerBound bound;
  std::vector<std::string> problems;  ///< contract violations (none, unless npugen is wrong)
  uint64_t intra_only_steps = 0;      ///< steps with the inter-tile level switched off
  uint64_t inter_only_steps = 0;      ///< steps with the intra-tile level switched off
};

/// The design's zero-skipping array; BadInput when it has none.
const Design& zs_design(const elab::Design& design);

/// Reads W.npy and checks it against the design: dtype, rank, shape, value range.
/// Throws BadInput naming the file and the problem.
ZsJob load_zs_job(const elab::Design& design, const std::filesystem::path& weights);
/// Preprocesses, checks the contract and computes the lower bound.
void run_zs_job(const elab::Design& design, ZsJob& job);
nlohmann::json zs_stats_json(const elab::Design& design, const ZsJob& job);
/// The files of the output folder.
util::FileMap zs_outputs(const elab::Design& design, const ZsJob& job);

}  // namespace npugen::blocks::zs
