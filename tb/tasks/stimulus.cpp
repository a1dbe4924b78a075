#include "tasks/stimulus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace npugen::tb {

using golden::Region;
using golden::Task;
using golden::TaskOp;
using Trigger = QueueLoad::Trigger;

namespace {

/// Cycles a descriptor takes to fetch beyond its words: two header words, the latency until
/// the length arrives, the latency of the last word (1 to 8 each here) and the commit.
constexpr unsigned kFetchMargin = 20;

/// Memory stall shares (percent of cycles not ready) of seeds not divisible by 4.
constexpr unsigned kStallPercents[] = {10, 25, 50};

}  // namespace

const std::vector<std::string>& TaskScenarios::kinds() {
  static const std::vector<std::string> kKinds = {
      "priority", "lock", "edges", "fill", "random", "chain", "diamond", "fanout", "long_neural"};
  return kKinds;
}

TaskScenarios::TaskScenarios(const golden::TaskParams& params, uint64_t memory_words, uint64_t seed)
    : p_(params),
      memory_words_(memory_words),
      rng_(seed),
      ready_rng_(seed ^ 0x9e3779b97f4a7c15ULL),
      stall_percent_(seed % 4 == 0 ? 0 : kStallPercents[(seed / 4) % 3]) {
  // The buffer is cut into slots (at most one word apart when it is small); tasks read and
  // write slots and parts of them, never past the buffer.
  slots_ = static_cast<unsigned>(std::min<uint64_t>(24, p_.buffer_words));
  slot_words_ = p_.buffer_words / slots_;
  cycle_limit_ = (uint64_t{1} << p_.cycle_bits) - 1;
  descriptor_words_ = static_cast<unsigned>(
      golden::encode_task_list({task(TaskOp::kConv, 1, slot(0, 1), slot(1, 1), slot(2, 1))}, p_)
          .words.size());
  count_ = 0;

  const uint64_t capacity = memory_words_ / descriptor_words_;
  const std::string memory =
      fmt::format("tasks.memory_words = {} holds {} descriptor(s) of {} words", p_.memory_words,
                  capacity, descriptor_words_);
  if (p_.queues == 1) {
    limits_.push_back(
        "no fetch-queue replacement and no lock held against a higher-priority queue: the "
        "unit has one queue (tasks.queues = 1)");
  } else if (capacity < p_.queues) {
    limits_.push_back(fmt::format("a scenario uses at most {} of the {} queues: {}", capacity,
                                  p_.queues, memory));
  }
  const uint64_t to_fill = uint64_t{p_.entries} + p_.config_queue_depth + 1;
  if (capacity < p_.entries) {
    limits_.push_back(fmt::format("the task buffer ({} entries, tasks.entries) cannot fill: {}",
                                  p_.entries, memory));
  } else if (capacity < to_fill && p_.queues > 1) {
    limits_.push_back(fmt::format(
        "no descriptor waits in the fetch queue to be replaced: that takes {} tasks (the task "
        "buffer's {}, the configuration queue's {} and one more); {}",
        to_fill, p_.entries, p_.config_queue_depth, memory));
  }
}

unsigned TaskScenarios::latency() { return static_cast<unsigned>(range(1, 8)); }

bool TaskScenarios::mem_ready() { return ready_rng_() % 100 >= stall_percent_; }

double TaskScenarios::fetch_cycles() const {
  return descriptor_words_ * 100.0 / (100 - stall_percent_) + kFetchMargin;
}

uint64_t TaskScenarios::short_cycles() { return range(1, 24); }

uint64_t TaskScenarios::long_cycles(unsigned tasks) const {
  return std::min<uint64_t>(cycle_limit_, static_cast<uint64_t>(std::ceil(tasks * fetch_cycles())));
}

unsigned TaskScenarios::to_pile_up(unsigned waiting, uint64_t cycles) const {
  // Tasks that run one after the other, each `cycles` long, while the next descriptors are
  // fetched: n tasks leave n (1 - fetch / cycles) waiting.
  const double fetch = fetch_cycles();
  const double left = 1.0 - fetch / static_cast<double>(cycles);
  if (left <= 0.05) return waiting * 20;
  return static_cast<unsigned>(std::ceil(waiting / left)) + 2;
}

Region TaskScenarios::slot(unsigned index, uint64_t words) const {
  return Region{(index % slots_) * slot_words_, std::clamp<uint64_t>(words, 1, slot_words_)};
}

