#include "elab/design.hpp"

#include "version.hpp"

namespace npugen::elab {

Design elaborate(const config::Config& config) {
  Design d;
  d.config = config;
  d.config_file = config.source.filename().string();
  if (d.config_file.empty()) d.config_file = "<text>";
  d.config_hash = config::config_hash(config);
  d.pe_array = elaborate_pe_array(config);
  d.zero_skip = elaborate_zero_skip(config);
  d.vq = elaborate_vq(config);
  d.tasks = elaborate_tasks(config);
  d.top = d.pe_array.array_module;
  return d;
}

nlohmann::json resolved_json(const Design& d) {
  const PeArrayDesign& pe = d.pe_array;
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& level : pe.levels) {
    levels.push_back({{"level", level.index},
                      {"nodes", level.nodes},
                      {"width", level.width},
                      {"registered", level.registered}});
  }
  nlohmann::json derived_zs = nullptr;
  if (d.zero_skip.enabled) {
    const ZeroSkipDesign& z = d.zero_skip;
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& f : z.layout.fields()) {
      fields.push_back({{"name", f.name}, {"lsb", f.lsb}, {"bits", f.width}});
    }
    derived_zs = {{"window_rows", z.window},
                  {"lane_mux_inputs", z.params.lane_selects()},
                  {"control_word_bits", z.layout.width()},
                  {"control_fields", fields},
                  {"row_address_bits", z.row_bits}};
  }
  nlohmann::json derived_vq = nullptr;
  if (d.vq.enabled) {
    const auto& p = d.vq.params;
    derived_vq = {{"index_bits", p.index_bits()},
                  {"weight_bits", d.vq.weight_width},
                  {"row_bits", d.vq.row_width},
                  {"beat_weights", p.beat_weights()},
                  {"vector_lengths_log2", {p.min_vlen_log2(), p.row_log2()}},
                  {"codebook_bits_per_copy", uint64_t{p.rows} * d.vq.row_width},
                  {"modules", {d.vq.dequant_module, d.vq.codebook_module}}};
  }
  nlohmann::json derived_tasks = nullptr;
  if (d.tasks.enabled) {
    const auto& p = d.tasks.params;
    derived_tasks = {{"region_bits", p.region_bits()},
                     {"memory_address_bits", p.memory_address_bits()},
                     {"entry_bits", p.entry_bits()},
                     {"sequence_bits", p.seq_bits()},
                     {"task_config_bits", d.tasks.config_width},
                     {"modules",
                      {d.tasks.unit_module, d.tasks.manager_module, d.tasks.config_queue_module,
                       d.tasks.buffer_module}}};
  }
  return nlohmann::json{{"generated_by", {{"tool", "npugen"}, {"version", kVersion}}},
                        {"config_file", d.config_file},
                        {"config_hash", d.config_hash},
                        {"config", config::to_json(d.config)},
                        {"derived",
                         {{"top", d.top},
                          {"pe_array",
                           {{"product_width", pe.product_width},
                            {"product_signed", pe.product_signed},
                            {"sum_width", pe.sum_width},
                            {"latency_cycles", pe.latency},
                            {"multipliers", pe.tiles * pe.lanes},
                            {"adder_tree_levels", levels},
                            {"modules", {pe.array_module, pe.tile_module, pe.tree_module}}}},
                          {"zero_skip", derived_zs},
                          {"vq", derived_vq},
                          {"tasks", derived_tasks}}}};
}

}  // namespace npugen::elab
