// Co-simulation of a generated task unit (SPEC M2): the verilated RTL (class Vdut) and the
// golden model see the same inputs every cycle (register writes that load task lists into
// queues, descriptor memory answering the RTL's reads after random latencies, emulated
// engines that finish each granted task after its cycles) and every output is compared
// every cycle: reads, grants (engine, entry, task, cycles), commits, idle and error.
// Separately, the plain hazard checker (golden/task_analysis), sharing no code with the
// model, checks the whole schedule: no task read data before its producer finished or
// overwrote data still to be read, and each engine kind started its tasks in list order.
//
// --descriptors FILE runs one task list (npugen schedule --descriptors) instead of the
// random scenarios, to completion.
#include <fmt/format.h>
#include <verilated.h>

#include <CLI/CLI.hpp>
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
#include "bench_report.hpp"
#include "design_params.hpp"
#include "dut_harness.hpp"
#include "npugen/golden/task_analysis.hpp"
#include "npugen/golden/task_system.hpp"
#include "npugen/golden/task_unit_model.hpp"
#include "task_stimulus.hpp"

namespace {

using namespace npugen::golden;

const TaskParams& kP = npugen::design::kTasks;
using npugen::tb::kCyclesAfterMismatch;
using npugen::tb::Mismatch;

struct Options {
  uint64_t seed = npugen::design::kDefaultSeed;
  uint64_t cycles = npugen::design::kDefaultCycles;
  std::string descriptors;
  std::string trace;
  uint64_t trace_from = 0;
  std::string repro = "npugen sim <config> --block tasks";
};

TaskUnitOutputs outputs_of(const Vdut& d) {
  TaskUnitOutputs o;
  o.mem_req = d.mem_req_o;
  o.mem_addr = d.mem_req_o ? d.mem_addr_o : 0;
  o.grant[0] = TaskGrant{static_cast<bool>(d.ne_start_o), d.ne_engine_o, d.ne_entry_o,
                         d.ne_task_id_o, d.ne_cycles_o};
  o.grant[1] = TaskGrant{static_cast<bool>(d.pe_start_o), d.pe_engine_o, d.pe_entry_o,
                         d.pe_task_id_o, d.pe_cycles_o};
  o.commit = d.commit_o;
  o.commit_task = d.commit_task_o;
  o.idle = d.idle_o;
  o.err = d.err_o;
  return o;
}

std::string show(const TaskGrant& g) {
  return g.valid ? fmt::format("engine {} entry {} task {} cycles {}", g.engine, g.entry, g.task_id,
                               g.cycles)
                 : std::string("none");
}

void compare(uint64_t cycle, const TaskUnitOutputs& want, const TaskUnitOutputs& got,
             std::vector<Mismatch>& out) {
  auto differ = [&](const char* name, const std::string& w, const std::string& g) {
    if (w != g) out.push_back({cycle, fmt::format("{}: expected {}, got {}", name, w, g)});
  };
  differ("mem_req_o", fmt::format("{}", want.mem_req), fmt::format("{}", got.mem_req));
  if (want.mem_req) {
    differ("mem_addr_o", fmt::format("{}", want.mem_addr), fmt::format("{}", got.mem_addr));
  }
  differ("neural grant", show(want.grant[0]), show(got.grant[0]));
  differ("planar grant", show(want.grant[1]), show(got.grant[1]));
  differ("commit_o", fmt::format("{} {}", want.commit, want.commit_task),
         fmt::format("{} {}", got.commit, got.commit_task));
  differ("idle_o", fmt::format("{}", want.idle), fmt::format("{}", got.idle));
  differ("err_o", fmt::format("{}", want.err), fmt::format("{}", got.err));
}

std::vector<Task> read_descriptor_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot be read", file));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return decode_task_list(image_words(bytes.str()));
}

