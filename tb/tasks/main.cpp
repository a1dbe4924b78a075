// Co-simulation of a generated task unit: the verilated RTL and the golden model
// see the same inputs every cycle (APB register writes that load task lists into queues and
// random register reads, descriptor memory taking the RTL's read requests when its random
// mem_ready_i allows (a share of stalls per seed) and answering them after random
// latencies, emulated engines that finish each granted task after its cycles) and every
// output is compared every cycle from the first cycle of reset: reads, grants (engine,
// entry, task, cycles, network id, base index, descriptor address), commits, idle, error
// and the APB port.
// Separately, the plain hazard checker (golden/tasks/analysis), sharing no code with the
// model, checks the whole schedule: no task read data before its producer finished or
// overwrote data still to be read, and each engine kind started its tasks in list order.
//
// The run ends with coverage goals: every scenario kind, every queue committing tasks, the
// task buffer and the configuration queue full, fetch-queue replacements and locks held
// against a higher-priority queue, read requests that waited for mem_ready_i, register
// reads; and what the design (or the seed) keeps the scenarios from showing (limits).
//
// --descriptors FILE runs one task list (npugen schedule --descriptors) instead of the
// random scenarios, to completion, and reports its makespan as npugen schedule counts it.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "common/apb_port.hpp"
#include "common/cosim.hpp"
#include "npugen/golden/tasks/analysis.hpp"
#include "npugen/golden/tasks/system.hpp"
#include "npugen/golden/tasks/unit_model.hpp"
#include "tasks/stimulus.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::QueueLoad;

const TaskParams& kP = npugen::design::kTasks;

/// Descriptor memory the testbench gives the unit: the whole address space, up to 2^20
/// words (scenarios are sized to what it holds).
constexpr uint64_t kMaxMemoryWords = uint64_t{1} << 20;

TaskUnitOutputs outputs_of(const Vdut& d) {
  TaskUnitOutputs o;
  o.mem_req = d.mem_req_o;
  o.mem_addr = d.mem_addr_o;
  o.grant[0] = TaskGrant{static_cast<bool>(d.neural_start_o),
                         d.neural_engine_o,
                         d.neural_entry_o,
                         d.neural_task_id_o,
                         d.neural_cycles_o,
                         d.neural_network_id_o,
                         d.neural_base_index_o,
                         d.neural_desc_o};
  o.grant[1] = TaskGrant{static_cast<bool>(d.planar_start_o),
                         d.planar_engine_o,
                         d.planar_entry_o,
                         d.planar_task_id_o,
                         d.planar_cycles_o,
                         d.planar_network_id_o,
                         d.planar_base_index_o,
                         d.planar_desc_o};
  o.commit = d.commit_o;
  o.commit_task = d.commit_task_o;
  o.idle = d.idle_o;
  o.err = d.err_o;
  return o;
}

std::string show(const TaskGrant& g) {
  return fmt::format(
      "{}engine {} entry {} task {} cycles {} network {} base index {} descriptor {:#x}",
      g.valid ? "" : "(no grant) ", g.engine, g.entry, g.task_id, g.cycles, g.network_id,
      g.base_index, g.desc);
}

std::vector<Task> read_descriptor_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot be read", file));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return decode_task_list(image_words(bytes.str()));
}

class TasksBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the task unit of design {} (RTL against the golden model every "
        "cycle; the schedule against the hazard checker)",
        npugen::design::kName);
    s.modes_help = "check (the only mode of the task unit's bench)";
    s.descriptors = true;
    return s;
  }

  explicit TasksBench(const BenchOptions& o)
      : o_(o),
        golden_(kP),
        scenarios_(kP, std::min(kP.memory_words, kMaxMemoryWords), o.seed),
        memory_(std::vector<uint32_t>(std::min(kP.memory_words, kMaxMemoryWords), 0)),
        engines_(kP),
        apb_(golden_.register_map().addr_bits()),
        rng_(o.seed ^ 0x5bd1e995ULL),
        single_(!o.descriptors.empty()),
        cycle_limit_(single_ ? 50'000'000 : o.cycles) {
    for (unsigned k = 0; k < kEngineKinds; ++k) {
      running_[k].assign(kP.engines(static_cast<EngineKind>(k)), 0);
    }
    commits_per_queue_.assign(kP.queues, 0);
  }

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    in_ = TaskUnitInputs{};
    const uint64_t r = junk();
    in_.apb =
        npugen::tb::arbitrary_request(r, static_cast<uint32_t>(r >> 8) % (kP.queues + 2) * 0x20 +
                                             static_cast<uint32_t>(r >> 20) % 0x20);
    in_.mem_ready = junk() & 1U;
    in_.mem_rvalid = junk() & 1U;
    in_.mem_rdata = static_cast<uint32_t>(junk());
    in_.done = {static_cast<uint32_t>(junk()) & ((1U << kP.neural_engines) - 1),
                static_cast<uint32_t>(junk()) & ((1U << kP.planar_engines) - 1)};
    drive(dut, in_);
  }
  void check_reset(const Vdut& dut, Checker& check) { compare(dut, golden_.outputs(in_), check); }

  bool drive(Vdut& dut, uint64_t cycle) {
    if (cycle >= cycle_limit_) return false;
    cycle_ = cycle;
    const TaskUnitOutputs state = golden_.outputs(TaskUnitInputs{});
    // A new scenario once the last one has drained. Loads waiting for a state of the unit
    // that an idle unit no longer reaches are dropped (and counted).
    const bool only_events = std::all_of(pending_.begin(), pending_.end(), [](const Pending& p) {
      return p.load.trigger != QueueLoad::Trigger::kDelay;
    });
    if (only_events && writes_pending_ == 0 && state.idle && cycle >= quiet_since_ + 3) {
      triggers_missed_ += pending_.size();
      pending_.clear();
      if (single_ && single_loaded_) return false;
      start_scenario(cycle);
    }
    if (!state.idle) quiet_since_ = cycle;
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (due(*it, cycle, state)) {
        place(it->load);
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
    // A register read of a queue register, STATUS, or any address, while no write waits.
    if (writes_pending_ == 0 && !apb_.busy() && rng_() % 2 == 0) {
      const uint64_t r = rng_();
      const uint32_t offset =
          r % 4 == 0 ? static_cast<uint32_t>(r >> 8)
                     : tasks_csr::queue_register(static_cast<unsigned>((r >> 8) % kP.queues),
                                                 static_cast<uint32_t>((r >> 16) % 5) * 4);
      apb_.push({false, (r >> 32) % 16 == 0 ? tasks_csr::kStatus : offset, 0});
    }
    in_ = TaskUnitInputs{};
    in_.apb = apb_.plan(rng_);
    if (in_.apb.write() &&
        (in_.apb.paddr - tasks_csr::kQueueOffset) % tasks_csr::kQueueStride == tasks_csr::kCount) {
      count_cycle_ = cycle;
    }
    // The scheduler's memory is always ready: a single list keeps its makespan.
    in_.mem_ready = single_ || scenarios_.mem_ready();
    in_.mem_rvalid = memory_.response(cycle, in_.mem_rdata);
    in_.done = engines_.done(cycle);
    drive(dut, in_);
    want_ = golden_.outputs(in_);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    compare(dut, want_, check);
    const TaskUnitOutputs got = outputs_of(dut);
    // The system around the RTL answers the RTL's outputs: the memory takes a request when
    // it is ready.
    if (got.mem_req && in_.mem_ready) {
      memory_.request(got.mem_addr, cycle_, single_ ? kP.memory_latency : scenarios_.latency());
    }
    if (got.mem_req && !in_.mem_ready) {
      ++request_stall_cycles_;
      if (!stalled_) ++requests_stalled_;
    }
    stalled_ = got.mem_req && !in_.mem_ready;
    if (got.commit) {
      const auto it = by_id_.find(got.commit_task);
      if (it == by_id_.end()) {
        check.fail(fmt::format("commit of unknown task id {}", got.commit_task));
      } else {
        to_start_[static_cast<unsigned>(it->second.kind())].push_back(committed_.size());
        committed_.push_back(it->second);
        timing_.emplace_back();
        finished_.push_back(false);
      }
    }
    for (unsigned k = 0; k < kEngineKinds; ++k) {
      for (unsigned e = 0; e < running_[k].size(); ++e) {
        if ((in_.done[k] >> e) & 1U) {
          timing_[running_[k][e]].end = cycle_;
          finished_[running_[k][e]] = true;
          ++completed_;
        }
      }
      const TaskGrant& g = got.grant[k];
      if (!g.valid) continue;
      if (to_start_[k].empty() || g.engine >= running_[k].size()) {
        check.fail(fmt::format("{} grant with no committed task to start",
                               kind_name(static_cast<EngineKind>(k))));
        continue;
      }
      const size_t index = to_start_[k].front();
      to_start_[k].pop_front();
      timing_[index].start = cycle_;
      timing_[index].engine = g.engine;
      running_[k][g.engine] = index;
      engines_.start(k, g.engine, g.cycles, cycle_);
    }

    // Coverage, from the model's state (the RTL matches it every cycle).
    const auto& s = golden_.state();
    if (want_.commit) ++commits_per_queue_[s.fq_queue];
    const unsigned occupied = golden_.occupied_entries();
    most_entries_ = std::max(most_entries_, occupied);
    buffer_full_cycles_ += occupied == kP.entries ? 1 : 0;
    config_full_cycles_ += s.cq_count == kP.config_queue_depth ? 1 : 0;
    if (s.fetch == TaskUnitModel::Fetch::kIdle && s.lock_valid && s.count[s.lock_queue] != 0) {
      for (unsigned q = 0; q < kP.queues; ++q) {
        if (s.count[q] != 0 && s.priority[q] > s.priority[s.lock_queue]) {
          ++locks_over_higher_;
          break;
        }
      }
    }
  }

  void tick() {
    const auto fetch_before = golden_.state().fetch;
    golden_.tick(in_);
    if (fetch_before == TaskUnitModel::Fetch::kFull && !want_.commit &&
        golden_.state().fetch == TaskUnitModel::Fetch::kIdle) {
      ++replacements_;
    }
    if (in_.apb.write()) --writes_pending_;
    apb_.advance(want_.apb);
  }

  void finish(Checker& check, npugen::tb::RunSummary& s) {
    // The whole schedule against the execution rules (finished tasks only).
    std::vector<Task> done_tasks;
    std::vector<TaskTiming> done_timing;
    for (size_t i = 0; i < committed_.size(); ++i) {
      if (!finished_[i]) continue;  // still waiting or running when the run stopped
      done_tasks.push_back(committed_[i]);
      done_timing.push_back(timing_[i]);
    }
    for (const auto& problem : check_schedule(done_tasks, done_timing, kP)) {
      check.fail("hazard checker: " + problem);
    }
    if (single_ && completed_ != tasks_loaded_) {
      check.fail(fmt::format("{} of {} tasks completed", completed_, tasks_loaded_));
    }
    s.count("tasks committed", committed_.size());
    s.compared("tasks completed", completed_);
    s.count("register writes", apb_.writes());
    s.count("register reads", apb_.reads());
    s.count("transfers answered PSLVERR", apb_.errors());
    if (single_) {
      // As npugen schedule counts it: cycles from reset when the list's COUNT takes effect
      // at the edge ending kListEnqueuedCycle; makespan = last completion + 1.
      uint64_t makespan = 0;
      for (const auto& t : timing_) {
        makespan = std::max(makespan, t.end + 1 + kListEnqueuedCycle - count_cycle_);
      }
      s.count("makespan", makespan);
      s.lines.push_back(fmt::format("makespan {} cycles", makespan));
      return;
    }
    for (const auto& kind : npugen::tb::TaskScenarios::kinds()) {
      s.goal(fmt::format("{} scenarios", kind), scenarios_count_[kind]);
    }
    for (unsigned q = 0; q < kP.queues; ++q) {
      s.goal(fmt::format("commits from queue {}", q), commits_per_queue_[q]);
    }
    s.goal("cycles with the task buffer full", buffer_full_cycles_);
    s.goal("cycles with the configuration queue full", config_full_cycles_);
    s.goal("read requests that waited for mem_ready_i", requests_stalled_,
           scenarios_.stall_percent() != 0);
    s.count("cycles a read request waited for mem_ready_i", request_stall_cycles_);
    s.count("percent of cycles the memory is not ready", scenarios_.stall_percent());
    s.goal("register reads", apb_.reads());
    s.goal("transfers answered PSLVERR", apb_.errors());
    const bool queues = kP.queues > 1;
    s.goal("fetch-queue replacements", replacements_, queues);
    s.goal("fetches from a locked queue while a higher-priority queue waited", locks_over_higher_,
           queues);
    s.count("most task-buffer entries used", most_entries_);
    s.count("triggered loads whose state never came", triggers_missed_);
    s.limits = scenarios_.limits();
    if (scenarios_.stall_percent() == 0) {
      s.limits.push_back(fmt::format(
          "no read request waits for mem_ready_i: seed {} keeps the memory always ready (seeds "
          "divisible by 4 do)",
          o_.seed));
    }
  }

  [[nodiscard]] std::vector<std::string> diagnose() const {
    return {fmt::format("tasks committed {}, completed {}", committed_.size(), completed_)};
  }
  [[nodiscard]] std::string repro_args() const {
    return single_ ? " --descriptors " + o_.descriptors : "";
  }

 private:
  struct Pending {
    uint64_t at;  ///< kDelay: the cycle
    QueueLoad load;
  };

  static void drive(Vdut& dut, const TaskUnitInputs& in) {
    npugen::tb::drive_apb(dut, in.apb);
    dut.mem_ready_i = in.mem_ready;
    dut.mem_rvalid_i = in.mem_rvalid;
    dut.mem_rdata_i = in.mem_rdata;
    dut.neural_done_i = in.done[0];
    dut.planar_done_i = in.done[1];
  }

  static void compare(const Vdut& dut, const TaskUnitOutputs& want, Checker& check) {
    const TaskUnitOutputs got = outputs_of(dut);
    check.compare("mem_req_o", want.mem_req, got.mem_req);
    if (want.mem_addr != got.mem_addr) check.compare("mem_addr_o", want.mem_addr, got.mem_addr);
    check.compare("neural grant", show(want.grant[0]), show(got.grant[0]));
    check.compare("planar grant", show(want.grant[1]), show(got.grant[1]));
    check.compare("commit_o", want.commit, got.commit);
    check.compare("commit_task_o", want.commit_task, got.commit_task);
    check.compare("idle_o", want.idle, got.idle);
    check.compare("err_o", want.err, got.err);
    npugen::tb::compare_apb(dut, want.apb, check);
  }

  void start_scenario(uint64_t cycle) {
    npugen::tb::TaskScenario s;
    if (single_) {
      s.kind = "list";
      QueueLoad load;
      load.tasks = read_descriptor_file(o_.descriptors);
      s.loads.push_back(std::move(load));
      single_loaded_ = true;
    } else {
      s = scenarios_.next();
    }
    ++scenarios_count_[s.kind];
    mem_at_ = 0;  // the last scenario has drained: its descriptors are read
    for (auto& load : s.loads) pending_.push_back({cycle + load.delay, std::move(load)});
  }

  void place(const QueueLoad& load) {
    const DescriptorImage image = encode_task_list(load.tasks, kP, next_id_);
    if (mem_at_ + image.words.size() > memory_.size()) {
      throw std::runtime_error(fmt::format(
          "the task list's descriptors take {} words from word {}; the descriptor memory has "
          "{} (tasks.memory_words = {})",
          image.words.size(), mem_at_, memory_.size(), kP.memory_words));
    }
    memory_.write(mem_at_, image.words);
    for (size_t i = 0; i < load.tasks.size(); ++i) {
      by_id_[(next_id_ + i) & 0xFFFF] = load.tasks[i];
    }
    auto write = [&](uint32_t reg, uint32_t value) {
      apb_.push({true, tasks_csr::queue_register(load.queue, reg), value});
      ++writes_pending_;
    };
    write(tasks_csr::kHead, static_cast<uint32_t>(mem_at_));
    write(tasks_csr::kNetworkId, load.network_id);
    write(tasks_csr::kBaseIndex, load.base_index);
    write(tasks_csr::kPriority, load.priority);
    write(tasks_csr::kCount, static_cast<uint32_t>(load.tasks.size()));
    mem_at_ += image.words.size();
    next_id_ += static_cast<uint32_t>(load.tasks.size());
    tasks_loaded_ += load.tasks.size();
  }

  // Whether a load's trigger holds in this cycle.
  bool due(const Pending& p, uint64_t cycle, const TaskUnitOutputs& state) const {
    const auto& s = golden_.state();
    switch (p.load.trigger) {
      case QueueLoad::Trigger::kDelay:
        return cycle >= p.at;
      case QueueLoad::Trigger::kFetchWaiting:
        return s.fetch == TaskUnitModel::Fetch::kFull && !state.commit;
      case QueueLoad::Trigger::kLocked:
        return s.lock_valid && s.count[s.lock_queue] != 0;
    }
    return false;
  }

  const BenchOptions& o_;
  TaskUnitModel golden_;
  npugen::tb::TaskScenarios scenarios_;
  TaskMemory memory_;
  EngineFarm engines_;
  npugen::tb::ApbMaster apb_;
  std::mt19937_64 rng_;  // register reads
  bool single_;
  bool single_loaded_ = false;
  uint64_t cycle_limit_;
  uint64_t cycle_ = 0;
  TaskUnitInputs in_;
  TaskUnitOutputs want_;

  // Tasks by id (ids are unique within a run), the schedule in commit order, and per kind
  // the committed tasks still to start.
  std::map<uint32_t, Task> by_id_;
  std::vector<Task> committed_;
  std::vector<TaskTiming> timing_;
  std::vector<bool> finished_;
  std::array<std::deque<size_t>, kEngineKinds> to_start_;
  std::array<std::vector<size_t>, kEngineKinds> running_;  // engine -> committed index
  uint32_t next_id_ = 0;
  uint64_t mem_at_ = 0;
  uint64_t completed_ = 0, tasks_loaded_ = 0;
  std::deque<Pending> pending_;
  unsigned writes_pending_ = 0;  // register writes queued or under way
  uint64_t quiet_since_ = 0;
  uint64_t count_cycle_ = 0;  // the access phase of the last COUNT write

  // Coverage.
  std::map<std::string, uint64_t> scenarios_count_;
  std::vector<uint64_t> commits_per_queue_;
  uint64_t buffer_full_cycles_ = 0, config_full_cycles_ = 0;
  unsigned most_entries_ = 0;
  uint64_t replacements_ = 0;
  uint64_t locks_over_higher_ = 0;     // fetches from a locked queue while a higher one waited
  uint64_t triggers_missed_ = 0;       // loads whose triggering state never came
  uint64_t requests_stalled_ = 0;      // read requests the memory did not take at once
  uint64_t request_stall_cycles_ = 0;  // cycles a read request waited for mem_ready_i
  bool stalled_ = false;               // the last cycle's request was not taken
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<TasksBench>(argc, argv); }
