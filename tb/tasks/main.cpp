// Co-simulation of a generated task unit (SPEC M2): the verilated RTL (class Vdut) and the
// golden model see the same inputs every cycle (register writes that load task lists into
// queues and random register reads, descriptor memory answering the RTL's reads after
// random latencies, emulated engines that finish each granted task after its cycles) and
// every output is compared every cycle from the first cycle of reset: reads, grants
// (engine, entry, task, cycles, network id, base index), commits, idle, error and the
// register read-back. Separately, the plain hazard checker (golden/task_analysis), sharing
// no code with the model, checks the whole schedule: no task read data before its producer
// finished or overwrote data still to be read, and each engine kind started its tasks in
// list order.
//
// The run ends with coverage: the scenarios run, the queues used, whether the task buffer
// and the configuration queue filled, fetch-queue replacements and locks held against a
// higher-priority queue, and what the design keeps the scenarios from showing (limits).
//
// --descriptors FILE runs one task list (npugen schedule --descriptors) instead of the
// random scenarios, to completion.
#include <fmt/format.h>
#include <verilated.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "Vdut.h"
#include "common/bench_options.hpp"
#include "common/bench_report.hpp"
#include "common/dut_harness.hpp"
#include "design_params.hpp"
#include "npugen/golden/tasks/analysis.hpp"
#include "npugen/golden/tasks/system.hpp"
#include "npugen/golden/tasks/unit_model.hpp"
#include "tasks/stimulus.hpp"

namespace {

using namespace npugen::golden;
using npugen::tb::QueueLoad;

const TaskParams& kP = npugen::design::kTasks;
using npugen::tb::kCyclesAfterMismatch;
using npugen::tb::Mismatch;
using Options = npugen::tb::BenchOptions;

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
                         d.neural_base_index_o};
  o.grant[1] = TaskGrant{static_cast<bool>(d.planar_start_o),
                         d.planar_engine_o,
                         d.planar_entry_o,
                         d.planar_task_id_o,
                         d.planar_cycles_o,
                         d.planar_network_id_o,
                         d.planar_base_index_o};
  o.commit = d.commit_o;
  o.commit_task = d.commit_task_o;
  o.idle = d.idle_o;
  o.err = d.err_o;
  return o;
}

std::string show(const TaskGrant& g) {
  return fmt::format("{}engine {} entry {} task {} cycles {} network {} base index {}",
                     g.valid ? "" : "(no grant) ", g.engine, g.entry, g.task_id, g.cycles,
                     g.network_id, g.base_index);
}

/// Every output: those of the registered state, and the register read at `csr_addr`.
void compare(uint64_t cycle, const std::string& when, const TaskUnitOutputs& want,
             uint32_t want_rdata, const Vdut& dut, uint32_t csr_addr, std::vector<Mismatch>& out) {
  const TaskUnitOutputs got = outputs_of(dut);
  auto differ = [&](const std::string& name, const std::string& w, const std::string& g) {
    if (w != g) out.push_back({cycle, fmt::format("{}{}: expected {}, got {}", when, name, w, g)});
  };
  differ("mem_req_o", fmt::format("{}", want.mem_req), fmt::format("{}", got.mem_req));
  differ("mem_addr_o", fmt::format("{}", want.mem_addr), fmt::format("{}", got.mem_addr));
  differ("neural grant", show(want.grant[0]), show(got.grant[0]));
  differ("planar grant", show(want.grant[1]), show(got.grant[1]));
  differ("commit_o", fmt::format("{} {}", want.commit, want.commit_task),
         fmt::format("{} {}", got.commit, got.commit_task));
  differ("idle_o", fmt::format("{}", want.idle), fmt::format("{}", got.idle));
  differ("err_o", fmt::format("{}", want.err), fmt::format("{}", got.err));
  differ(fmt::format("csr_rdata_o (address {})", csr_addr), fmt::format("{:#x}", want_rdata),
         fmt::format("{:#x}", dut.csr_rdata_o));
}

std::vector<Task> read_descriptor_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot be read", file));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return decode_task_list(image_words(bytes.str()));
}

void drive(Vdut& dut, const TaskUnitInputs& in) {
  dut.csr_we_i = in.csr_we;
  dut.csr_addr_i = in.csr_addr;
  dut.csr_wdata_i = in.csr_wdata;
  dut.mem_rvalid_i = in.mem_rvalid;
  dut.mem_rdata_i = in.mem_rdata;
  dut.neural_done_i = in.done[0];
  dut.planar_done_i = in.done[1];
}