int run(const Options& o) {
  auto context = std::make_unique<VerilatedContext>();
  auto dut = std::make_unique<Vdut>(context.get(), "dut");
  npugen::tb::Waveform waveform(*context, dut.get(), o.trace, o.trace_from);
  TaskUnitModel golden(kP);
  npugen::tb::TaskScenarios scenarios(kP, o.seed);
  TaskMemory memory(std::vector<uint32_t>(kP.memory_words, 0));
  EngineFarm engines(kP);
  std::vector<Mismatch> mismatches;
  std::optional<uint64_t> stop_at;

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
  std::map<std::string, uint64_t> scenario_counts;
  uint64_t completed = 0, replacements = 0, full_cycles = 0, tasks_loaded = 0;
  unsigned max_occupied = 0;

  // Scenario driver: loads waiting for their cycle, and register writes, one per cycle.
  struct Pending {
    uint64_t at;
    npugen::tb::QueueLoad load;
  };
  std::deque<Pending> pending;
  std::deque<std::pair<uint32_t, uint32_t>> writes;
  bool single = !o.descriptors.empty();
  bool single_loaded = false;
  const uint64_t cycle_limit = single ? 50'000'000 : o.cycles;

  auto start_scenario = [&](uint64_t cycle) {
    npugen::tb::TaskScenario s;
    if (single) {
      s.kind = "list";
      s.loads.push_back(npugen::tb::QueueLoad{0, 0, 0, 0, read_descriptor_file(o.descriptors)});
      single_loaded = true;
    } else {
      s = scenarios.next();
    }
    ++scenario_counts[s.kind];
    for (auto& load : s.loads) pending.push_back({cycle + load.delay, std::move(load)});
  };
  auto place = [&](const npugen::tb::QueueLoad& load) {
    const DescriptorImage image = encode_task_list(load.tasks, kP, next_id);
    if (image.words.size() > memory.size()) {
      throw std::runtime_error("a scenario's list does not fit descriptor memory");
    }
    if (mem_at + image.words.size() > memory.size()) mem_at = 0;
    memory.write(mem_at, image.words);
    for (size_t i = 0; i < load.tasks.size(); ++i) by_id[(next_id + i) & 0xFFFF] = load.tasks[i];
    const uint32_t base = task_csr::kQueueStride * load.queue;
    writes.emplace_back(base + task_csr::kHead, static_cast<uint32_t>(mem_at));
    writes.emplace_back(base + task_csr::kNetworkId, load.network_id);
    writes.emplace_back(base + task_csr::kBaseIndex, load.queue);
    writes.emplace_back(base + task_csr::kPriority, load.priority);
    writes.emplace_back(base + task_csr::kCount, static_cast<uint32_t>(load.tasks.size()));
    mem_at += image.words.size();
    next_id += static_cast<uint32_t>(load.tasks.size());
    tasks_loaded += load.tasks.size();
  };

  npugen::tb::reset_dut(*dut);
  const auto start = std::chrono::steady_clock::now();
  uint64_t cycle = 0;
  uint64_t quiet_since = 0;
  uint64_t count_cycle = 0;  // the last COUNT write
  for (; cycle < cycle_limit; ++cycle) {
    if (stop_at && cycle > *stop_at) break;
    const TaskUnitOutputs want = golden.outputs();
    // A new scenario once the last one has drained.
    if (pending.empty() && writes.empty() && want.idle && cycle >= quiet_since + 3) {
      if (single && single_loaded) break;
      start_scenario(cycle);
    }
    if (!want.idle) quiet_since = cycle;
    while (!pending.empty() && pending.front().at <= cycle) {
      place(pending.front().load);
      pending.pop_front();
    }
    TaskUnitInputs in;
    if (!writes.empty()) {
      if (writes.front().first % task_csr::kQueueStride == task_csr::kCount) count_cycle = cycle;
      in.csr_we = true;
      in.csr_addr = writes.front().first;
      in.csr_wdata = writes.front().second;
      writes.pop_front();
    }
    in.mem_rvalid = memory.response(cycle, in.mem_rdata);
    in.done = engines.done(cycle);

    dut->csr_we_i = in.csr_we;
    dut->csr_addr_i = in.csr_addr;
    dut->csr_wdata_i = in.csr_wdata;
    dut->mem_rvalid_i = in.mem_rvalid;
    dut->mem_rdata_i = in.mem_rdata;
    dut->ne_done_i = in.done[0];
    dut->pe_done_i = in.done[1];
    dut->eval();
    const TaskUnitOutputs got = outputs_of(*dut);
    compare(cycle, want, got, mismatches);

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
    const auto fetch_before = golden.state().fetch;
    const unsigned occupied = golden.occupied_entries();
    max_occupied = std::max(max_occupied, occupied);
    full_cycles += occupied == kP.entries ? 1 : 0;

    if (!mismatches.empty() && !stop_at) stop_at = cycle + kCyclesAfterMismatch;
    golden.step(in);
    if (fetch_before == TaskUnitModel::Fetch::kFull && !want.commit &&
        golden.state().fetch == TaskUnitModel::Fetch::kIdle) {
      ++replacements;
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
    if (!single && scenario_counts.count("priority") && kP.queues > 1 && replacements == 0) {
      mismatches.push_back({cycle, "no fetch-queue replacement happened in the priority scenario"});
    }
    if (!single && scenario_counts.count("fill") && full_cycles == 0) {
      mismatches.push_back({cycle, "the task buffer never filled"});
    }
  }
  if (!mismatches.empty()) {
    npugen::tb::print_mismatches(mismatches, "tasks", o.seed, o.repro, 0,
                                 single ? " --descriptors " + o.descriptors : "", {});
    return 1;
  }
  std::string kinds;
  for (const auto& [k, n] : scenario_counts)
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, k);
  // As npugen schedule counts it: the list's COUNT written in cycle 1, makespan = last
  // completion + 1.
  uint64_t makespan = 0;
  for (const auto& t : timing) makespan = std::max(makespan, t.end + 2 - count_cycle);
  std::printf(
      "PASS: design %s (hash %.16s), block tasks, seed %llu: %llu cycles, scenarios: %s; %llu "
      "tasks committed, %llu completed, hazard check passed; %llu fetch-queue replacement(s), "
      "task buffer full in %llu cycles (most entries %u of %u)%s, %.0f cycles/s\n",
      npugen::design::kName, npugen::design::kConfigHash, static_cast<unsigned long long>(o.seed),
      static_cast<unsigned long long>(cycle), kinds.c_str(),
      static_cast<unsigned long long>(committed.size()), static_cast<unsigned long long>(completed),
      static_cast<unsigned long long>(replacements), static_cast<unsigned long long>(full_cycles),
      max_occupied, kP.entries, single ? fmt::format(", makespan {} cycles", makespan).c_str() : "",
      static_cast<double>(cycle) / seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      fmt::format("Co-simulation of the task unit of design {} (RTL against the golden "
                  "model every cycle; the schedule against the hazard checker)",
                  npugen::design::kName)};
  Options o;
  app.add_option("--descriptors", o.descriptors,
                 "Run this task list (binary descriptors, npugen schedule --descriptors) to "
                 "completion instead of random scenarios");
  npugen::tb::add_bench_options(app, o.seed, o.cycles, o.trace, o.trace_from, o.repro);
  CLI11_PARSE(app, argc, argv);
  return npugen::tb::run_guarded(o.trace, [&] { return run(o); });
}
