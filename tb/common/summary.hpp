// What a co-simulation run found, for people (the report printed) and for programs (the
// JSON summary every bench writes with --summary). Depends on no design: compiled once
// and served from ccache to every design's build.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npugen::tb {

/// An output that differed from the golden model's (or a check that failed).
struct Mismatch {
  uint64_t cycle = 0;
  std::string what;
};

/// A run's result.
struct RunSummary {
  std::string design, config_hash, block, mode;
  uint64_t seed = 0;
  uint64_t cycles = 0;  ///< cycles simulated after reset
  /// "pass", "mismatch" (an output differed or a check failed), "assertion" (an RTL
  /// assertion fired) or "vacuous" (nothing differed, but the run compared none of the
  /// results its bench checks: a run that checks nothing does not pass).
  std::string status = "pass";
  std::vector<Mismatch> mismatches;  ///< the first ones
  /// The RTL assertion that fired, as Verilator reports it ("<file>.sv:<line>: Assertion
  /// failed in <scope>: <message>"); empty when none did.
  std::string assertion;
  std::vector<std::string> report;  ///< the lines printed after the mismatches
  std::string reproduce;            ///< the command that reproduces a failure with a waveform

  /// The results the run compared with its golden model or plain reference beyond the
  /// outputs of an idle design (results, layers, address sets, output elements): what they
  /// are, and how many. Every bench says it (`compared()`); none is a vacuous run.
  std::string compared_what;
  uint64_t compared_count = 0;
  /// Lines saying why a vacuous run compared nothing (what the bench refused, what the
  /// budget did not reach), printed and kept in `report`.
  std::vector<std::string> vacuous_reasons;

  /// What the bench counted: name and value, in the order counted.
  std::vector<std::pair<std::string, uint64_t>> counts;
  /// Coverage goals: something the run should show. `required`: the design can show it,
  /// so a value of 0 fails the test that runs the bench (a limit names the others).
  struct Goal {
    std::string name;
    uint64_t value = 0;
    bool required = true;
  };
  std::vector<Goal> goals;
  /// What the design keeps the stimulus from showing, naming the configuration key.
  std::vector<std::string> limits;
  /// Further lines the bench prints under its PASS line.
  std::vector<std::string> lines;

  double seconds = 0;    ///< wall time of the cycles after reset
  double rtl_share = 0;  ///< share of that time spent in the verilated model (0..1)

  void count(std::string name, uint64_t value) { counts.emplace_back(std::move(name), value); }
  /// The results compared (see `compared_what`); also counted under `what`.
  void compared(std::string what, uint64_t value) {
    compared_what = what;
    compared_count = value;
    count(std::move(what), value);
  }
  void goal(std::string name, uint64_t value, bool required = true) {
    goals.push_back(Goal{std::move(name), value, required});
  }
  /// Required goals with a value of 0.
  [[nodiscard]] std::vector<std::string> unmet_goals() const;
};

/// Writes the summary as JSON to `path` (replacing it); throws on a write error.
void write_summary_json(const RunSummary& summary, const std::string& path);

}  // namespace npugen::tb
