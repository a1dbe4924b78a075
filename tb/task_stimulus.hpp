// Task-unit co-simulation stimulus (SPEC M2), needing no verilated model: scenarios of
// task lists loaded into queues (chains, diamonds, wide fan-out, a long neural task with
// many short planar ones, random graphs whose regions are reused, lists that fill the
// task buffer, and a high-priority list arriving while a low-priority one waits in the
// fetch queue).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "npugen/golden/task_list.hpp"
#include "npugen/golden/task_params.hpp"

namespace npugen::tb {

/// A list loaded into one queue, `delay` cycles after its scenario starts.
struct QueueLoad {
  unsigned queue = 0;
  unsigned priority = 0;
  unsigned network_id = 0;
  uint64_t delay = 0;
  std::vector<golden::Task> tasks;
};

struct TaskScenario {
  std::string kind;  ///< chain, diamond, fanout, long_neural, random, fill, priority, list
  std::vector<QueueLoad> loads;
};

class TaskScenarios {
 public:
  TaskScenarios(const golden::TaskParams& params, uint64_t seed);
  /// The next scenario: the kinds in turn, then at random.
  TaskScenario next();
  /// A random memory latency (1 to 8 cycles).
  unsigned latency();

 private:
  golden::Task task(golden::TaskOp op, uint64_t cycles, golden::Region out, golden::Region in0 = {},
                    golden::Region in1 = {});
  golden::Region slot(unsigned index, uint64_t words) const;
  uint64_t short_cycles();
  TaskScenario chain();
  TaskScenario diamond();
  TaskScenario fanout();
  TaskScenario long_neural();
  TaskScenario random_graph();
  TaskScenario fill();
  TaskScenario priority();

  golden::TaskParams p_;
  std::mt19937_64 rng_;
  unsigned count_ = 0;
  unsigned scenario_index_ = 0;
  uint64_t slot_words_;
  unsigned slots_;
};

}  // namespace npugen::tb
