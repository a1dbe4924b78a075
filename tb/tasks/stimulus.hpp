// Task-unit co-simulation stimulus, needing no verilated model: scenarios of
// task lists spread over every queue (chains, diamonds, wide fan-out, a long neural task
// with many short planar ones, random graphs whose regions are reused, lists that fill the
// task buffer, a higher-priority list that replaces a descriptor waiting in the fetch
// queue, and a lower-priority queue whose non-switch tasks keep the arbiter while a
// higher queue waits with one task).
//
// Scenarios adapt to the design: lists are sized to the descriptor memory, durations to
// the cycle register, regions to the data buffer, and the loads that must meet a state of
// the unit (a descriptor waiting, a queue locked) are triggered by that state rather than
// timed. The descriptor memory stalls: per seed a share of cycles in which it takes no read
// request (mem_ready_i low; none for seeds divisible by 4), drawn from a stream of its own
// so that the scenarios do not depend on it. What a design cannot show (one queue cannot be
// replaced by another) is reported as such by limits(), naming the configuration key, never as a
// failure.
//
// Raw std::mt19937_64 output only (no library distributions), so a seed reproduces on
// every platform.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "npugen/golden/tasks/list.hpp"
#include "npugen/golden/tasks/params.hpp"

namespace npugen::tb {

/// A list loaded into one queue.
struct QueueLoad {
  enum class Trigger : uint8_t {
    kDelay,         ///< `delay` cycles after the scenario starts
    kFetchWaiting,  ///< when a descriptor waits in the fetch queue for the configuration queue
    kLocked,        ///< when a queue's non-switch task holds the arbiter and it has more tasks
  };
  unsigned queue = 0;
  unsigned priority = 0;
  unsigned network_id = 0;
  unsigned base_index = 0;
  Trigger trigger = Trigger::kDelay;
  uint64_t delay = 0;
  std::vector<golden::Task> tasks;
};

struct TaskScenario {
  std::string kind;  ///< priority, lock, edges, fill, random, chain, diamond, fanout, long_neural
  std::vector<QueueLoad> loads;
};

class TaskScenarios {
 public:
  /// `memory_words`: the descriptor memory the testbench gives the unit; a scenario's lists
  /// fit it together.
  TaskScenarios(const golden::TaskParams& params, uint64_t memory_words, uint64_t seed);
  /// The next scenario: every kind once (replacement and lock first), then at random.
  TaskScenario next();
  /// A random memory latency (1 to 8 cycles).
  unsigned latency();
  /// Percent of cycles in which the descriptor memory takes no read request: 0 (always
  /// ready) for seeds divisible by 4, else 10, 25 or 50 by the seed.
  [[nodiscard]] unsigned stall_percent() const { return stall_percent_; }
  /// The memory's ready (mem_ready_i) in the next cycle.
  bool mem_ready();
  /// Kinds in the order they first run.
  static const std::vector<std::string>& kinds();
  /// What this design keeps the scenarios from showing, and why (naming the key).
  [[nodiscard]] const std::vector<std::string>& limits() const { return limits_; }

 private:
  uint64_t below(uint64_t n) { return rng_() % n; }
  /// lo to hi; lo when hi is below it (a design too small for the scenario's spread, e.g.
  /// fanout's 8 tasks with one entry).
  uint64_t range(uint64_t lo, uint64_t hi) { return hi <= lo ? lo : lo + below(hi - lo + 1); }
  bool chance(unsigned percent) { return below(100) < percent; }

  golden::Task task(golden::TaskOp op, uint64_t cycles, golden::Region out, golden::Region in0 = {},
                    golden::Region in1 = {});
  golden::Region slot(unsigned index, uint64_t words) const;
  uint64_t short_cycles();
  /// Cycles a descriptor takes to fetch, stalls included (on average).
  [[nodiscard]] double fetch_cycles() const;
  /// Cycles that outlast fetching `tasks` descriptors (so that later tasks pile up).
  uint64_t long_cycles(unsigned tasks) const;
  /// Tasks of `cycles` each, run one after the other, that leave `waiting` of them fetched
  /// and not yet run.
  unsigned to_pile_up(unsigned waiting, uint64_t cycles) const;
  /// Words `tasks` take in descriptor memory.
  uint64_t words_of(const std::vector<golden::Task>& tasks) const;
  /// Drops tasks from the end until `tasks` and `reserved` words fit the memory.
  void fit(std::vector<golden::Task>& tasks, uint64_t reserved = 0) const;
  /// Random task-switch flags (a quarter of the tasks keep their queue selected).
  void random_switches(std::vector<golden::Task>& tasks);
  /// A load of `queue` with a random priority in [min, max], network id and base index.
  QueueLoad load_for(unsigned queue, unsigned min_priority, unsigned max_priority);
  /// The highest queue's load, of a priority above every spread() load's (8 to 15).
  QueueLoad highest(std::vector<golden::Task> tasks, QueueLoad::Trigger trigger);
  /// One list cut into consecutive chunks, one per queue in `queues` (as many as it has
  /// tasks for), each with a random priority up to `max_priority`, network id and base index.
  std::vector<QueueLoad> spread(std::vector<golden::Task> tasks, unsigned queues,
                                unsigned max_priority);
  TaskScenario chain();
  TaskScenario diamond();
  TaskScenario fanout();
  TaskScenario long_neural();
  TaskScenario random_graph();
  TaskScenario edges();
  TaskScenario fill();
  TaskScenario priority();
  TaskScenario lock();

  golden::TaskParams p_;
  uint64_t memory_words_;
  std::mt19937_64 rng_;
  std::mt19937_64 ready_rng_;  ///< mem_ready_i only
  unsigned stall_percent_;
  unsigned count_ = 0;
  unsigned scenario_index_ = 0;
  unsigned slots_;
  uint64_t slot_words_;
  uint64_t cycle_limit_;
  unsigned descriptor_words_;  ///< words of one scenario task's descriptor
  std::vector<std::string> limits_;
};

}  // namespace npugen::tb
