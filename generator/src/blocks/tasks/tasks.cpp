#include "blocks/tasks/tasks.hpp"

#include <fmt/format.h>

namespace npugen::blocks::tasks {
namespace {

constexpr std::string_view kName = "tasks";

TasksConfig read_section(config::Section& root) {
  TasksConfig t;
  golden::TaskParams& p = t.params;
  config::Section s = root.section(
      "tasks",
      "Asynchronous task execution (SPEC M2): task manager (queues, arbiter, fetch queue, "
      "configuration queue) and data control (task buffer with dependency and conflict "
      "tracking, access enable) for neural and planar engines. Absent or disabled: not "
      "generated.");
  s.boolean("enabled", t.enabled, "Generate the task unit.");
  s.integer("entries", p.entries, 1, 64,
            "E: task buffer entries, filled in list order; each holds one task until it "
            "finishes (1: tasks run one at a time).");
  s.integer("queues", p.queues, 1, 8,
            "K: task queues, each with a head, count, network id, base index and priority "
            "register.");
  s.integer("neural_engines", p.neural_engines, 1, 8,
            "Neural engines (convolution, tensor products), each running one task at a time; "
            "each is one PE array.");
  s.integer("planar_engines", p.planar_engines, 1, 8,
            "Planar engines (pooling, elementwise, reduction, gain-bias).");
  s.integer("config_queue_depth", p.config_queue_depth, 1, 16,
            "C: committed tasks waiting for a task buffer entry.");
  s.integer("buffer_words", p.buffer_words, 16, int64_t{1} << 28,
            "Words of the shared data buffer; task regions must lie inside it.");
  s.integer("memory_words", p.memory_words, 64, int64_t{1} << 30,
            "Words of system memory the task manager can address for descriptors; a task list "
            "must fit.");
  s.integer("memory_latency", p.memory_latency, 1, 64,
            "Cycles from a descriptor read to its data in the system model (npugen schedule and "
            "the testbench's default); the RTL takes any in-order latency.");
  s.integer("cycle_bits", p.cycle_bits, 8, 32,
            "Width of a task's work-cycle count (engine register).");
  s.integer("planar_words_per_cycle", t.planar_words_per_cycle, 1, 1024,
            "Words a planar engine reads plus writes per cycle; planar task durations of "
            "networks (npugen schedule --network) follow from it.");
  s.finish();
  return t;
}

class TasksBlock : public Block {
 public:
  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] std::string_view title() const override { return "the task unit"; }
  void read(config::Reader&, config::Section& root, config::Config& c) const override {
    c.sections.put(kName, read_section(root));
  }
  [[nodiscard]] nlohmann::json to_json(const config::Config& c) const override {
    const TasksConfig& t = config_of(c);
    const auto& p = t.params;
    return {{"enabled", t.enabled},
            {"entries", p.entries},
            {"queues", p.queues},
            {"neural_engines", p.neural_engines},
            {"planar_engines", p.planar_engines},
            {"config_queue_depth", p.config_queue_depth},
            {"buffer_words", p.buffer_words},
            {"memory_words", p.memory_words},
            {"memory_latency", p.memory_latency},
            {"cycle_bits", p.cycle_bits},
            {"planar_words_per_cycle", t.planar_words_per_cycle}};
  }
  [[nodiscard]] bool enabled(const config::Config& c) const override {
    return config_of(c).enabled;
  }
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.descriptors = true;
    b.golden = {"tasks"};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    d->params = config_of(c).params;
    // task id 16, network id 8, base index 8, op 3, six region fields, cycles.
    d->config_width = 16 + 8 + 8 + 3 + 6 * static_cast<int>(d->params.region_bits()) +
                      static_cast<int>(d->params.cycle_bits);
    const std::string stem = fmt::format("{}_{}", c.design.module_prefix, kName);
    d->unit_module = stem;
    d->manager_module = stem + "_manager";
    d->config_queue_module = stem + "_config_queue";
    d->buffer_module = stem + "_buffer";
    return d;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    if (d.chance(20)) return;
    YAML::Node t(YAML::NodeType::Map);
    DrawnSection s(d, t);
    s.always("enabled", d.chance(75));
    s.set("entries", d.chance(20) ? d.range(33, 64) : d.size(1, 32));
    s.set("queues", d.corner(1, 8));
    s.set("neural_engines", d.corner(1, 8));
    s.set("planar_engines", d.corner(1, 8));
    s.set("config_queue_depth", d.corner(1, 16));
    s.set("buffer_words", d.chance(30) ? d.range(16, 4096) : d.size(16, int64_t{1} << 28));
    s.set("memory_words", d.size(64, d.small() ? int64_t{1} << 20 : int64_t{1} << 30));
    s.set("memory_latency", d.chance(70) ? d.range(1, 8) : d.corner(1, 64));
    s.set("cycle_bits", d.corner(8, 32));
    s.set("planar_words_per_cycle", d.size(1, 1024));
    root["tasks"] = t;
  }
};

}  // namespace

const Block& block() {
  static const TasksBlock kBlock;
  return kBlock;
}

const TasksConfig& config_of(const config::Config& config) {
  return config.sections.get<TasksConfig>(kName);
}

nlohmann::json Design::derived_json() const {
  const auto& p = params;
  return {{"region_bits", p.region_bits()},
          {"memory_address_bits", p.memory_address_bits()},
          {"entry_bits", p.entry_bits()},
          {"sequence_bits", p.seq_bits()},
          {"task_config_bits", config_width},
          {"modules", {unit_module, manager_module, config_queue_module, buffer_module}}};
}

std::vector<std::string> Design::summary() const {
  const auto& p = params;
  return {fmt::format(
      "task unit {}: {} queue(s), {} task-buffer entries, {}-deep configuration queue, {} "
      "neural and {} planar engine(s); {}-word data buffer, {}-word descriptor memory, {}-bit "
      "cycle counts",
      unit_module, p.queues, p.entries, p.config_queue_depth, p.neural_engines, p.planar_engines,
      p.buffer_words, p.memory_words, p.cycle_bits)};
}

DesignParams Design::design_params() const {
  const auto& p = params;
  return {
      {"npugen/golden/tasks/params.hpp"},
      fmt::format("inline constexpr golden::TaskParams kTasks{{\n"
                  "    .entries = {},\n    .queues = {},\n    .neural_engines = {},\n"
                  "    .planar_engines = {},\n    .config_queue_depth = {},\n"
                  "    .buffer_words = {},\n    .memory_words = {},\n"
                  "    .memory_latency = {},\n    .cycle_bits = {},\n}};\n"
                  "static_assert(kTasks.region_bits() == {}, \"golden region width differs "
                  "from the RTL's\");\n",
                  p.entries, p.queues, p.neural_engines, p.planar_engines, p.config_queue_depth,
                  p.buffer_words, p.memory_words, p.memory_latency, p.cycle_bits, p.region_bits())};
}

}  // namespace npugen::blocks::tasks