Task TaskScenarios::task(TaskOp op, uint64_t cycles, Region out, Region in0, Region in1) {
  Task t;
  t.name = fmt::format("t{}", count_++);
  t.op = op;
  t.cycles = std::clamp<uint64_t>(cycles, 1, cycle_limit_);
  t.out = out;
  t.in[0] = in0;
  t.in[1] = in1;
  return t;
}

uint64_t TaskScenarios::words_of(const std::vector<Task>& tasks) const {
  return tasks.empty() ? 0 : golden::encode_task_list(tasks, p_).words.size();
}

void TaskScenarios::fit(std::vector<Task>& tasks, uint64_t reserved) const {
  const uint64_t room = memory_words_ > reserved ? memory_words_ - reserved : 0;
  const uint64_t most = room / descriptor_words_;
  if (tasks.size() > most) tasks.resize(most);
  while (!tasks.empty() && words_of(tasks) > room) tasks.pop_back();
}

void TaskScenarios::random_switches(std::vector<Task>& tasks) {
  for (auto& t : tasks) t.task_switch = !chance(25);
}

QueueLoad TaskScenarios::load_for(unsigned queue, unsigned min_priority, unsigned max_priority) {
  QueueLoad load;
  load.queue = queue;
  load.priority = static_cast<unsigned>(range(min_priority, max_priority));
  load.network_id = static_cast<unsigned>(below(256));
  load.base_index = static_cast<unsigned>(below(256));
  return load;
}

QueueLoad TaskScenarios::highest(std::vector<Task> tasks, Trigger trigger) {
  QueueLoad load = load_for(p_.queues - 1, 8, 15);
  load.trigger = trigger;
  load.tasks = std::move(tasks);
  return load;
}

std::vector<QueueLoad> TaskScenarios::spread(std::vector<Task> tasks, unsigned queues,
                                             unsigned max_priority) {
  std::vector<QueueLoad> loads;
  const size_t n = tasks.size();
  const size_t used = std::min<size_t>(queues, n);
  size_t at = 0;
  for (size_t q = 0; q < used; ++q) {
    // Chunks of n / used tasks, the remainder to the first ones.
    const size_t size = n / used + (q < n % used ? 1 : 0);
    QueueLoad load = load_for(static_cast<unsigned>(q), 0, max_priority);
    load.delay = below(40);
    load.tasks.assign(tasks.begin() + static_cast<ptrdiff_t>(at),
                      tasks.begin() + static_cast<ptrdiff_t>(at + size));
    at += size;
    loads.push_back(std::move(load));
  }
  return loads;
}

TaskScenario TaskScenarios::chain() {
  std::vector<Task> t;
  const unsigned n = static_cast<unsigned>(range(4, 16));
  for (unsigned i = 0; i < n; ++i) {
    const Region in = i == 0 ? slot(0, 16) : t.back().out;
    t.push_back(
        task(chance(50) ? TaskOp::kConv : TaskOp::kPool, short_cycles(), slot(1 + i % 6, 16), in));
  }
  fit(t);
  random_switches(t);
  return {"chain", spread(std::move(t), p_.queues, 15)};
}

TaskScenario TaskScenarios::diamond() {
  std::vector<Task> t;
  t.push_back(task(TaskOp::kConv, short_cycles(), slot(1, 32), slot(0, 32)));
  t.push_back(task(TaskOp::kTensor, short_cycles() * 4, slot(2, 32), t[0].out));
  t.push_back(task(TaskOp::kPool, short_cycles(), slot(3, 32), t[0].out));
  t.push_back(task(TaskOp::kElementwise, short_cycles(), slot(4, 32), t[1].out, t[2].out));
  t.push_back(task(TaskOp::kConv, short_cycles(), slot(1, 32), t[3].out));  // reuses slot 1
  fit(t);
  random_switches(t);
  return {"diamond", spread(std::move(t), p_.queues, 15)};
}

TaskScenario TaskScenarios::fanout() {
  std::vector<Task> t;
  t.push_back(task(TaskOp::kConv, 40, slot(0, 64), slot(23, 64)));
  const unsigned n = static_cast<unsigned>(range(8, 2 * p_.entries + 4));
  for (unsigned i = 0; i < n; ++i) {
    t.push_back(task(chance(30) ? TaskOp::kConv : TaskOp::kGainBias, short_cycles(),
                     slot(1 + i % 20, 64), t[0].out));
  }
  fit(t);
  random_switches(t);
  return {"fanout", spread(std::move(t), p_.queues, 15)};
}

