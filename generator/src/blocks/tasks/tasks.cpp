#include "blocks/tasks/tasks.hpp"

#include <fmt/format.h>

#include "emit/cpp_literal.hpp"

namespace npugen::blocks::tasks {
namespace {

constexpr std::string_view kName = "tasks";

TasksConfig read_section(config::Reader&, config::Section& root, const config::Config&) {
  TasksConfig t;
  golden::TaskParams& p = t.params;
  config::Section s = root.section(
      "tasks",
      "Asynchronous task execution (docs/tasks.md): task manager (queues, arbiter, fetch queue, "
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
  s.integer("buffer_words", p.buffer_words, kMinBufferWords, int64_t{1} << 28,
            "Words of the shared data buffer; task regions must lie inside it.");
  s.integer("memory_words", p.memory_words, 64, int64_t{1} << 30,
            "Words of system memory the task manager can address for descriptors; a task list "
            "must fit.");
  s.integer("memory_latency", p.memory_latency, 1, 64,
            "Cycles from a descriptor read to its data in the system model (npugen schedule and "
            "the testbench's default); the RTL takes any in-order latency.");
  s.integer("cycle_bits", p.cycle_bits, 8, 32,
            "Width of a task's work-cycle count (engine register).");
  s.finish();
  return t;
}

class TasksBlock : public SectionBlock<TasksConfig> {
 public:
  TasksBlock() : SectionBlock(kName, "the task unit", read_section) {}
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.descriptors =
        "run this task list (npugen schedule --descriptors) to completion instead of the "
        "random scenarios";
    b.golden = {"tasks"};
    b.offline = {{"tasks", OfflineBench::Takes::kCount,
                  "Measure the golden task unit (tasks.enabled) on this many random tasks "
                  "instead",
                  false, bench_golden_unit}};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    d->params = config_of(c).params;
    d->layout = golden::TaskConfigLayout::of(d->params);
    const std::string stem = fmt::format("{}_{}", c.design.module_prefix, kName);
    d->unit_module = stem;
    d->manager_module = stem + "_manager";
    d->buffer_module = stem + "_buffer";
    d->package = stem + "_pkg";
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
          {"task_config_bits", layout.width()},
          {"modules", {unit_module, manager_module, buffer_module}}};
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  using golden::EngineKind;
  using L = golden::TaskConfigLayout;
  namespace desc = golden::task_desc;
  const auto& p = params;
  return {
      SvConstant::integer("Queues", p.queues, "K: task queues."),
      SvConstant::integer("QueueBits", p.queue_bits(), "Bits of a queue number."),
      SvConstant::integer("Entries", p.entries, "E: task-buffer entries."),
      SvConstant::integer("EntryBits", p.entry_bits(), "Bits of an entry number."),
      SvConstant::integer("SeqBits", p.seq_bits(),
                          "Bits of a per-kind start sequence number (unique among E tasks)."),
      SvConstant::integer("NeuralEngines", p.neural_engines, "Neural engines."),
      SvConstant::integer("NeuralEngineBits", p.engine_bits(EngineKind::kNeural),
                          "Bits of a neural engine number."),
      SvConstant::integer("PlanarEngines", p.planar_engines, "Planar engines."),
      SvConstant::integer("PlanarEngineBits", p.engine_bits(EngineKind::kPlanar),
                          "Bits of a planar engine number."),
      SvConstant::integer("ConfigQueueDepth", p.config_queue_depth,
                          "C: committed tasks waiting for a task-buffer entry."),
      SvConstant::integer("MemAddrBits", p.memory_address_bits(),
                          "Bits of a descriptor-memory word address."),
      SvConstant::integer("RegionBits", p.region_bits(),
                          "Bits of a data-buffer address or region size."),
      SvConstant::integer("CycleBits", p.cycle_bits, "Bits of a task's work-cycle count."),
      SvConstant::integer("TaskIdBits", L::kTaskIdBits, "Bits of a task id."),
      SvConstant::integer("NetworkIdBits", L::kNetworkIdBits, "Bits of a network id."),
      SvConstant::integer("BaseIndexBits", L::kBaseIndexBits, "Bits of a base-table index."),
      SvConstant::integer("OpBits", L::kOpBits, "Bits of an operation code (TaskOp)."),
      SvConstant::integer("FirstPlanarOp", static_cast<int64_t>(golden::TaskOp::kPool),
                          "Operation codes from this one up run on planar engines."),
      SvConstant::integer("Regions", L::kRegions, "Region fields of a task."),
      SvConstant::integer("RegionIn0Base", L::kIn0Base, "Region field: first input's base word."),
      SvConstant::integer("RegionIn0Words", L::kIn0Words, "Region field: first input's words."),
      SvConstant::integer("RegionIn1Base", L::kIn1Base, "Region field: second input's base word."),
      SvConstant::integer("RegionIn1Words", L::kIn1Words, "Region field: second input's words."),
      SvConstant::integer("RegionOutBase", L::kOutBase, "Region field: output's base word."),
      SvConstant::integer("RegionOutWords", L::kOutWords, "Region field: output's words."),
      SvConstant::integer("CfgOpLsb", L::kOpLsb, "Lowest bit of task_cfg_t.op."),
      SvConstant::integer("CfgRegionLsb", L::kRegionsLsb, "Lowest bit of task_cfg_t.region."),
      SvConstant::integer("CfgDescLsb", layout.desc_lsb(),
                          "Lowest bit of task_cfg_t.desc (the descriptor's word address)."),
      SvConstant::integer("CfgWidth", layout.width(),
                          "Bits of a parsed task (task_cfg_t, golden::TaskConfigLayout)."),
      SvConstant::integer("DescWordsBits", 16,
                          "Bits of a descriptor's word count, task id and register address."),
      SvConstant::integer("DescIdWord", 0, "Descriptor header word holding the task id."),
      SvConstant::integer("DescLengthWord", 1, "Descriptor header word holding its length."),
      SvConstant::integer("DescHeaderWords", desc::kHeaderWords, "Words of a descriptor header."),
      SvConstant::integer("DescTaskSwitchBit", desc::kTaskSwitchBit,
                          "Header word 0: others may run after this task."),
      SvConstant::integer("DescGroupCountLsb", desc::kGroupCountShift,
                          "Group word: lowest bit of the register count."),
      SvConstant::integer("DescGroupCountBits", 8, "Group word: bits of the register count."),
      SvConstant::integer("DescRegOp", desc::kRegOp, "Descriptor register: operation."),
      SvConstant::integer("DescRegIn0Base", desc::kRegIn0Base,
                          "Descriptor register: first region field (six follow in order)."),
      SvConstant::integer("DescRegCycles", desc::kRegCycles, "Descriptor register: work cycles."),
  };
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
  return {{"npugen/golden/tasks/params.hpp"},
          emit::cpp_constant("TaskParams", "kTasks", params) +
              fmt::format("static_assert(kTasks.region_bits() == {}, \"golden region width "
                          "differs from the RTL's\");\n",
                          params.region_bits())};
}

}  // namespace npugen::blocks::tasks
