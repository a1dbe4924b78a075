#include "npugen/golden/tasks/system.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace npugen::golden {

void TaskMemory::write(uint64_t at, const std::vector<uint32_t>& data) {
  if (at + data.size() > words_.size()) throw std::out_of_range("write past the task memory");
  std::copy(data.begin(), data.end(), words_.begin() + static_cast<std::ptrdiff_t>(at));
}

void TaskMemory::request(uint64_t address, uint64_t cycle, unsigned latency) {
  uint64_t ready = cycle + latency;
  if (!queue_.empty() && ready <= queue_.back().ready) ready = queue_.back().ready + 1;
  queue_.push_back(Read{ready, address < words_.size() ? words_[address] : 0U});
}

bool TaskMemory::offer(bool req, bool ready, uint64_t address, uint64_t cycle, unsigned latency) {
  if (!req || !ready) return false;
  request(address, cycle, latency);
  return true;
}

bool TaskMemory::response(uint64_t cycle, uint32_t& data) {
  if (queue_.empty() || queue_.front().ready != cycle) return false;
  data = queue_.front().data;
  queue_.pop_front();
  return true;
}

EngineFarm::EngineFarm(const TaskParams& params) {
  for (unsigned k = 0; k < kEngineKinds; ++k) {
    done_at_[k].assign(params.engines(static_cast<EngineKind>(k)), 0);
  }
}

void EngineFarm::start(unsigned kind, unsigned engine, uint64_t cycles, uint64_t cycle) {
  done_at_[kind].at(engine) = cycle + std::max<uint64_t>(cycles, 1);
}

std::array<uint32_t, kEngineKinds> EngineFarm::done(uint64_t cycle) const {
  std::array<uint32_t, kEngineKinds> bits{};
  for (unsigned k = 0; k < kEngineKinds; ++k) {
    for (size_t e = 0; e < done_at_[k].size(); ++e) {
      if (done_at_[k][e] == cycle && cycle != 0) bits[k] |= 1U << e;
    }
  }
  return bits;
}

uint64_t EngineFarm::next_done(uint64_t cycle) const {
  uint64_t next = std::numeric_limits<uint64_t>::max();
  for (const auto& kind : done_at_) {
    for (uint64_t t : kind) {
      if (t > cycle) next = std::min(next, t);
    }
  }
  return next;
}

ScheduleRun run_task_list(const TaskParams& params, const std::vector<Task>& tasks,
                          const MemoryReady& ready) {
  ScheduleRun run;
  run.timing.resize(tasks.size());
  if (tasks.empty()) return run;
  const DescriptorImage image = encode_task_list(tasks, params);
  TaskMemory memory(image.words);
  EngineFarm engines(params);
  TaskUnitModel model(params);
  // Per kind: list indices in order; grants of a kind arrive in this order.
  std::array<std::vector<size_t>, kEngineKinds> order;
  for (size_t i = 0; i < tasks.size(); ++i) {
    order[static_cast<unsigned>(tasks[i].kind())].push_back(i);
  }
  std::array<size_t, kEngineKinds> granted{};
  size_t finished = 0;
  uint64_t cycle = 0;
  uint64_t last_progress = 0;
  while (finished < tasks.size()) {
    TaskUnitInputs in;
    // Queue 0's HEAD, then its COUNT, written over APB: each a setup and an access phase,
    // so the list is enqueued at the edge that ends cycle kListEnqueuedCycle.
    if (cycle < 2 * kProgrammingWrites) {
      const bool count = cycle >= 2;
      in.apb =
          ApbRequest{true, (cycle & 1U) != 0, true,
                     tasks_csr::queue_register(0, count ? tasks_csr::kCount : tasks_csr::kHead),
                     count ? static_cast<uint32_t>(tasks.size()) : 0U};
    }
    in.mem_ready = !ready || ready(cycle);
    const TaskUnitOutputs o = model.outputs(in);
    memory.offer(o.mem_req, in.mem_ready, o.mem_addr, cycle, params.memory_latency);
    in.mem_rvalid = memory.response(cycle, in.mem_rdata);
    in.done = engines.done(cycle);
    for (unsigned k = 0; k < kEngineKinds; ++k) {
      for (unsigned e = 0; in.done[k] >> e; ++e) {
        if ((in.done[k] >> e) & 1U) {
          ++finished;
          last_progress = run.model_steps;
          run.makespan = std::max(run.makespan, cycle + 1);
        }
      }
      const TaskGrant& g = o.grant[k];
      if (!g.valid) continue;
      if (granted[k] >= order[k].size()) throw std::runtime_error("grant beyond the list");
      const size_t index = order[k][granted[k]++];
      if (g.task_id != (index & 0xFFFF)) {
        throw std::runtime_error(fmt::format("{} engine granted task id {} where task {} was due",
                                             kind_name(static_cast<EngineKind>(k)), g.task_id,
                                             index));
      }
      run.timing[index] = TaskTiming{cycle, cycle + std::max<uint64_t>(g.cycles, 1), g.engine};
      engines.start(k, g.engine, g.cycles, cycle);
      last_progress = run.model_steps;
    }
    model.tick(in);
    ++run.model_steps;
    ++cycle;
    if (cycle > kListEnqueuedCycle && !memory.pending() && model.quiescent()) {
      const uint64_t next = engines.next_done(cycle - 1);
      if (next == std::numeric_limits<uint64_t>::max()) {
        if (finished < tasks.size()) throw std::runtime_error("the task unit stopped");
      } else {
        cycle = std::max(cycle, next);
      }
    }
    if (run.model_steps - last_progress > 100000 + 64ULL * params.memory_latency) {
      throw std::runtime_error("the task unit made no progress in 100000 steps");
    }
  }
  return run;
}

}  // namespace npugen::golden