TaskScenario TaskScenarios::long_neural() {
  std::vector<Task> t;
  t.push_back(task(TaskOp::kConv, range(300, 1500), slot(0, 128), slot(1, 128)));
  const unsigned n = static_cast<unsigned>(range(6, 24));
  for (unsigned i = 0; i < n; ++i) {
    // A planar chain independent of the long task, then one that needs it.
    const Region in = i == 0 ? slot(2, 64) : t.back().out;
    t.push_back(task(TaskOp::kPool, short_cycles(), slot(3 + i % 8, 64), in));
  }
  t.push_back(task(TaskOp::kElementwise, short_cycles(), slot(12, 64), t[0].out, t.back().out));
  fit(t);
  random_switches(t);
  return {"long_neural", spread(std::move(t), p_.queues, 15)};
}

TaskScenario TaskScenarios::random_graph() {
  std::vector<Task> t;
  const unsigned n = static_cast<unsigned>(range(10, 60));
  const bool tight = chance(50);
  // Short regions in the first 32 words (or the whole buffer, when smaller): many touch
  // or overlap by one word.
  const uint64_t tight_words = std::min<uint64_t>(32, p_.buffer_words);
  for (unsigned i = 0; i < n; ++i) {
    auto region = [&] {
      if (tight) {
        Region r{below(tight_words), range(1, 4)};
        r.words = std::min<uint64_t>(r.words, p_.buffer_words - r.base);
        return r;
      }
      Region r = slot(static_cast<unsigned>(below(12)), slot_words_);
      r.words = std::min<uint64_t>(range(1, slot_words_ * 2), p_.buffer_words - r.base);
      return r;
    };
    auto input = [&] {
      if (!t.empty() && chance(70)) {
        const size_t from = t.size() > 5 ? t.size() - 5 : 0;
        return t[range(from, t.size() - 1)].out;
      }
      return region();
    };
    const Region in0 = input();
    const Region in1 = chance(30) ? input() : Region{};
    const auto op = static_cast<TaskOp>(below(golden::kTaskOps));
    const uint64_t cycles = chance(5) ? 400 : short_cycles();
    const Region out = region();
    t.push_back(task(op, cycles, out, in0, in1));
  }
  fit(t);
  random_switches(t);
  return {"random", spread(std::move(t), p_.queues, 15)};
}

TaskScenario TaskScenarios::edges() {
  // Regions that meet a producer's region in exactly its first or its last word (and
  // regions that only touch it): a long task and, right after it in the list, a short one of
  // the other kind (so that only the dependency or conflict can hold it back) that reads its
  // output's edge (read after write), writes over its input's edge (write after read) or
  // over its output's edge (write after write), or touches without overlapping.
  std::vector<Task> t;
  const uint64_t n = std::max<uint64_t>(1, std::min<uint64_t>(8, p_.buffer_words / 4));
  const uint64_t k = std::max<uint64_t>(1, std::min<uint64_t>(4, p_.buffer_words / 4));
  const unsigned pairs = static_cast<unsigned>(range(6, 16));
  for (unsigned i = 0; i < pairs; ++i) {
    // The producer's region [b, b + n) and a neighbour of k words.
    const uint64_t b = range(k, p_.buffer_words - n - k);
    const Region mine{b, n};
    const Region other = Region{b + n + k <= p_.buffer_words ? b + n : b, k};
    const Region last_word{b + n - 1, k};   // overlaps only word b + n - 1
    const Region first_word{b + 1 - k, k};  // overlaps only word b
    const Region touching = chance(50) ? Region{b + n, k} : Region{b - k, k};
    const bool neural = chance(50);
    const TaskOp first_op = neural ? TaskOp::kConv : TaskOp::kPool;
    const TaskOp second_op = neural ? TaskOp::kElementwise : TaskOp::kTensor;
    const uint64_t cycles = range(20, 60);
    switch (below(4)) {
      case 0:  // read after write
        t.push_back(task(first_op, cycles, mine, other));
        t.push_back(task(second_op, short_cycles(), Region{(b + 7 * n) % (p_.buffer_words - k), k},
                         chance(50) ? last_word : first_word));
        break;
      case 1:  // write after read
        t.push_back(task(first_op, cycles, other, mine));
        t.push_back(task(second_op, short_cycles(), chance(50) ? last_word : first_word));
        break;
      case 2:  // write after write
        t.push_back(task(first_op, cycles, mine));
        t.push_back(task(second_op, short_cycles(), chance(50) ? last_word : first_word));
        break;
      default:  // touching only: no dependency, no conflict
        t.push_back(task(first_op, cycles, mine));
        t.push_back(task(second_op, short_cycles(), touching, touching));
        break;
    }
  }
  fit(t);
  random_switches(t);
  return {"edges", spread(std::move(t), p_.queues, 15)};
}

