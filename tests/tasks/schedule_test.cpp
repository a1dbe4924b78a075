// The network compiler and task-list reader behind npugen schedule: shapes, durations,
// splits and buffer placement, checked against numbers worked out by hand.
#include <catch2/catch.hpp>

#include "blocks/block.hpp"
#include "blocks/tasks/tasks.hpp"
#include "config/config.hpp"
#include "npugen/golden/tasks/analysis.hpp"
#include "sched/network.hpp"
#include "sched/task_file.hpp"

using namespace npugen;

namespace {

config::Config tasks_config(int buffer_words) {
  const auto r = blocks::load_config_text(
      "pe_array: {tiles: 16, lanes: 16}\n"
      "planar: {words_per_cycle: 2}\n"
      "tasks: {enabled: true, buffer_words: " +
          std::to_string(buffer_words) + "}\n",
      "t.yaml");
  REQUIRE(r.config);
  return *r.config;
}

}  // namespace

TEST_CASE("networks compile to tasks with hand-checked shapes and durations", "[schedule]") {
  const config::Config c = tasks_config(1 << 20);
  const auto r = sched::load_network_text(
      "input: {height: 56, width: 56, channels: 16}\n"
      "layers:\n"
      "  - {name: C1, op: conv, kernel: 3, channels: 32}\n"
      "  - {name: P1, op: pool, kernel: 2, stride: 2}\n"
      "  - {name: C2, op: conv, kernel: 1, channels: 8, split: 2}\n"
      "  - {name: A, op: add, inputs: [C2, C2], split: 2}\n"
      "  - {name: F, op: fc, channels: 10}\n",
      "n.yaml", c);
  INFO((r.diagnostics.empty() ? "" : r.diagnostics.front().format()));
  REQUIRE(r.tasks);
  const auto& t = *r.tasks;
  REQUIRE(t.size() == 7);
  // C1: 56 x 56 x 32 outputs x 9 x 16 MACs over 256 multipliers, + 2 (tree latency).
  CHECK(t[0].name == "C1");
  CHECK(t[0].cycles == (56 * 56 * 32 * 9 * 16 + 255) / 256 + 2);
  CHECK(t[0].out.words == 56 * 56 * 32);
  CHECK(t[0].in[0].words == 56 * 56 * 16);
  // P1 (same padding, stride 2: none needed) on the planar engine's cycle model: 2 words
  // of 16 channels a beat hold a pixel's 32 channels, each output column's 2 taps a beat
  // each, every row read once: 56 x 28 x 2 beats, + 1 to start + 5 through the pipeline
  // (request queue, read at latency 1, response queue, stages A and B, output register).
  CHECK(t[1].out.words == 28 * 28 * 32);
  CHECK(t[1].cycles == 56 * 28 * 2 + 1 + 5);
  CHECK(t[1].in[0] == t[0].out);
  // C2 in two parts: each the whole input, half the output channels, adjacent slices.
  CHECK(t[2].name == "C20");
  CHECK(t[3].name == "C21");
  CHECK(t[2].in[0] == t[1].out);
  CHECK(t[3].in[0] == t[1].out);
  CHECK(t[2].out.words == 28 * 28 * 4);
  CHECK(t[3].out.base == t[2].out.end());
  // A in two parts: each reads its channel slice of both inputs.
  CHECK(t[4].in[0] == t[2].out);
  CHECK(t[4].in[1] == t[2].out);
  CHECK(t[5].in[0] == t[3].out);
  // A beat a pixel (4 channels of a part), + 1 + 5.
  CHECK(t[4].cycles == 28 * 28 + 1 + 5);
  // F: 28 x 28 x 8 inputs x 10 outputs.
  CHECK(t[6].op == golden::TaskOp::kTensor);
  CHECK(t[6].cycles == (28 * 28 * 8 * 10 + 255) / 256 + 2);
  // No two tensors alive at once share words: the schedule obeys the rules.
  const golden::TaskParams p = blocks::tasks::config_of(c).params;
  const auto run = golden::run_task_list(p, t);
  CHECK(golden::check_schedule(t, run.timing, p).empty());
}

TEST_CASE(
    "a buffer that is too small names the layer, and reuse creates conflicts only when "
    "the buffer wraps",
    "[schedule]") {
  const std::string net =
      "input: {height: 16, width: 16, channels: 4}\n"
      "layers:\n"
      "  - {name: a, op: activation}\n"
      "  - {name: b, op: activation}\n"
      "  - {name: c, op: activation}\n";
  const auto small = sched::load_network_text(net, "n.yaml", tasks_config(1024));
  REQUIRE_FALSE(small.tasks);
  CHECK(small.diagnostics.front().message.find("layer a: its 1024 words do not fit") !=
        std::string::npos);
  // 3 tensors of 1024 fit in 3072 only by reusing the input's space for c.
  const auto tight = sched::load_network_text(net, "n.yaml", tasks_config(3072));
  REQUIRE(tight.tasks);
  CHECK((*tight.tasks)[2].out.base == 0);
  const auto roomy = sched::load_network_text(net, "n.yaml", tasks_config(8192));
  REQUIRE(roomy.tasks);
  CHECK((*roomy.tasks)[2].out.base == 3072);
}

