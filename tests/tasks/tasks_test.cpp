// Golden task unit (SPEC M2): descriptors, the cycle model's schedules against the
// independent hazard checker, the bounds, and the behaviour the seed describes.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <random>

#include "npugen/golden/tasks/analysis.hpp"
#include "npugen/golden/tasks/list.hpp"
#include "npugen/golden/tasks/system.hpp"

using namespace npugen::golden;

namespace {

Task make(const std::string& name, TaskOp op, uint64_t cycles, Region out, Region in0 = {},
          Region in1 = {}) {
  Task t;
  t.name = name;
  t.op = op;
  t.cycles = cycles;
  t.out = out;
  t.in[0] = in0;
  t.in[1] = in1;
  return t;
}

std::vector<Task> random_graph(std::mt19937_64& rng, size_t n, uint64_t buffer) {
  std::vector<Task> tasks;
  std::uniform_int_distribution<uint64_t> base(0, buffer - 64), words(1, 64), cycles(1, 40);
  std::bernoulli_distribution neural(0.4), two_inputs(0.3), from_task(0.8);
  for (size_t i = 0; i < n; ++i) {
    Task t;
    t.name = fmt::format("T{}", i);
    t.op = neural(rng) ? TaskOp::kConv : TaskOp::kPool;
    t.cycles = cycles(rng);
    t.out = Region{base(rng), words(rng)};
    for (int k = 0; k < (two_inputs(rng) ? 2 : 1); ++k) {
      if (i > 0 && from_task(rng)) {
        t.in[k] = tasks[std::uniform_int_distribution<size_t>(i > 6 ? i - 6 : 0, i - 1)(rng)].out;
      } else {
        t.in[k] = Region{base(rng), words(rng)};
      }
    }
    tasks.push_back(t);
  }
  return tasks;
}

/// Writes a queue register over APB: a setup and an access phase.
void write_register(TaskUnitModel& m, uint32_t offset, uint32_t value) {
  for (const bool access : {false, true}) {
    TaskUnitInputs in;
    in.apb = ApbRequest{true, access, true, offset, value};
    m.tick(in);
  }
}

}  // namespace

TEST_CASE("a read request counts only when the memory takes it", "[tasks]") {
  TaskParams p;
  TaskUnitModel m(p);
  write_register(m, tasks_csr::queue_register(0, tasks_csr::kHead), 40);
  write_register(m, tasks_csr::queue_register(0, tasks_csr::kCount), 1);
  TaskUnitInputs stall;
  stall.mem_ready = false;
  m.tick(stall);  // the arbiter picks queue 0: the fetch starts at HEAD
  for (int i = 0; i < 5; ++i) {
    const TaskUnitOutputs o = m.outputs(stall);
    REQUIRE(o.mem_req);
    CHECK(o.mem_addr == 40);  // offered again, at the same address
    m.tick(stall);
    CHECK(m.state().issued == 0);
  }
  const TaskUnitInputs ready;  // mem_ready defaults to 1
  CHECK(m.outputs(ready).mem_addr == 40);
  m.tick(ready);
  CHECK(m.state().issued == 1);
  CHECK(m.outputs(stall).mem_addr == 41);
  m.tick(ready);
  CHECK(m.state().issued == 2);
  CHECK_FALSE(m.outputs(ready).mem_req);  // the length is not known yet
  CHECK(m.state().fq.desc == 40);
}

TEST_CASE("grants carry their descriptor's word address, stalls or not", "[tasks]") {
  TaskParams p;
  p.memory_latency = 3;
  std::vector<Task> tasks = {make("a", TaskOp::kConv, 20, {0, 8}),
                             make("b", TaskOp::kPool, 5, {8, 8}, {0, 8}),
                             make("c", TaskOp::kTensor, 9, {16, 8}, {8, 8})};
  tasks[1].shape = {1, 2, 3};  // a longer descriptor
  const DescriptorImage image = encode_task_list(tasks, p);
  constexpr uint64_t kHead = 100;
  for (const unsigned stall : {0U, 30U, 70U}) {
    std::vector<uint32_t> words(kHead + image.words.size() + 16, 0);
    TaskMemory memory(words);
    memory.write(kHead, image.words);
    EngineFarm engines(p);
    TaskUnitModel m(p);
    write_register(m, tasks_csr::queue_register(0, tasks_csr::kHead), kHead);
    write_register(m, tasks_csr::queue_register(0, tasks_csr::kCount), 3);
    std::mt19937_64 rng(stall);
    std::vector<uint64_t> desc(tasks.size(), ~uint64_t{0});
    uint64_t taken = 0, waited = 0;
    for (uint64_t cycle = 4; cycle < 2000; ++cycle) {
      TaskUnitInputs in;
      in.mem_ready = rng() % 100 >= stall;
      const TaskUnitOutputs o = m.outputs(in);
      taken += memory.offer(o.mem_req, in.mem_ready, o.mem_addr, cycle, p.memory_latency) ? 1 : 0;
      waited += o.mem_req && !in.mem_ready ? 1 : 0;
      in.mem_rvalid = memory.response(cycle, in.mem_rdata);
      in.done = engines.done(cycle);
      for (unsigned k = 0; k < kEngineKinds; ++k) {
        const TaskGrant& g = o.grant[k];
        if (!g.valid) {
          CHECK(g.desc == 0);
          continue;
        }
        desc.at(g.task_id) = g.desc;
        engines.start(k, g.engine, g.cycles, cycle);
      }
      m.tick(in);
    }
    INFO("stall percent " << stall);
    CHECK(taken == image.words.size());  // every word read once
    CHECK((waited != 0) == (stall != 0));
    for (size_t i = 0; i < tasks.size(); ++i) CHECK(desc[i] == kHead + image.offsets[i]);
    CHECK(m.outputs(TaskUnitInputs{}).idle);
  }
}

