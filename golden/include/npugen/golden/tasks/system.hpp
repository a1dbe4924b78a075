// What sits around the task unit when it runs a task list: descriptor memory that answers
// reads in order after a latency, and emulated engines that finish a task the stated
// number of cycles after its grant. run_task_list() composes them with TaskUnitModel; the
// scheduler (npugen schedule) and the benchmarks use it, and the testbench uses the same
// memory and engines around the verilated RTL.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "npugen/golden/tasks/list.hpp"
#include "npugen/golden/tasks/unit_model.hpp"

namespace npugen::golden {

/// Descriptor memory: a read request taken in cycle t returns its word in cycle
/// max(t + latency, previous return + 1), so reads return in order. A request is taken
/// when the memory is ready in its cycle (mem_req && mem_ready); one not taken is offered
/// again and counts for nothing. Reads outside the memory return 0.
class TaskMemory {
 public:
  explicit TaskMemory(std::vector<uint32_t> words) : words_(std::move(words)) {}
  [[nodiscard]] uint64_t size() const { return words_.size(); }
  /// Writes a list (or anything) at a word address; it must fit.
  void write(uint64_t at, const std::vector<uint32_t>& data);
  /// A read taken in `cycle`.
  void request(uint64_t address, uint64_t cycle, unsigned latency);
  /// A read request offered in `cycle` (`req`) with the memory's `ready`: taken, and then
  /// read, only when both hold. Returns whether it was taken.
  bool offer(bool req, bool ready, uint64_t address, uint64_t cycle, unsigned latency);
  /// The read returned in this cycle, if any.
  bool response(uint64_t cycle, uint32_t& data);
  [[nodiscard]] bool pending() const { return !queue_.empty(); }

 private:
  struct Read {
    uint64_t ready;
    uint32_t data;
  };
  std::vector<uint32_t> words_;
  std::deque<Read> queue_;
};

/// Engines of both kinds; each runs one granted task for its cycles (at least one) and
/// signals done in cycle grant + cycles.
class EngineFarm {
 public:
  explicit EngineFarm(const TaskParams& params);
  void start(unsigned kind, unsigned engine, uint64_t cycles, uint64_t cycle);
  /// Done bits of this cycle (per kind, one bit per engine).
  [[nodiscard]] std::array<uint32_t, kEngineKinds> done(uint64_t cycle) const;
  /// Earliest completion after `cycle` among busy engines; UINT64_MAX when none.
  [[nodiscard]] uint64_t next_done(uint64_t cycle) const;

 private:
  std::array<std::vector<uint64_t>, kEngineKinds> done_at_;  ///< 0: idle
};

struct TaskTiming {
  uint64_t start = 0;  ///< cycle of the grant
  uint64_t end = 0;    ///< cycle the engine signals done (start + cycles)
  unsigned engine = 0;
};

struct ScheduleRun {
  std::vector<TaskTiming> timing;  ///< per task, in list order
  uint64_t makespan = 0;           ///< last completion cycle + 1 (cycles from reset)
  uint64_t model_steps = 0;        ///< clock edges the model evaluated (idle stretches skipped)
};

/// Register writes that load a list into queue 0 (HEAD, then COUNT), each an APB setup and
/// access phase: the list is enqueued at the edge that ends kListEnqueuedCycle.
inline constexpr uint64_t kProgrammingWrites = 2;
inline constexpr uint64_t kListEnqueuedCycle = 2 * kProgrammingWrites - 1;

/// Whether the descriptor memory takes a read request in a cycle (the unit's mem_ready).
using MemoryReady = std::function<bool(uint64_t cycle)>;

/// Runs a list from queue 0 (HEAD and COUNT written over APB in cycles 0 to 3). `ready`
/// gives the memory's mem_ready per cycle; none (npugen schedule): always ready. Throws
/// std::runtime_error if the unit stops making progress or a grant is out of list order.
ScheduleRun run_task_list(const TaskParams& params, const std::vector<Task>& tasks,
                          const MemoryReady& ready = {});

}  // namespace npugen::golden
