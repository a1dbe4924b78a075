#include "task_stimulus.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace npugen::tb {

using golden::Region;
using golden::Task;
using golden::TaskOp;

TaskScenarios::TaskScenarios(const golden::TaskParams& params, uint64_t seed)
    : p_(params), rng_(seed) {
  // The buffer is cut into slots; tasks read and write slots (and parts of them).
  slots_ = 24;
  slot_words_ = std::max<uint64_t>(p_.buffer_words / slots_, 1);
}

unsigned TaskScenarios::latency() { return std::uniform_int_distribution<unsigned>(1, 8)(rng_); }

uint64_t TaskScenarios::short_cycles() {
  return std::uniform_int_distribution<uint64_t>(1, 24)(rng_);
}

Region TaskScenarios::slot(unsigned index, uint64_t words) const {
  const uint64_t w = std::min(words, slot_words_);
  return Region{(index % slots_) * slot_words_, std::max<uint64_t>(w, 1)};
}

Task TaskScenarios::task(TaskOp op, uint64_t cycles, Region out, Region in0, Region in1) {
  Task t;
  t.name = fmt::format("t{}", count_++);
  t.op = op;
  t.cycles = std::min<uint64_t>(std::max<uint64_t>(cycles, 1), (uint64_t{1} << p_.cycle_bits) - 1);
  t.out = out;
  t.in[0] = in0;
  t.in[1] = in1;
  return t;
}

TaskScenario TaskScenarios::chain() {
  TaskScenario s{"chain", {QueueLoad{}}};
  const unsigned n = std::uniform_int_distribution<unsigned>(4, 16)(rng_);
  std::bernoulli_distribution neural(0.5);
  for (unsigned i = 0; i < n; ++i) {
    const Region in = i == 0 ? slot(0, 16) : s.loads[0].tasks.back().out;
    s.loads[0].tasks.push_back(task(neural(rng_) ? TaskOp::kConv : TaskOp::kPool, short_cycles(),
                                    slot(1 + i % 6, 16), in));
  }
  return s;
}

TaskScenario TaskScenarios::diamond() {
  TaskScenario s{"diamond", {QueueLoad{}}};
  auto& t = s.loads[0].tasks;
  t.push_back(task(TaskOp::kConv, short_cycles(), slot(1, 32), slot(0, 32)));
  t.push_back(task(TaskOp::kTensor, short_cycles() * 4, slot(2, 32), t[0].out));
  t.push_back(task(TaskOp::kPool, short_cycles(), slot(3, 32), t[0].out));
  t.push_back(task(TaskOp::kElementwise, short_cycles(), slot(4, 32), t[1].out, t[2].out));
  t.push_back(task(TaskOp::kConv, short_cycles(), slot(1, 32), t[3].out));  // reuses slot 1
  return s;
}

TaskScenario TaskScenarios::fanout() {
  TaskScenario s{"fanout", {QueueLoad{}}};
  auto& t = s.loads[0].tasks;
  t.push_back(task(TaskOp::kConv, 40, slot(0, 64), slot(23, 64)));
  const unsigned n = std::uniform_int_distribution<unsigned>(8, 2 * p_.entries + 4)(rng_);
  std::bernoulli_distribution neural(0.3);
  for (unsigned i = 0; i < n; ++i) {
    t.push_back(task(neural(rng_) ? TaskOp::kConv : TaskOp::kGainBias, short_cycles(),
                     slot(1 + i % 20, 64), t[0].out));
  }
  return s;
}

TaskScenario TaskScenarios::long_neural() {
  TaskScenario s{"long_neural", {QueueLoad{}}};
  auto& t = s.loads[0].tasks;
  t.push_back(task(TaskOp::kConv, std::uniform_int_distribution<uint64_t>(300, 1500)(rng_),
                   slot(0, 128), slot(1, 128)));
  const unsigned n = std::uniform_int_distribution<unsigned>(6, 24)(rng_);
  for (unsigned i = 0; i < n; ++i) {
    // A planar chain independent of the long task, then one that needs it.
    const Region in = i == 0 ? slot(2, 64) : t.back().out;
    t.push_back(task(TaskOp::kPool, short_cycles(), slot(3 + i % 8, 64), in));
  }
  t.push_back(task(TaskOp::kElementwise, short_cycles(), slot(12, 64), t[0].out, t.back().out));
  return s;
}

