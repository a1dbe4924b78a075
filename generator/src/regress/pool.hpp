// npugen regress's local pool: every design generated once, then the jobs of one design and
// block run in order (the first verilates the model, the rest reuse it) while such groups
// run in parallel; each job a child process under `timeout`, its log and its own summary
// kept in the work folder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "regress/results.hpp"

namespace npugen::regress {

struct PoolOptions {
  std::filesystem::path work;  ///< designs/, logs/ and runs/ go here
  std::string npugen;          ///< the npugen binary the jobs run
  unsigned jobs = 1;           ///< at once
  unsigned timeout_seconds = 1800;
  bool progress = false;  ///< a progress bar on stdout (a terminal)
};

/// The results of `jobs`, in their order. A job's failure, time-out or crash is its result;
/// a design that does not generate fails its jobs as `error`.
std::vector<Result> run_jobs(const std::vector<Job>& jobs, const PoolOptions& options);

/// The groups the pool would run (indices into `jobs`): one per design and block.
std::vector<std::vector<size_t>> job_groups(const std::vector<Job>& jobs);

}  // namespace npugen::regress