TEST_CASE(
    "a design with a planar engine refuses, with the layer's line, a planar layer its engine "
    "would refuse",
    "[schedule]") {
  const auto r = blocks::load_config_text(
      "pe_array: {tiles: 4, lanes: 4}\n"
      "planar: {enabled: true, max_window: 3, max_pad: 1, max_height: 16, max_width: 16}\n"
      "tasks: {enabled: true, buffer_words: 65536}\n",
      "t.yaml");
  REQUIRE(r.config);
  const std::string head =
      "input: {height: 16, width: 16, channels: 4}\n"
      "layers:\n"
      "  - {name: a, op: activation}\n";
  const auto fits =
      sched::load_network_text(head + "  - {name: p, op: pool, kernel: 3}\n", "n.yaml", *r.config);
  INFO((fits.diagnostics.empty() ? "" : fits.diagnostics.front().format()));
  REQUIRE(fits.tasks);
  const auto wide =
      sched::load_network_text(head + "  - {name: p, op: pool, kernel: 5}\n", "n.yaml", *r.config);
  REQUIRE_FALSE(wide.tasks);
  REQUIRE_FALSE(wide.diagnostics.empty());
  const auto& d = wide.diagnostics.front();
  CHECK(d.line == 4);
  CHECK(d.message.find("layer p: the planar engine refuses its task") != std::string::npos);
  CHECK(d.message.find("a 5x5 window is larger than the generated maximum 3 "
                       "(planar.max_window)") != std::string::npos);
  // Without the engine the same layer is scheduled on its cycle model.
  const auto none = sched::load_network_text(head + "  - {name: p, op: pool, kernel: 5}\n",
                                             "n.yaml", tasks_config(65536));
  CHECK(none.tasks);
}

TEST_CASE("a concat of three inputs is refused at its line, and every output is kept",
          "[schedule]") {
  const std::string head =
      "input: {height: 4, width: 4, channels: 8}\n"
      "layers:\n"
      "  - {name: a, op: activation}\n";
  const auto three =
      sched::load_network_text(head + "  - {name: c, op: concat, inputs: [input, a, input]}\n",
                               "n.yaml", tasks_config(8192));
  REQUIRE_FALSE(three.tasks);
  CHECK(three.diagnostics.front().line == 4);
  CHECK(three.diagnostics.front().message.find("layer c: 3 inputs; npugen schedule's tasks read "
                                               "two regions at most") != std::string::npos);
  // a is an output: its words are not reused after its last reader (the concat). In 640
  // words the resize's 256 then find no room (next fit: 512 to 640, then the input's 128
  // only); in 768 they go after the concat, clear of a.
  const std::string more = head +
                           "  - {name: c, op: concat, inputs: [input, a]}\n"
                           "  - {name: u, op: resize, factor: 1}\n"
                           "outputs: [a, u]\n";
  const auto tight = sched::load_network_text(more, "n.yaml", tasks_config(640));
  REQUIRE_FALSE(tight.tasks);
  CHECK(tight.diagnostics.front().message.find("layer u: its 256 words do not fit") !=
        std::string::npos);
  const auto two = sched::load_network_text(more, "n.yaml", tasks_config(768));
  REQUIRE(two.tasks);
  const golden::Region a = (*two.tasks)[0].out, u = (*two.tasks)[2].out;
  CHECK((u.base + u.words <= a.base || a.base + a.words <= u.base));
}

TEST_CASE("task files: reads of task outputs resolve to their regions", "[schedule]") {
  const config::Config c = tasks_config(4096);
  const auto r = sched::load_task_text(
      "tasks:\n"
      "  - {name: x, op: conv, cycles: 5, writes: {base: 10, words: 4}}\n"
      "  - {name: y, op: pool, cycles: 3, reads: [{task: x}, {base: 0, words: 2}],\n"
      "     writes: {base: 20, words: 4}, task_switch: false, network_id: 3}\n",
      "t.yaml", blocks::tasks::config_of(c).params);
  REQUIRE(r.tasks);
  const auto& t = *r.tasks;
  CHECK(t[1].in[0] == golden::Region{10, 4});
  CHECK(t[1].in[1] == golden::Region{0, 2});
  CHECK_FALSE(t[1].task_switch);
  CHECK(t[1].network_id == 3);
  const auto bad = sched::load_task_text("tasks: [{name: x, op: conv, cycles: 5}]\n", "t.yaml",
                                         blocks::tasks::config_of(c).params);
  REQUIRE_FALSE(bad.tasks);
  CHECK(bad.diagnostics.front().message == "task x has no writes region");
  CHECK(bad.diagnostics.front().line == 1);
}