/// What the scenarios reached, for the closing report.
struct Coverage {
  std::map<std::string, uint64_t> scenarios;
  std::vector<uint64_t> commits_per_queue = std::vector<uint64_t>(kP.queues, 0);
  uint64_t buffer_full_cycles = 0, config_full_cycles = 0;
  unsigned most_entries = 0;
  uint64_t replacements = 0;
  uint64_t locks_over_higher = 0;  ///< fetches from a locked queue while a higher one waited
  uint64_t reads = 0;              ///< register reads compared (with no write in the cycle)
  uint64_t triggers_missed = 0;    ///< loads whose triggering state never came
};

int run(const Options& o) {
  auto context = std::make_unique<VerilatedContext>();
  auto dut = std::make_unique<Vdut>(context.get(), "dut");
  npugen::tb::Waveform waveform(*context, dut.get(), o.trace, o.trace_from);
  TaskUnitModel golden(kP);
  const uint64_t memory_words = std::min(kP.memory_words, kMaxMemoryWords);
  npugen::tb::TaskScenarios scenarios(kP, memory_words, o.seed);
  TaskMemory memory(std::vector<uint32_t>(memory_words, 0));
  EngineFarm engines(kP);
  std::vector<Mismatch> mismatches;
  std::optional<uint64_t> stop_at;
  std::mt19937_64 reads(o.seed ^ 0x5bd1e995ULL);                        // register read addresses
  const uint32_t read_span = (kP.queues + 1) * task_csr::kQueueStride;  // one queue past

  // Tasks by id (ids are unique within a run), the schedule in commit order, and per kind
  // the committed tasks still to start.
  std::map<uint32_t, Task> by_id;
  std::vector<Task> committed;
  std::vector<TaskTiming> timing;
  std::vector<bool> finished;
  std::array<std::deque<size_t>, kEngineKinds> to_start;
  std::array<std::vector<size_t>, kEngineKinds> running;  // engine -> committed index
  for (unsigned k = 0; k < kEngineKinds; ++k) {
    running[k].assign(kP.engines(static_cast<EngineKind>(k)), 0);
  }
  uint32_t next_id = 0;
  uint64_t mem_at = 0;
  uint64_t completed = 0, tasks_loaded = 0;
  Coverage cov;

  // Scenario driver: loads waiting for their cycle or state, and register writes, one per
  // cycle.
  struct Pending {
    uint64_t at;  ///< kDelay: the cycle
    QueueLoad load;
  };
  std::deque<Pending> pending;
  std::deque<std::pair<uint32_t, uint32_t>> writes;
  const bool single = !o.descriptors.empty();
  bool single_loaded = false;
  const uint64_t cycle_limit = single ? 50'000'000 : o.cycles;

  auto start_scenario = [&](uint64_t cycle) {
    npugen::tb::TaskScenario s;
    if (single) {
      s.kind = "list";
      QueueLoad load;
      load.tasks = read_descriptor_file(o.descriptors);
      s.loads.push_back(std::move(load));
      single_loaded = true;
    } else {
      s = scenarios.next();
    }
    ++cov.scenarios[s.kind];
    mem_at = 0;  // the last scenario has drained: its descriptors are read
    for (auto& load : s.loads) pending.push_back({cycle + load.delay, std::move(load)});
  };
  auto place = [&](const QueueLoad& load) {
    const DescriptorImage image = encode_task_list(load.tasks, kP, next_id);
    if (mem_at + image.words.size() > memory.size()) {
      throw std::runtime_error(fmt::format(
          "the task list's descriptors take {} words from word {}; the descriptor memory has "
          "{} (tasks.memory_words = {})",
          image.words.size(), mem_at, memory.size(), kP.memory_words));
    }
    memory.write(mem_at, image.words);
    for (size_t i = 0; i < load.tasks.size(); ++i) by_id[(next_id + i) & 0xFFFF] = load.tasks[i];
    const uint32_t base = task_csr::kQueueStride * load.queue;
    writes.emplace_back(base + task_csr::kHead, static_cast<uint32_t>(mem_at));
    writes.emplace_back(base + task_csr::kNetworkId, load.network_id);
    writes.emplace_back(base + task_csr::kBaseIndex, load.base_index);
    writes.emplace_back(base + task_csr::kPriority, load.priority);
    writes.emplace_back(base + task_csr::kCount, static_cast<uint32_t>(load.tasks.size()));
    mem_at += image.words.size();
    next_id += static_cast<uint32_t>(load.tasks.size());
    tasks_loaded += load.tasks.size();
  };
  // Whether a load's trigger holds in this cycle.
  auto due = [&](const Pending& p, uint64_t cycle, const TaskUnitOutputs& want) {
    const auto& s = golden.state();
    switch (p.load.trigger) {
      case QueueLoad::Trigger::kDelay:
        return cycle >= p.at;
      case QueueLoad::Trigger::kFetchWaiting:
        return s.fetch == TaskUnitModel::Fetch::kFull && !want.commit;
      case QueueLoad::Trigger::kLocked:
        return s.lock_valid && s.count[s.lock_queue] != 0;
    }
    return false;
  };

  // In reset, with arbitrary register writes, read data and completions on the ports.
  {
    std::mt19937_64 junk(~o.seed);
    TaskUnitInputs in;
    npugen::tb::reset_dut(
        *dut,
        [&] {
          in.csr_we = junk() & 1U;
          in.csr_addr = static_cast<uint32_t>(junk() % read_span);
          in.csr_wdata = static_cast<uint32_t>(junk());
          in.mem_rvalid = junk() & 1U;
          in.mem_rdata = static_cast<uint32_t>(junk());
          in.done = {static_cast<uint32_t>(junk()) & ((1U << kP.neural_engines) - 1),
                     static_cast<uint32_t>(junk()) & ((1U << kP.planar_engines) - 1)};
          drive(*dut, in);
        },
        [&](unsigned edge) {
          compare(0, fmt::format("in reset after {} edge(s): ", edge), golden.outputs(),
                  golden.csr_read(in.csr_addr), *dut, in.csr_addr, mismatches);
        });
  }

  const auto start = std::chrono::steady_clock::now();
  uint64_t cycle = 0;
  uint64_t quiet_since = 0;
  uint64_t count_cycle = 0;  // the last COUNT write
  for (; cycle < cycle_limit; ++cycle) {
    if (stop_at && cycle > *stop_at) break;
    const TaskUnitOutputs want = golden.outputs();
    // A new scenario once the last one has drained. Loads waiting for a state of the unit
    // that an idle unit no longer reaches are dropped (and counted).
    const bool only_events = std::all_of(pending.begin(), pending.end(), [](const Pending& p) {
      return p.load.trigger != QueueLoad::Trigger::kDelay;
    });
    if (only_events && writes.empty() && want.idle && cycle >= quiet_since + 3) {
      cov.triggers_missed += pending.size();
      pending.clear();
      if (single && single_loaded) break;
      start_scenario(cycle);
    }
    if (!want.idle) quiet_since = cycle;
    for (auto it = pending.begin(); it != pending.end();) {
      if (due(*it, cycle, want)) {
        place(it->load);
        it = pending.erase(it);
      } else {
        ++it;
      }
    }
    TaskUnitInputs in;
    if (!writes.empty()) {
      if (writes.front().first % task_csr::kQueueStride == task_csr::kCount) count_cycle = cycle;
      in.csr_we = true;
      in.csr_addr = writes.front().first;
      in.csr_wdata = writes.front().second;
      writes.pop_front();
    } else {
      in.csr_addr = static_cast<uint32_t>(reads() % read_span);
      ++cov.reads;
    }
    in.mem_rvalid = memory.response(cycle, in.mem_rdata);
    in.done = engines.done(cycle);

    drive(*dut, in);
    dut->eval();
    compare(cycle, "", want, golden.csr_read(in.csr_addr), *dut, in.csr_addr, mismatches);
    const TaskUnitOutputs got = outputs_of(*dut);

    // The system around the RTL answers the RTL's outputs.
    if (got.mem_req)
      memory.request(got.mem_addr, cycle, single ? kP.memory_latency : scenarios.latency());
    if (got.commit) {
      const auto it = by_id.find(got.commit_task);
      if (it == by_id.end()) {
        mismatches.push_back({cycle, fmt::format("commit of unknown task id {}", got.commit_task)});
      } else {
        to_start[static_cast<unsigned>(it->second.kind())].push_back(committed.size());
        committed.push_back(it->second);
        timing.emplace_back();
        finished.push_back(false);
      }
    }
    for (unsigned k = 0; k < kEngineKinds; ++k) {
      for (unsigned e = 0; e < running[k].size(); ++e) {
        if ((in.done[k] >> e) & 1U) {
          timing[running[k][e]].end = cycle;
          finished[running[k][e]] = true;
          ++completed;
        }
      }
      const TaskGrant& g = got.grant[k];
      if (!g.valid) continue;
      if (to_start[k].empty() || g.engine >= running[k].size()) {
        mismatches.push_back({cycle, fmt::format("{} grant with no committed task to start",
                                                 kind_name(static_cast<EngineKind>(k)))});
        continue;
      }
      const size_t index = to_start[k].front();
      to_start[k].pop_front();
      timing[index].start = cycle;
      timing[index].engine = g.engine;
      running[k][g.engine] = index;
      engines.start(k, g.engine, g.cycles, cycle);
    }

    // Coverage, from the model's state (the RTL matches it every cycle).
    const auto& s = golden.state();
    if (want.commit) ++cov.commits_per_queue[s.fq_queue];
    const unsigned occupied = golden.occupied_entries();
    cov.most_entries = std::max(cov.most_entries, occupied);
    cov.buffer_full_cycles += occupied == kP.entries ? 1 : 0;
    cov.config_full_cycles += s.cq_count == kP.config_queue_depth ? 1 : 0;
    const auto fetch_before = s.fetch;
    if (s.fetch == TaskUnitModel::Fetch::kIdle && s.lock_valid && s.count[s.lock_queue] != 0) {
      for (unsigned q = 0; q < kP.queues; ++q) {
        if (s.count[q] != 0 && s.priority[q] > s.priority[s.lock_queue]) {
          ++cov.locks_over_higher;
          break;
        }
      }
    }

    if (!mismatches.empty() && !stop_at) stop_at = cycle + kCyclesAfterMismatch;
    golden.step(in);
    if (fetch_before == TaskUnitModel::Fetch::kFull && !want.commit &&
        golden.state().fetch == TaskUnitModel::Fetch::kIdle) {
      ++cov.replacements;
    }
    context->timeInc(1);
    dut->clk_i = 1;
    dut->eval();
    waveform.dump(cycle);
    context->timeInc(1);
    dut->clk_i = 0;
    dut->eval();
    waveform.dump(cycle);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  dut->final();
  waveform.close();

  // The whole schedule against the execution rules (finished tasks only).
  if (mismatches.empty()) {
    std::vector<Task> done_tasks;
    std::vector<TaskTiming> done_timing;
    for (size_t i = 0; i < committed.size(); ++i) {
      if (!finished[i]) continue;  // still waiting or running when the run stopped
      done_tasks.push_back(committed[i]);
      done_timing.push_back(timing[i]);
    }
    for (const auto& problem : check_schedule(done_tasks, done_timing, kP)) {
      mismatches.push_back({cycle, "hazard checker: " + problem});
    }
    if (single && completed != tasks_loaded) {
      mismatches.push_back({cycle, fmt::format("{} of {} tasks completed in {} cycles", completed,
                                               tasks_loaded, cycle)});
    }
  }
  if (!mismatches.empty()) {
    npugen::tb::print_mismatches(mismatches, "tasks", o.seed, o.repro, 0,
                                 single ? " --descriptors " + o.descriptors : "", {});
    return 1;
  }
  std::string kinds;
  for (const auto& [k, n] : cov.scenarios) {
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, k);
  }
  // As npugen schedule counts it: the list's COUNT written in cycle 1, makespan = last
  // completion + 1.
  uint64_t makespan = 0;
  for (const auto& t : timing) makespan = std::max(makespan, t.end + 2 - count_cycle);
  std::printf(
      "PASS: design %s (hash %.16s), block tasks, seed %llu: %llu cycles, scenarios: %s; %llu "
      "tasks committed, %llu completed, hazard check passed; %llu register reads compared%s, "
      "%.0f cycles/s\n",
      npugen::design::kName, npugen::design::kConfigHash, static_cast<unsigned long long>(o.seed),
      static_cast<unsigned long long>(cycle), kinds.c_str(),
      static_cast<unsigned long long>(committed.size()), static_cast<unsigned long long>(completed),
      static_cast<unsigned long long>(cov.reads),
      single ? fmt::format(", makespan {} cycles", makespan).c_str() : "",
      static_cast<double>(cycle) / seconds);
  if (single) return 0;
  std::string queues;
  unsigned unused_queues = 0;
  for (const uint64_t n : cov.commits_per_queue) {
    queues += fmt::format("{}{}", queues.empty() ? "" : " ", n);
    unused_queues += n == 0 ? 1 : 0;
  }
  std::printf("coverage: commits per queue: %s (%u queue(s) unused)\n", queues.c_str(),
              unused_queues);
  std::printf(
      "coverage: task buffer full in %llu cycles (most entries %u of %u), configuration queue "
      "full in %llu cycles\n",
      static_cast<unsigned long long>(cov.buffer_full_cycles), cov.most_entries, kP.entries,
      static_cast<unsigned long long>(cov.config_full_cycles));
  std::printf(
      "coverage: %llu fetch-queue replacement(s), %llu fetch(es) from a locked queue while a "
      "higher-priority queue waited, %llu triggered load(s) whose state never came\n",
      static_cast<unsigned long long>(cov.replacements),
      static_cast<unsigned long long>(cov.locks_over_higher),
      static_cast<unsigned long long>(cov.triggers_missed));
  for (const auto& limit : scenarios.limits()) std::printf("limit: %s\n", limit.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.repro = "npugen sim <config> --block tasks";
  npugen::tb::BenchSpec spec;
  spec.title = fmt::format(
      "Co-simulation of the task unit of design {} (RTL against the golden model every cycle; "
      "the schedule against the hazard checker)",
      npugen::design::kName);
  spec.modes_help = "check (the only mode of the task unit's bench)";
  spec.descriptors = true;
  return npugen::tb::bench_main(argc, argv, spec, o, run);
}
