#include "blocks/random_config.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "blocks/block.hpp"
#include "blocks/pe_array/pe_array.hpp"
#include "blocks/random_draw.hpp"
#include "npugen/golden/planar/params.hpp"
#include "npugen/golden/post/params.hpp"

namespace npugen::blocks {
namespace {

// The design's identity, every block's section (each block draws its own), the
// co-simulation defaults.
std::string draw(std::mt19937_64& rng, const std::string& name, const RandomConfigOptions& o) {
  RandomDraw d(rng, o.small);
  YAML::Node root(YAML::NodeType::Map);
  YAML::Node design(YAML::NodeType::Map);
  design["name"] = name;
  if (d.chance(60))
    design["module_prefix"] = d.chance(50) ? name : fmt::format("r{}", d.below(1000));
  if (d.chance(80))
    design["clock_mhz"] = d.pick(std::vector<double>{1, 100, 137.5, 200, 1000, 5000});
  root["design"] = design;
  for (const Block* b : all()) b->draw(d, root);
  YAML::Node sim(YAML::NodeType::Map);
  DrawnSection s(d, sim);
  // A budget a co-simulation reaches its checks in (every bench sizes its stimulus to it),
  // and runs in minutes at most: the schema's range (to 4e9, or a single cycle) is not a
  // co-simulation's.
  s.set("cycles", d.small() ? d.range(1000, 6000) : d.size(1000, 200'000));
  s.set("seed", d.range(0, 4'294'967'295));
  s.set("valid_probability", d.pick(std::vector<double>{0.01, 0.25, 0.5, 0.9, 1.0}));
  s.set("ready_probability", d.pick(std::vector<double>{0.01, 0.3, 0.8, 1.0}));
  s.set("max_dot_length", d.size(1, d.small() ? 256 : 65536));
  root["sim"] = sim;
  // The timing section from a generator of its own, seeded from a copy of the main one (which
  // it does not advance): every section is drawn as it was before this one existed, so a
  // seed's configurations still reproduce, each with a timing section added.
  std::mt19937_64 peek = rng;
  std::mt19937_64 timing_rng(peek() ^ 0x9e3779b97f4a7c15ULL);
  RandomDraw td(timing_rng, o.small);
  YAML::Node timing(YAML::NodeType::Map);
  DrawnSection t(td, timing);
  t.set("clock_uncertainty_ns", td.pick(std::vector<double>{0, 0.1, 0.25, 1}));
  t.set("hold_uncertainty_ns", td.pick(std::vector<double>{0, 0.05, 0.1, 0.5}));
  t.set("clock_transition_ns", td.pick(std::vector<double>{0, 0.15, 0.5}));
  t.set("io_delay_fraction", td.pick(std::vector<double>{0, 0.2, 0.3, 0.9}));
  t.set("driving_cell", td.pick(std::vector<std::string>{"BUFX2", "BUFX4", "INVX1"}));
  t.set("output_load_pf", td.pick(std::vector<double>{0, 0.04, 0.5}));
  t.set("max_transition_ns", td.pick(std::vector<double>{0.01, 1, 5}));
  t.set("memory_macro_bits", td.size(1, int64_t{1} << 20));
  t.set("memory_access_ns", td.pick(std::vector<double>{0, 1.5, 2, 5}));
  t.set("memory_setup_ns", td.pick(std::vector<double>{0, 0.4, 1}));
  t.set("memory_hold_ns", td.pick(std::vector<double>{0, 0.1, 0.5}));
  if (td.chance(80)) root["timing"] = timing;
  // Keys added to sections after their draws were fixed come from the same generator.
  if (root["post"] && td.chance(88)) {
    root["post"]["pipeline_stages"] =
        td.range(golden::PostParams::kMinStages, golden::PostParams::kMaxStages);
  }
  // The adder tree's largest depth, one above its positions, registers the tiles' inputs.
  if (const YAML::Node pe = root["pe_array"];
      pe && pe["adder_tree"] && pe["lanes"] && td.chance(15)) {
    root["pe_array"]["adder_tree"]["pipeline_stages"] =
        pe_array::max_tree_stages(pe["lanes"].as<unsigned>());
  }
  if (root["planar"] && td.chance(50)) {
    root["planar"]["pipeline_stages"] = td.range(0, golden::PlanarParams::kMaxOutStages);
  }
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace

RandomConfig random_config(std::mt19937_64& rng, const std::string& name,
                           const RandomConfigOptions& options) {
  RandomConfig result;
  while (true) {
    result.yaml = draw(rng, name, options);
    const config::LoadResult loaded = load_config_text(result.yaml, name + ".yaml");
    if (loaded.config) return result;
    result.rejections.push_back(loaded.diagnostics.front().format());
  }
}

}  // namespace npugen::blocks