TaskScenario TaskScenarios::random_graph() {
  TaskScenario s{"random", {QueueLoad{}}};
  auto& t = s.loads[0].tasks;
  const unsigned n = std::uniform_int_distribution<unsigned>(10, 60)(rng_);
  std::uniform_int_distribution<unsigned> pick_slot(0, 11);
  std::uniform_int_distribution<uint64_t> words(1, slot_words_ * 2);
  std::uniform_int_distribution<unsigned> op(0, golden::kTaskOps - 1);
  std::bernoulli_distribution from_task(0.7), second(0.3), long_task(0.05);
  const bool tight = std::bernoulli_distribution(0.5)(rng_);
  for (unsigned i = 0; i < n; ++i) {
    auto region = [&] {
      if (tight) {  // short regions in 32 words: many touch or overlap by one word
        Region r{std::uniform_int_distribution<uint64_t>(0, 31)(rng_),
                 std::uniform_int_distribution<uint64_t>(1, 4)(rng_)};
        r.words = std::min<uint64_t>(r.words, p_.buffer_words - r.base);
        return r;
      }
      Region r = slot(pick_slot(rng_), slot_words_);
      r.words = std::min<uint64_t>(words(rng_), p_.buffer_words - r.base);
      return r;
    };
    auto input = [&] {
      if (!t.empty() && from_task(rng_)) {
        return t[std::uniform_int_distribution<size_t>(t.size() > 5 ? t.size() - 5 : 0,
                                                       t.size() - 1)(rng_)]
            .out;
      }
      return region();
    };
    const Region in0 = input();
    const Region in1 = second(rng_) ? input() : Region{};
    t.push_back(task(static_cast<TaskOp>(op(rng_)), long_task(rng_) ? 400 : short_cycles(),
                     region(), in0, in1));
  }
  return s;
}

TaskScenario TaskScenarios::fill() {
  // Independent tasks that outlast the fetch of the rest: the buffer and config queue fill.
  TaskScenario s{"fill", {QueueLoad{}}};
  auto& t = s.loads[0].tasks;
  const unsigned n = p_.entries + p_.config_queue_depth + 6;
  for (unsigned i = 0; i < n; ++i) {
    const bool neural = i % 2 == 0;
    t.push_back(task(neural ? TaskOp::kConv : TaskOp::kReduction, 60 + 10 * i, slot(i % 20, 8),
                     slot(20 + i % 4, 8)));
  }
  return s;
}

TaskScenario TaskScenarios::priority() {
  // A long low-priority list fills the buffer and configuration queue; a higher-priority
  // list arrives while a low-priority descriptor waits in the fetch queue and replaces it.
  TaskScenario s{"priority", {}};
  QueueLoad low;
  low.queue = 0;
  low.priority = 1;
  low.network_id = 1;
  const unsigned n = p_.entries + p_.config_queue_depth + 12;
  for (unsigned i = 0; i < n; ++i) {
    low.tasks.push_back(
        task(i % 2 ? TaskOp::kConv : TaskOp::kPool, 400, slot(i % 12, 8), slot(22, 8)));
  }
  s.loads.push_back(low);
  if (p_.queues > 1) {
    QueueLoad high;
    high.queue = p_.queues - 1;
    high.priority = 9;
    high.network_id = 2;
    // By then the buffer and the configuration queue are full (a descriptor takes about
    // 14 + 2 x 8 cycles to fetch at the testbench's latencies of 1 to 8).
    high.delay = 100 + (p_.entries + p_.config_queue_depth + 2) * 40;
    for (unsigned i = 0; i < 6; ++i) {
      high.tasks.push_back(task(i % 2 ? TaskOp::kPool : TaskOp::kTensor, short_cycles(),
                                slot(12 + i % 8, 8), slot(23, 8)));
    }
    high.tasks[2].task_switch = false;  // the queue keeps the arbiter for its next task
    s.loads.push_back(high);
  }
  return s;
}

TaskScenario TaskScenarios::next() {
  // Every kind once (priority replacement first), then at random.
  constexpr unsigned kKinds = 7;
  static constexpr unsigned kOrder[kKinds] = {6, 5, 4, 0, 1, 2, 3};
  const unsigned which = scenario_index_ < kKinds
                             ? kOrder[scenario_index_]
                             : std::uniform_int_distribution<unsigned>(0, kKinds - 1)(rng_);
  ++scenario_index_;
  switch (which) {
    case 0:
      return chain();
    case 1:
      return diamond();
    case 2:
      return fanout();
    case 3:
      return long_neural();
    case 4:
      return random_graph();
    case 5:
      return fill();
    default:
      return priority();
  }
}

}  // namespace npugen::tb
