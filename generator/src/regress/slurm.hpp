// npugen regress --slurm DIR: the batch scripts that run a tier on a Slurm cluster as a job
// array (one array task a shard) and a merge job that waits for them (docs/regress.md).
#pragma once

#include <string>

#include "util/output_tree.hpp"

namespace npugen::regress {

struct SlurmPlan {
  std::string npugen;  ///< absolute path of the npugen binary the nodes run
  std::string suite;   ///< absolute path of the suite file
  std::string tier;
  std::string dir;  ///< absolute: the scripts, and the shards' results, logs and merge
  unsigned shards = 4;
  unsigned cpus = 2;  ///< --cpus-per-task, and each shard's --jobs
  unsigned timeout_seconds = 1800;
  std::string partition;  ///< empty: the cluster's default
};

/// Marks a folder as npugen's Slurm folder: written again only when it holds this file.
inline constexpr const char* kSlurmMarker = ".npugen-slurm";

/// shard.sbatch, merge.sbatch, submit.sh and the marker.
util::FileMap slurm_files(const SlurmPlan& plan);

/// What the folder keeps when the scripts are written again: the runs' results.
std::vector<std::string> slurm_kept_folders(const SlurmPlan& plan);

}  // namespace npugen::regress
