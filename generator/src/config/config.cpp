#include "config/config.hpp"

#include <fmt/format.h>

#include "util/input_file.hpp"
#include "util/sha256.hpp"

namespace npugen::config {
namespace {

// The timing section: what the constraints and the timing flow assume.
void read_timing(Section& root, TimingConfig& t) {
  Section timing = root.section(
      "timing",
      "What the timing constraints (constraints/*.sdc) and the timing flow (npugen timing, "
      "docs/timing.md) assume around the design and of its memories.");
  // A time or load of 0 to 100 (ns or pF), its default the member's value on entry.
  const auto value = [&](const char* key, double& member, const char* doc) {
    member = timing.number(key, {0, 100, member, doc});
  };
  value("clock_uncertainty_ns", t.clock_uncertainty_ns,
        "Clock uncertainty of setup checks (jitter and skew before the clock tree), subtracted "
        "from the period.");
  value("hold_uncertainty_ns", t.hold_uncertainty_ns,
        "Clock uncertainty of hold checks (skew before the clock tree), added to every hold "
        "requirement.");
  value("clock_transition_ns", t.clock_transition_ns,
        "Transition of the ideal clock at every flip-flop.");
  t.io_delay_fraction = timing.number(
      "io_delay_fraction",
      {0, 0.9, t.io_delay_fraction,
       "Part of the clock period the logic outside the block takes before an input and after "
       "an output (set_input_delay, set_output_delay)."});
  t.driving_cell = timing.identifier(
      "driving_cell", t.driving_cell,
      "Liberty cell that drives every input but the clock (set_driving_cell); npugen timing "
      "refuses a liberty without it.");
  value("output_load_pf", t.output_load_pf, "Load on every output, in pF (set_load).");
  t.max_transition_ns = timing.number(
      "max_transition_ns",
      {0.01, 100, t.max_transition_ns,
       "Longest transition any net may have (set_max_transition): a net of too many loads "
       "fails it."});
  timing.integer("memory_macro_bits", t.memory_macro_bits, 1, int64_t{1} << 40,
                 "The timing flow makes every memory of at least this many bits a macro (a "
                 "black box with the timing below), smaller ones flip-flops.");
  value("memory_access_ns", t.memory_access_ns, "A memory macro's clock-to-read-data delay.");
  value("memory_setup_ns", t.memory_setup_ns,
        "A memory macro's setup time of its inputs before the clock.");
  value("memory_hold_ns", t.memory_hold_ns,
        "A memory macro's hold time of its inputs after the clock.");
  timing.finish();
}

// The schema. Reading a document and describing the schema run this same code: the
// design's identity, every part's section (each block's), the co-simulation defaults.
Config read(Reader& r, Section root, const Parts& parts) {
  Config c;
  c.parts = parts;

  Section design = root.section("design", "Identity of the generated design.");
  c.design.name = design.identifier(
      "name", c.design.name, "Design name: default output folder generated/<name> and file names.");
  c.design.module_prefix = design.identifier(
      "module_prefix", c.design.name,
      "Prefix of every generated module (<prefix>_pe_array, ...), so that several generated "
      "designs can live in one chip; two designs of different names never share a module name "
      "unless a prefix says so.",
      "design.name");
  c.design.clock_mhz =
      design.number("clock_mhz", {1, 5000, c.design.clock_mhz,
                                  "Target clock frequency, written into the timing constraints."});
  design.finish();

  for (const SchemaPart* part : parts) part->read(r, root, c);

  read_timing(root, c.timing);

  Section sim = root.section("sim", "Defaults of the co-simulation stimulus (npugen sim).");
  sim.integer("cycles", c.sim.cycles, 1, 4'000'000'000,
              "Clock cycles to simulate (--cycles overrides); the NPU's co-simulation runs "
              "a random network, drawn so that the golden model alone finishes it in half "
              "of them, then further programs while the budget lasts (docs/npu.md). A run "
              "that compares nothing fails.");
  sim.integer("seed", c.sim.seed, 0, 4'294'967'295,
              "Seed of the random stimulus (--seed overrides).");
  c.sim.valid_probability =
      sim.number("valid_probability", {0.01, 1, c.sim.valid_probability,
                                       "Probability that a cycle presents a step; the rest are "
                                       "bubbles."});
  c.sim.ready_probability =
      sim.number("ready_probability",
                 {0.01, 1, c.sim.ready_probability,
                  "Probability that a block's output stream is ready in a cycle (the benches' "
                  "back-pressure); in the other cycles the block must hold its output."});
  sim.integer("max_dot_length", c.sim.max_dot_length, 1, 65536,
              "Longest dot product, in steps, the stimulus draws.");
  sim.finish();

  root.finish();
  return c;
}

LoadResult validate(const YAML::Node& document, const std::string& display_name,
                    const Parts& parts) {
  LoadResult result;
  Reader reader(display_name, result.diagnostics);
  Config c = read(reader, reader.root(document), parts);
  c.resolved = reader.resolved();
  if (result.diagnostics.empty()) result.config = std::move(c);
  return result;
}

}  // namespace

LoadResult load_config_text(const std::string& text, const std::string& display_name,
                            const Parts& parts) {
  YAML::Node document;
  try {
    document = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    LoadResult result;
    result.diagnostics.push_back(Diagnostic{display_name, e.mark.line + 1, e.mark.column + 1, "",
                                            "malformed YAML: " + e.msg});
    return result;
  }
  LoadResult result = validate(document, display_name, parts);
  if (result.config) result.config->source = display_name;
  return result;
}

LoadResult load_config(const std::filesystem::path& file, const Parts& parts) {
  const std::string name = file.string();
  std::string text;
  try {
    text = util::read_input_file(file);
  } catch (const util::InputError& e) {
    return LoadResult{std::nullopt, {Diagnostic{name, 0, 0, "", e.what()}}};
  }
  return load_config_text(text, name, parts);
}

Schema describe_schema(const Parts& parts) {
  Schema schema;
  Reader reader(schema);
  read(reader, reader.root(), parts);
  return schema;
}

nlohmann::json to_json(const Config& c) { return c.resolved; }

std::string config_hash(const Config& config) { return util::sha256_hex(to_json(config).dump()); }

}  // namespace npugen::config
