// npugen regress's results: one record per job, and the reports made of them (results.json,
// JUnit XML, the summary table), written and read back for --merge and --rerun-failed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regress/suite.hpp"

namespace npugen::regress {

struct Result {
  Job job;
  std::string status;  ///< pass, fail, timeout, crash, error
  std::string config_hash, message, reproduce;
  std::string log;      ///< the job's log
  std::string details;  ///< the run's own JSON: the sim summary, or the network run's stats.json
  uint64_t cycles = 0;
  double seconds = 0;

  [[nodiscard]] bool passed() const { return status == "pass"; }
  [[nodiscard]] double cycles_per_second() const {
    return seconds > 0 ? static_cast<double>(cycles) / seconds : 0;
  }
};

/// A run of a tier (or a merge of shards' runs).
struct Run {
  std::string suite, tier;
  unsigned jobs_at_once = 0;  ///< 0: merged
  double wall_seconds = 0;
  std::vector<Result> results;

  [[nodiscard]] size_t failures() const;
};

nlohmann::json results_json(const Run& run);
/// Throws std::runtime_error (naming the file) when it is not npugen regress's results.json.
Run read_results_json(const std::string& file);
std::string junit_xml(const Run& run);
std::string summary_table(const Run& run);

/// A JSON file's content; null when it is missing or not JSON (a job that died before
/// writing its summary).
nlohmann::json read_json_or_null(const std::string& file);

/// The runs in `files` (results.json each) joined, sorted by configuration, block and
/// variant; the wall time is the longest shard's. A job in two of them (a shard given twice)
/// is refused.
Run merge_runs(const std::vector<std::string>& files);

}  // namespace npugen::regress
