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

}  // namespace

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
