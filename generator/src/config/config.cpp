#include "config/config.hpp"

#include <fmt/format.h>

#include "npugen/golden/vq_params.hpp"
#include "util/input_file.hpp"
#include "util/sha256.hpp"

namespace npugen::config {
namespace {

int ceil_log2(int64_t n) {
  int bits = 0;
  while ((int64_t{1} << bits) < n) ++bits;
  return bits;
}

OperandFormat read_format(Section& parent, const char* key, const char* doc, int64_t max_width) {
  Section s = parent.section(key, doc);
  OperandFormat f;
  f.width = static_cast<int>(s.integer(
      "width", {2, max_width, 8, "Bits per value, as stored and as seen by the multipliers."}));
  f.is_signed = s.boolean("signed", true, "Two's complement (true) or unsigned (false).");
  s.finish();
  return f;
}

ZeroSkipConfig read_zero_skip(Reader& r, Section& pe, const PeArrayConfig& array) {
  ZeroSkipConfig z;
  Section s = pe.section(
      "zero_skip",
      "Zero skipping (SPEC M1): preprocessed weights with control bits; cycles whose rows "
      "are empty in every tile are skipped. Absent or disabled: the dense array.");
  z.enabled = s.boolean("enabled", false,
                        "Generate the zero-skipping array (true) or the dense array (false).");
  std::vector<Section> levels =
      s.list("levels",
             "Levels of preprocessing, lowest first: [0] intra-tile (weights move inside a tile), "
             "[1] inter-tile (whole rows move between tiles). Each works on the sparsity map the "
             "level below leaves.",
             1, 2, 2);
  for (size_t i = 0; i < levels.size(); ++i) {
    Section& l = levels[i];
    SkipLevel level;
    const bool inter = i == 1 || r.describing();
    level.enabled =
        l.boolean("enabled", true, "This level is used; off generates no logic for it.");
    level.lookahead = static_cast<int>(l.integer(
        "lookahead", {0, 4, 1,
                      "Rows a weight (level 0: h) or a tile row (level 1: H) may move earlier. "
                      "Level 0: lane mux inputs; level 1: tile prefetch mux inputs H+1."}));
    level.lookaside = static_cast<int>(l.integer(
        "lookaside", {0, inter ? 16 : 4, 1,
                      "Level 0 (d, at most 4): lanes to either side a weight may move. Level 1 "
                      "(D, at most 16): tiles a row may move to from the next ones; the "
                      "result demultiplexer has D+1 outputs."}));
    l.finish();
    z.levels.push_back(level);
  }
  z.act_rows_per_cycle = static_cast<int>(
      s.integer("act_rows_per_cycle",
                {1, 16, 2,
                 "R: activation rows the activation buffer delivers per cycle. A step whose window "
                 "needs n new rows stalls ceil(n/R) - 1 cycles."}));
  z.max_rows = static_cast<int>(
      s.integer("max_rows", {1, 1 << 20, 1024,
                             "Most original cycles C of one job (rows of the weight tensor); "
                             "sets the width of the base-advance field."}));
  z.step_buffer_depth = static_cast<int>(s.integer(
      "step_buffer_depth",
      {1, 64, 2, "Entries of the weight buffer and of the control-bit buffer beside it."}));
  r.rule(
      "pe_array.zero_skip.levels[1].lookaside (D) is less than pe_array.tiles: a row moves at "
      "most to the first tile.");
  if (z.enabled && levels.size() > 1 && z.levels[1].enabled &&
      z.levels[1].lookaside >= array.tiles && !r.describing()) {
    r.error(levels[1].location_of("lookaside"), levels[1].path_of("lookaside"),
            fmt::format("lookaside {} needs at least {} tiles; the array has {}",
                        z.levels[1].lookaside, z.levels[1].lookaside + 1, array.tiles));
  }
  r.rule(
      "pe_array.zero_skip.levels[0].lookaside (d) is less than pe_array.lanes: a weight moves "
      "at most to the other edge of its tile.");
  if (z.enabled && z.levels[0].enabled && z.levels[0].lookaside >= array.lanes && !r.describing()) {
    r.error(levels[0].location_of("lookaside"), levels[0].path_of("lookaside"),
            fmt::format("lookaside {} needs at least {} lanes; a tile has {}",
                        z.levels[0].lookaside, z.levels[0].lookaside + 1, array.lanes));
  }
  r.rule(
      "pe_array.zero_skip.act_rows_per_cycle (R) is at most the activation window, "
      "levels[0].lookahead + levels[1].lookahead + 1 (levels switched off count 0): a step "
      "never needs more rows than the window holds.");
  const int window = 1 + (z.levels[0].enabled ? z.levels[0].lookahead : 0) +
                     (z.levels.size() > 1 && z.levels[1].enabled ? z.levels[1].lookahead : 0);
  if (z.enabled && z.act_rows_per_cycle > window && !r.describing()) {
    r.error(s.location_of("act_rows_per_cycle"), s.path_of("act_rows_per_cycle"),
            fmt::format("{} rows per cycle exceed the activation window of {} row(s); use at "
                        "most {}",
                        z.act_rows_per_cycle, window, window));
  }
  s.finish();
  return z;
}

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

VqConfig read_vq(Reader& r, Section& root) {
  VqConfig v;
  Section s = root.section(
      "vq",
      "Vector-quantized weight dequantizer (SPEC M3): weights stored as indices into a codebook "
      "of N rows x M weights, looked up inline by P copies of the codebook. Absent or disabled: "
      "not generated.");
  v.enabled = s.boolean("enabled", false, "Generate the dequantizer.");
  v.rows = static_cast<int>(s.integer(
      "rows", {2, 65536, 256, "N: codebook rows, a power of two; an index has log2 N bits."}));
  v.row_weights = static_cast<int>(
      s.integer("row_weights",
                {1, 32, 4, "M: weights per codebook row (the longest vector), a power of two."}));
  v.copies = static_cast<int>(s.integer(
      "copies", {1, 16, 4,
                 "P: physical copies of the codebook, all written at once; P lookups (P x m "
                 "weights) per cycle."}));
  v.min_vector_length = static_cast<int>(s.integer(
      "min_vector_length",
      {1, 32, 2,
       "Smallest vector length m the hardware supports; every power of two from it to M can be "
       "chosen per layer at run time."}));
  v.weight_format = s.choice(
      "weight_format", "int8", "int2 to int32, uint2 to uint32, fp16 or bf16",
      "Format of the codebook's weights (the dequantizer moves their bits; the encoder rounds "
      "into it).",
      [](const std::string& text) {
        golden::WeightFormat f;
        return golden::WeightFormat::parse(text, f);
      });
  v.memory = s.choice(
      "memory", "ram", "ram or flops",
      "How each codebook copy is written: ram lets synthesis infer a memory (one write and one "
      "synchronous read port); flops makes it registers.",
      [](const std::string& text) { return text == "ram" || text == "flops"; });
  r.rule("vq.rows, vq.row_weights and vq.min_vector_length are powers of two.");
  for (const char* key : {"rows", "row_weights", "min_vector_length"}) {
    const int value = std::string(key) == "rows"          ? v.rows
                      : std::string(key) == "row_weights" ? v.row_weights
                                                          : v.min_vector_length;
    if (!r.describing() && !is_power_of_two(value)) {
      r.error(s.location_of(key), s.path_of(key), fmt::format("{} is not a power of two", value));
    }
  }
  r.rule("vq.min_vector_length is at most vq.row_weights (M): a vector fits in one row.");
  if (!r.describing() && v.min_vector_length > v.row_weights) {
    r.error(s.location_of("min_vector_length"), s.path_of("min_vector_length"),
            fmt::format("vectors of {} weights do not fit rows of {} (vq.row_weights)",
                        v.min_vector_length, v.row_weights));
  }
  s.finish();
  return v;
}

TasksConfig read_tasks(Section& root) {
  TasksConfig t;
  Section s = root.section(
      "tasks",
      "Asynchronous task execution (SPEC M2): task manager (queues, arbiter, fetch queue, "
      "configuration queue) and data control (task buffer with dependency and conflict "
      "tracking, access enable) for neural and planar engines. Absent or disabled: not "
      "generated.");
  t.enabled = s.boolean("enabled", false, "Generate the task unit.");
  t.entries = static_cast<int>(
      s.integer("entries", {1, 64, 8,
                            "E: task buffer entries, filled in list order; each holds one task "
                            "until it finishes (1: tasks run one at a time)."}));
  t.queues = static_cast<int>(
      s.integer("queues", {1, 8, 2,
                           "K: task queues, each with a head, count, network id, base index "
                           "and priority register."}));
  t.neural_engines = static_cast<int>(s.integer(
      "neural_engines", {1, 8, 1,
                         "Neural engines (convolution, tensor products), each running one "
                         "task at a time; each is one PE array."}));
  t.planar_engines = static_cast<int>(s.integer(
      "planar_engines", {1, 8, 1, "Planar engines (pooling, elementwise, reduction, gain-bias)."}));
  t.config_queue_depth = static_cast<int>(s.integer(
      "config_queue_depth", {1, 16, 2, "C: committed tasks waiting for a task buffer entry."}));
  t.buffer_words = s.integer("buffer_words",
                             {16, int64_t{1} << 28, int64_t{1} << 20,
                              "Words of the shared data buffer; task regions must lie inside it."});
  t.memory_words = s.integer(
      "memory_words", {64, int64_t{1} << 30, int64_t{1} << 16,
                       "Words of system memory the task manager can address for descriptors; "
                       "a task list must fit."});
  t.memory_latency = static_cast<int>(s.integer(
      "memory_latency",
      {1, 64, 4,
       "Cycles from a descriptor read to its data in the system model (npugen schedule and "
       "the testbench's default); the RTL takes any in-order latency."}));
  t.cycle_bits = static_cast<int>(s.integer(
      "cycle_bits", {8, 32, 24, "Width of a task's work-cycle count (engine register)."}));
  t.planar_words_per_cycle = static_cast<int>(s.integer(
      "planar_words_per_cycle",
      {1, 1024, 4,
       "Words a planar engine reads plus writes per cycle; planar task durations of networks "
       "(npugen schedule --network) follow from it."}));
  s.finish();
  return t;
}

// The schema. Reading a document and describing the schema run this same code.
Config read(Reader& r, Section root) {
  Config c;

  Section design = root.section("design", "Identity of the generated design.");
  c.design.name = design.identifier(
      "name", "npu", "Design name: default output folder generated/<name> and file names.");
  c.design.module_prefix = design.identifier(
      "module_prefix", "npu",
      "Prefix of every generated module (<prefix>_pe_array, ...), so that several "
      "generated designs can live in one chip.");
  c.design.clock_mhz = design.number(
      "clock_mhz", {1, 5000, 200, "Target clock frequency, written into the timing constraints."});
  design.finish();

  Section pe = root.section("pe_array", "The PE array: T tiles of L multipliers each.");
  c.pe_array.tiles = static_cast<int>(
      pe.integer("tiles", {1, 1024, std::nullopt,
                           "T: tiles. Each has its own weight row and accumulator; the "
                           "activation vector is broadcast to all of them."}));
  c.pe_array.lanes = static_cast<int>(pe.integer(
      "lanes", {1, 1024, std::nullopt, "L: multipliers per tile, summed by its adder tree."}));
  c.pe_array.weight = read_format(pe, "weight", "Weight format.", 32);
  c.pe_array.activation = read_format(pe, "activation", "Activation format.", 32);
  Section acc = pe.section("accumulator", "Accumulator format (signed if either operand is).");
  c.pe_array.accumulator_width = static_cast<int>(
      acc.integer("width", {2, 64, 32, "Bits per accumulator; sums wrap modulo 2^width."}));
  acc.finish();
  Section tree = pe.section("adder_tree", "The adder tree that sums a tile's products.");
  c.pe_array.adder_tree_stages = static_cast<int>(tree.integer(
      "pipeline_stages",
      {0, 11, 1,
       "Pipeline registers in the adder tree, spread evenly from the products to the sum. "
       "Latency from a step to the accumulator is pipeline_stages + 1 cycles."}));
  tree.finish();
  c.pe_array.zero_skip = read_zero_skip(r, pe, c.pe_array);

  r.rule("pe_array.tiles x pe_array.lanes is at most 65536 multipliers.");
  const int64_t multipliers = int64_t{c.pe_array.tiles} * c.pe_array.lanes;
  if (multipliers > 65536) {
    r.error(pe.location_of("lanes"), pe.path_of("lanes"),
            fmt::format("tiles x lanes = {} x {} = {} multipliers; at most 65536 are supported",
                        c.pe_array.tiles, c.pe_array.lanes, multipliers));
  }
  r.rule(
      "pe_array.accumulator.width is at least weight.width + activation.width, so that one "
      "product fits in an accumulator.");
  const int product_width = c.pe_array.weight.width + c.pe_array.activation.width;
  if (c.pe_array.accumulator_width < product_width) {
    r.error(acc.location_of("width"), acc.path_of("width"),
            fmt::format("an accumulator of {} bits cannot hold one {}-bit x {}-bit product "
                        "({} bits); make it at least {} bits wide",
                        c.pe_array.accumulator_width, c.pe_array.weight.width,
                        c.pe_array.activation.width, product_width, product_width));
  }
  r.rule(
      "pe_array.adder_tree.pipeline_stages is at most ceil(log2(lanes)) + 1: one register "
      "after the multipliers and one after each level of the tree.");
  const int max_stages = ceil_log2(c.pe_array.lanes) + 1;
  if (c.pe_array.adder_tree_stages > max_stages) {
    r.error(
        tree.location_of("pipeline_stages"), tree.path_of("pipeline_stages"),
        fmt::format("{} pipeline stages do not fit a tree over {} lanes: it has {} "
                    "register positions (after the products and after each of its {} "
                    "levels)",
                    c.pe_array.adder_tree_stages, c.pe_array.lanes, max_stages, max_stages - 1));
  }
  pe.finish();

  c.vq = read_vq(r, root);
  c.tasks = read_tasks(root);

  Section sim = root.section("sim", "Defaults of the co-simulation stimulus (npugen sim).");
  c.sim.cycles = sim.integer(
      "cycles", {1, 4'000'000'000, 20000, "Clock cycles to simulate (--cycles overrides)."});
  c.sim.seed =
      sim.integer("seed", {0, 4'294'967'295, 1, "Seed of the random stimulus (--seed overrides)."});
  c.sim.valid_probability =
      sim.number("valid_probability",
                 {0.01, 1, 0.9, "Probability that a cycle presents a step; the rest are bubbles."});
  c.sim.max_dot_length = static_cast<int>(sim.integer(
      "max_dot_length", {1, 65536, 16, "Longest dot product, in steps, the stimulus draws."}));
  sim.finish();

  root.finish();
  return c;
}

LoadResult validate(const YAML::Node& document, const std::string& display_name) {
  LoadResult result;
  Reader reader(display_name, result.diagnostics);
  Config c = read(reader, reader.root(document));
  if (result.diagnostics.empty()) result.config = std::move(c);
  return result;
}

}  // namespace

LoadResult load_config_text(const std::string& text, const std::string& display_name) {
  YAML::Node document;
  try {
    document = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    LoadResult result;
    result.diagnostics.push_back(Diagnostic{display_name, e.mark.line + 1, e.mark.column + 1, "",
                                            "malformed YAML: " + e.msg});
    return result;
  }
  LoadResult result = validate(document, display_name);
  if (result.config) result.config->source = display_name;
  return result;
}

LoadResult load_config(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::string text;
  try {
    text = util::read_input_file(file);
  } catch (const util::InputError& e) {
    return LoadResult{std::nullopt, {Diagnostic{name, 0, 0, "", e.what()}}};
  }
  return load_config_text(text, name);
}

Schema describe_schema() {
  Schema schema;
  Reader reader(schema);
  read(reader, reader.root());
  return schema;
}

namespace {
nlohmann::json zero_skip_json(const ZeroSkipConfig& z) {
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& l : z.levels) {
    levels.push_back(
        {{"enabled", l.enabled}, {"lookahead", l.lookahead}, {"lookaside", l.lookaside}});
  }
  return nlohmann::json{{"enabled", z.enabled},
                        {"levels", levels},
                        {"act_rows_per_cycle", z.act_rows_per_cycle},
                        {"max_rows", z.max_rows},
                        {"step_buffer_depth", z.step_buffer_depth}};
}

nlohmann::json tasks_json(const TasksConfig& t) {
  return nlohmann::json{{"enabled", t.enabled},
                        {"entries", t.entries},
                        {"queues", t.queues},
                        {"neural_engines", t.neural_engines},
                        {"planar_engines", t.planar_engines},
                        {"config_queue_depth", t.config_queue_depth},
                        {"buffer_words", t.buffer_words},
                        {"memory_words", t.memory_words},
                        {"memory_latency", t.memory_latency},
                        {"cycle_bits", t.cycle_bits},
                        {"planar_words_per_cycle", t.planar_words_per_cycle}};
}

nlohmann::json vq_json(const VqConfig& v) {
  return nlohmann::json{{"enabled", v.enabled},
                        {"rows", v.rows},
                        {"row_weights", v.row_weights},
                        {"copies", v.copies},
                        {"min_vector_length", v.min_vector_length},
                        {"weight_format", v.weight_format},
                        {"memory", v.memory}};
}
}  // namespace

nlohmann::json to_json(const Config& c) {
  auto format = [](const OperandFormat& f) {
    return nlohmann::json{{"width", f.width}, {"signed", f.is_signed}};
  };
  return nlohmann::json{{"design",
                         {{"name", c.design.name},
                          {"module_prefix", c.design.module_prefix},
                          {"clock_mhz", c.design.clock_mhz}}},
                        {"pe_array",
                         {{"tiles", c.pe_array.tiles},
                          {"lanes", c.pe_array.lanes},
                          {"weight", format(c.pe_array.weight)},
                          {"activation", format(c.pe_array.activation)},
                          {"accumulator", {{"width", c.pe_array.accumulator_width}}},
                          {"adder_tree", {{"pipeline_stages", c.pe_array.adder_tree_stages}}},
                          {"zero_skip", zero_skip_json(c.pe_array.zero_skip)}}},
                        {"vq", vq_json(c.vq)},
                        {"tasks", tasks_json(c.tasks)},
                        {"sim",
                         {{"cycles", c.sim.cycles},
                          {"seed", c.sim.seed},
                          {"valid_probability", c.sim.valid_probability},
                          {"max_dot_length", c.sim.max_dot_length}}}};
}

std::string config_hash(const Config& config) { return util::sha256_hex(to_json(config).dump()); }

}  // namespace npugen::config