TEST_CASE("descriptors round-trip through the binary image", "[tasks]") {
  TaskParams p;
  std::vector<Task> tasks = {make("a", TaskOp::kConv, 100, {0, 10}, {10, 20}),
                             make("b", TaskOp::kGainBias, 7, {40, 2}, {0, 10}, {10, 5})};
  tasks[1].shape = {1, 2, 3};
  tasks[1].task_switch = false;
  tasks[1].network_id = 9;
  const DescriptorImage image = encode_task_list(tasks, p);
  REQUIRE(image.offsets.size() == 2);
  const auto back = decode_task_list(image_words(image_bytes(image.words)));
  REQUIRE(back.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CHECK(back[i].op == tasks[i].op);
    CHECK(back[i].out == tasks[i].out);
    CHECK(back[i].in[0] == tasks[i].in[0]);
    CHECK(back[i].in[1] == tasks[i].in[1]);
    CHECK(back[i].cycles == tasks[i].cycles);
    CHECK(back[i].shape == tasks[i].shape);
    CHECK(back[i].task_switch == tasks[i].task_switch);
    CHECK(back[i].network_id == tasks[i].network_id);
  }
  CHECK_THROWS(decode_task_list({1, 2}));
  CHECK_THROWS(decode_task_list({1, 3, 0, 0}));
}

TEST_CASE("random task graphs run without hazards, in order, within the bounds", "[tasks]") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    TaskParams p;
    p.entries = 2 + trial % 7;
    p.neural_engines = 1 + trial % 3;
    p.planar_engines = 1 + (trial / 3) % 2;
    p.config_queue_depth = 1 + trial % 3;
    p.memory_latency = 1 + trial % 5;
    p.buffer_words = 1024;
    const auto tasks = random_graph(rng, 150, p.buffer_words);
    const ScheduleRun run = run_task_list(p, tasks);
    const auto problems = check_schedule(tasks, run.timing, p);
    INFO("trial " << trial << ": " << (problems.empty() ? "" : problems.front()));
    REQUIRE(problems.empty());
    const ScheduleBounds b = schedule_bounds(tasks, p);
    CHECK(run.makespan >= b.lower_bound);
  }
}

TEST_CASE("a stalling descriptor memory delays the fetches, never the rules", "[tasks]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    TaskParams p;
    p.entries = 2 + trial % 5;
    p.memory_latency = 1 + trial % 4;
    p.buffer_words = 1024;
    const auto tasks = random_graph(rng, 60, p.buffer_words);
    const ScheduleRun always = run_task_list(p, tasks);
    const ScheduleRun ready_fn = run_task_list(p, tasks, [](uint64_t) { return true; });
    CHECK(ready_fn.makespan == always.makespan);
    const uint64_t seed = rng();
    const ScheduleRun stalled = run_task_list(p, tasks, [seed](uint64_t cycle) {
      return std::mt19937_64(seed ^ cycle)() % 2 == 0;  // ready in half of the cycles
    });
    const auto problems = check_schedule(tasks, stalled.timing, p);
    INFO("trial " << trial << ": " << (problems.empty() ? "" : problems.front()));
    REQUIRE(problems.empty());
    CHECK(stalled.makespan > 0);
  }
}

TEST_CASE("the checker catches a schedule that breaks each rule", "[tasks]") {
  TaskParams p;
  std::vector<Task> tasks = {make("C1", TaskOp::kConv, 10, {0, 8}),
                             make("P1", TaskOp::kPool, 5, {8, 8}, {0, 8})};
  std::vector<TaskTiming> ok = {{0, 10, 0}, {10, 15, 0}};
  CHECK(check_schedule(tasks, ok, p).empty());
  std::vector<TaskTiming> early = {{0, 10, 0}, {9, 14, 0}};
  const auto raw = check_schedule(tasks, early, p);
  REQUIRE(raw.size() == 1);
  CHECK(raw[0].find("P1 reads C1") != std::string::npos);
  // Write after read: P1 overwrites C1's input.
  tasks[0].in[0] = {8, 4};
  tasks[1].in[0] = {100, 4};
  CHECK(check_schedule(tasks, ok, p).empty());
  CHECK(check_schedule(tasks, early, p).front().find("overwrites data C1 still reads") !=
        std::string::npos);
}

TEST_CASE("planar tasks run beside a long neural task (the seed's figure 8)", "[tasks]") {
  TaskParams p;
  p.entries = 8;
  // C2 -> {C3 (long), P2 -> P3 -> P4} -> P5 reads C3 and P4.
  std::vector<Task> tasks = {
      make("C2", TaskOp::kConv, 50, {0, 16}),
      make("C3", TaskOp::kConv, 1000, {100, 16}, {0, 16}),
      make("P2", TaskOp::kPool, 60, {200, 16}, {0, 16}),
      make("P3", TaskOp::kPool, 60, {300, 16}, {200, 16}),
      make("P4", TaskOp::kPool, 60, {400, 16}, {300, 16}),
      make("P5", TaskOp::kElementwise, 60, {500, 16}, {100, 16}, {400, 16}),
  };
  const ScheduleRun run = run_task_list(p, tasks);
  REQUIRE(check_schedule(tasks, run.timing, p).empty());
  CHECK(run.timing[4].end < run.timing[1].end);     // P4 finished while C3 ran
  CHECK(run.timing[5].start >= run.timing[1].end);  // P5 waited for C3
  p.entries = 1;
  const ScheduleRun serial = run_task_list(p, tasks);
  CHECK(serial.makespan > run.makespan + 150);
}