TaskScenario TaskScenarios::fill() {
  // Tasks that all write one region run one after the other (each conflicts with the one
  // before), each long enough for several descriptors to arrive meanwhile: the task buffer
  // fills, then the configuration queue, and a descriptor waits in the fetch queue.
  std::vector<Task> t;
  const uint64_t cycles = long_cycles(8);
  const unsigned n = to_pile_up(p_.entries + p_.config_queue_depth + 1, cycles);
  for (unsigned i = 0; i < n; ++i) {
    t.push_back(task(i % 2 == 0 ? TaskOp::kConv : TaskOp::kReduction, cycles, slot(0, 8),
                     slot(1 + i % 20, 8)));
  }
  fit(t);
  random_switches(t);
  return {"fill", spread(std::move(t), p_.queues, 15)};
}

TaskScenario TaskScenarios::priority() {
  // A full buffer and configuration queue (as in fill) from the lower queues, and a list in
  // the highest queue, loaded when a lower queue's descriptor waits in the fetch queue: it
  // replaces the waiting descriptor.
  TaskScenario s{"priority", {}};
  std::vector<Task> high;
  if (p_.queues > 1) {
    const unsigned n = static_cast<unsigned>(range(1, 4));
    for (unsigned i = 0; i < n; ++i) {
      high.push_back(task(i % 2 ? TaskOp::kPool : TaskOp::kTensor, short_cycles(),
                          slot(12 + i % 8, 8), slot(23, 8)));
    }
    random_switches(high);
    fit(high, memory_words_ / 2);
  }
  std::vector<Task> low;
  const uint64_t cycles = long_cycles(8);
  const unsigned n = to_pile_up(p_.entries + p_.config_queue_depth + 2, cycles);
  for (unsigned i = 0; i < n; ++i) {
    low.push_back(
        task(i % 2 ? TaskOp::kConv : TaskOp::kPool, cycles, slot(0, 8), slot(1 + i % 11, 8)));
  }
  fit(low, words_of(high));  // every task switches: no lock keeps the replacement away
  s.loads = spread(std::move(low), std::max(1U, p_.queues - 1), 7);
  if (!high.empty()) s.loads.push_back(highest(std::move(high), Trigger::kFetchWaiting));
  return s;
}

TaskScenario TaskScenarios::lock() {
  // Lower queues whose tasks, but each queue's last, keep the arbiter (no task switch), and
  // exactly one task in the highest queue, loaded once a lower queue holds the lock: the
  // lock keeps the lower queue selected until its switching task.
  TaskScenario s{"lock", {}};
  std::vector<Task> high;
  if (p_.queues > 1) {
    high.push_back(
        task(chance(50) ? TaskOp::kConv : TaskOp::kPool, short_cycles(), slot(20, 8), slot(21, 8)));
    fit(high, memory_words_ / 2);
  }
  std::vector<Task> low;
  const unsigned n = static_cast<unsigned>(range(3 * std::max(1U, p_.queues - 1), 24));
  for (unsigned i = 0; i < n; ++i) {
    low.push_back(task(chance(50) ? TaskOp::kConv : TaskOp::kElementwise, range(8, 40),
                       slot(i % 12, 8), slot(12 + i % 8, 8)));
  }
  fit(low, words_of(high));
  s.loads = spread(std::move(low), std::max(1U, p_.queues - 1), 7);
  for (auto& load : s.loads) {
    for (size_t i = 0; i < load.tasks.size(); ++i) {
      load.tasks[i].task_switch = i + 1 == load.tasks.size();
    }
  }
  if (!high.empty()) s.loads.push_back(highest(std::move(high), Trigger::kLocked));
  return s;
}

TaskScenario TaskScenarios::next() {
  const size_t which = scenario_index_ < kinds().size() ? scenario_index_ : below(kinds().size());
  ++scenario_index_;
  const std::string& kind = kinds()[which];
  if (kind == "priority") return priority();
  if (kind == "lock") return lock();
  if (kind == "edges") return edges();
  if (kind == "fill") return fill();
  if (kind == "random") return random_graph();
  if (kind == "chain") return chain();
  if (kind == "diamond") return diamond();
  if (kind == "fanout") return fanout();
  return long_neural();
}

}  // namespace npugen::tb
