// npugen regress's jobs (docs/regress.md): a suite file's tiers expanded into jobs, the
// shards of a job list, and the globs that name configurations.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace npugen::regress {

enum class JobKind {
  kSim,      ///< npugen sim: one block's random co-simulation against its golden model
  kLint,     ///< verilator --lint-only -Wall on one block's filelist
  kNetwork,  ///< npugen run: a network on the design's NPU top, bit-exact every layer
  kTiming,   ///< npugen timing: one block synthesized to a liberty and timed by OpenSTA
};

std::string kind_name(JobKind k);
JobKind kind_of(const std::string& name);  ///< throws std::invalid_argument

struct Job {
  JobKind kind = JobKind::kSim;
  std::string config;         ///< the configuration file
  std::string inline_config;  ///< a configuration written in the suite (YAML), to be saved
                              ///< as `config` (materialize_inline) before the jobs run
  std::string block;          ///< the block (npu for a network run; the one timed)
  uint64_t seed = 1;          ///< kSim: the co-simulation's seed
  uint64_t cycles = 0;        ///< kSim: the cycle budget; 0: the configuration's
  std::string design;         ///< the design's folder name (the configuration file's stem)
  std::string network;        ///< kNetwork: the network file, or a quantized ONNX model (.onnx)
  std::string input;          ///< kNetwork: its input images (.npy)
  std::string labels;         ///< kNetwork: class labels (.npy), optional
  int config_line = 0;        ///< the suite's line naming the configuration (0: none)
  int block_line = 0;         ///< the suite's line naming the block or the network

  /// A short name, unique within a tier: design.block.seedN, design.block.lint,
  /// design.block.timing or design.network-stem.
  [[nodiscard]] std::string name() const;
  /// What a report shows in the seed's place: the seed, "lint", "timing" or the network's
  /// stem.
  [[nodiscard]] std::string variant() const;
};

/// The jobs of `tier` in the suite `file`, in the order the file lists them. A bad suite is
/// reported on stderr as file:line: error: ... and throws SuiteError.
struct SuiteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
std::vector<Job> read_suite(const std::string& file, const std::string& tier);

/// Writes each inline configuration of `jobs` to `dir`/<design>.yaml (atomically, with a
/// header naming the suite) and points the jobs' `config` at it.
void materialize_inline(std::vector<Job>& jobs, const std::filesystem::path& dir);

/// Configuration files (.yaml, .yml) whose names match `pattern` (* and ? within its last
/// part), relative to `dir` unless absolute; sorted.
std::vector<std::string> glob_files(const std::filesystem::path& dir, const std::string& pattern);

/// "i/n" (decimal, nothing else) -> {i, n} with 1 <= i <= n; throws SuiteError with the
/// message otherwise.
std::pair<unsigned, unsigned> parse_shard(const std::string& text);
/// The i-th of n deterministic slices of `jobs`: job k when k mod n = i - 1.
std::vector<Job> shard_of(const std::vector<Job>& jobs, std::pair<unsigned, unsigned> shard);

}  // namespace npugen::regress
