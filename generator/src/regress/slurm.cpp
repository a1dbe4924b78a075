#include "regress/slurm.hpp"

#include <fmt/format.h>

#include "version.hpp"

namespace npugen::regress {

namespace {

// `s` quoted for sh: single quotes, an embedded one closed, escaped and reopened.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

util::FileMap slurm_files(const SlurmPlan& p) {
  const std::string partition =
      p.partition.empty() ? "" : fmt::format("#SBATCH --partition={}\n", p.partition);
  const std::string header = fmt::format(
      "# npugen regress {} --tier {}: {} shards on Slurm, written by npugen {}.\n"
      "# Submit with: sh {}/submit.sh (docs/regress.md)\n",
      p.suite, p.tier, p.shards, kVersion, p.dir);
  util::FileMap files;
  files[kSlurmMarker] = "npugen regress --slurm output\n";
  // Each array task is one shard; its exit status is the shard's (1: a job failed), so that
  // sacct shows which shard failed, and the merge runs after all of them anyway.
  files["shard.sbatch"] = fmt::format(
      "#!/bin/bash\n{}"
      "#SBATCH --job-name=npugen-regress\n"
      "#SBATCH --array=1-{}\n"
      "#SBATCH --cpus-per-task={}\n"
      "#SBATCH --output={}/logs/shard-%a.out\n"
      "{}"
      "set -u\n"
      "exec {} regress {} --tier {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --jobs {} "
      "--timeout {} -o {}/shard-\"$SLURM_ARRAY_TASK_ID\"\n",
      header, p.shards, p.cpus, p.dir, partition, quoted(p.npugen), quoted(p.suite), quoted(p.tier),
      p.shards, p.cpus, p.timeout_seconds, quoted(p.dir));
  std::string shards;
  for (unsigned i = 1; i <= p.shards; ++i) shards += fmt::format(" {}/shard-{}", quoted(p.dir), i);
  files["merge.sbatch"] = fmt::format(
      "#!/bin/bash\n{}"
      "#SBATCH --job-name=npugen-regress-merge\n"
      "#SBATCH --cpus-per-task=1\n"
      "#SBATCH --output={}/logs/merge.out\n"
      "{}"
      "set -u\n"
      "exec {} regress --merge{} -o {}/merged --html {}/merged/html\n",
      header, p.dir, partition, quoted(p.npugen), shards, quoted(p.dir), quoted(p.dir));
  files["submit.sh"] = fmt::format(
      "#!/bin/sh\n{}"
      "# Prints the two job ids; the merged report lands in {}/merged.\n"
      "set -eu\n"
      "mkdir -p {}/logs\n"
      "array=$(sbatch --parsable {}/shard.sbatch)\n"
      "array=${{array%%;*}}\n"
      "merge=$(sbatch --parsable --dependency=afterany:\"$array\" {}/merge.sbatch)\n"
      "merge=${{merge%%;*}}\n"
      "echo \"$array $merge\"\n",
      header, p.dir, quoted(p.dir), quoted(p.dir), quoted(p.dir));
  return files;
}

std::vector<std::string> slurm_kept_folders(const SlurmPlan& p) {
  std::vector<std::string> keep = {"logs", "merged"};
  for (unsigned i = 1; i <= p.shards; ++i) {
    keep.push_back(fmt::format("shard-{}", i));
    keep.push_back(fmt::format("shard-{}.work", i));
  }
  return keep;
}

}  // namespace npugen::regress
