#include "emit/sim_emitter.hpp"

#include <fmt/format.h>

#include "emit/eda_emitter.hpp"
#include "emit/embedded_files.hpp"
#include "emit/rtl_emitter.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {

void emit_sim(const elab::Design& design, util::FileMap& files) {
  const elab::PeArrayDesign& pe = design.pe_array;
  const auto& sim = design.config.sim;

  TemplateData mk = common_data(design, "#");
  mk.set("zero_skip", flag(design.zero_skip.enabled));
  mk.set("filelist", eda_paths(design).filelist);
  mk.set("vq", flag(design.vq.enabled));
  mk.set("vq_top", design.vq.dequant_module);
  mk.set("tasks", flag(design.tasks.enabled));
  mk.set("tasks_top", design.tasks.unit_module);
  std::string blocks = "pe_array";
  if (design.vq.enabled) blocks += design.tasks.enabled ? ", vq" : " and vq";
  if (design.tasks.enabled) blocks += " and tasks";
  mk.set("blocks", blocks);
  files["sim/Makefile"] = render("sim_makefile.mustache", mk);

  TemplateData p = common_data(design, "//");
  p.set("tiles", std::to_string(pe.tiles));
  p.set("lanes", std::to_string(pe.lanes));
  p.set("weight_width", std::to_string(pe.weight_width));
  p.set("weight_signed", pe.weight_signed ? "true" : "false");
  p.set("act_width", std::to_string(pe.act_width));
  p.set("act_signed", pe.act_signed ? "true" : "false");
  p.set("acc_width", std::to_string(pe.acc_width));
  p.set("stages", std::to_string(pe.tree_stages));
  p.set("latency", std::to_string(pe.latency));
  p.set("sim_cycles", std::to_string(sim.cycles));
  p.set("sim_seed", std::to_string(sim.seed));
  p.set("sim_valid_probability", fmt::format("{:.17g}", sim.valid_probability));
  p.set("sim_max_dot_length", std::to_string(sim.max_dot_length));
  const auto& z = design.zero_skip;
  p.set("zero_skip", flag(z.enabled));
  p.set("zs_h", std::to_string(z.params.intra.lookahead));
  p.set("zs_d", std::to_string(z.params.intra.lookaside));
  p.set("zs_big_h", std::to_string(z.params.inter.lookahead));
  p.set("zs_big_d", std::to_string(z.params.inter.lookaside));
  p.set("zs_rows_per_cycle", std::to_string(z.params.act_rows_per_cycle));
  p.set("zs_max_rows", std::to_string(z.params.max_rows));
  p.set("zs_depth", std::to_string(z.params.step_buffer_depth));
  p.set("zs_window", std::to_string(z.window));
  const auto& vq = design.vq.params;
  p.set("vq", flag(design.vq.enabled));
  p.set("vq_rows", std::to_string(vq.rows));
  p.set("vq_row_weights", std::to_string(vq.row_weights));
  p.set("vq_copies", std::to_string(vq.copies));
  p.set("vq_min_vlen", std::to_string(vq.min_vector_length));
  p.set("vq_width", std::to_string(vq.weight.width));
  p.set("vq_index_bits", std::to_string(vq.index_bits()));
  const char* kinds[] = {"kInt", "kUint", "kFp16", "kBf16"};
  p.set("vq_kind", kinds[static_cast<int>(vq.weight.kind)]);
  const auto& tp = design.tasks.params;
  p.set("tasks", flag(design.tasks.enabled));
  p.set("tasks_entries", std::to_string(tp.entries));
  p.set("tasks_queues", std::to_string(tp.queues));
  p.set("tasks_neural", std::to_string(tp.neural_engines));
  p.set("tasks_planar", std::to_string(tp.planar_engines));
  p.set("tasks_cq", std::to_string(tp.config_queue_depth));
  p.set("tasks_buffer_words", std::to_string(tp.buffer_words));
  p.set("tasks_memory_words", std::to_string(tp.memory_words));
  p.set("tasks_latency", std::to_string(tp.memory_latency));
  p.set("tasks_cycle_bits", std::to_string(tp.cycle_bits));
  p.set("tasks_region_bits", std::to_string(tp.region_bits()));
  files["sim/design_params.hpp"] = render("design_params.hpp.mustache", p);

  // The Icarus replay bench drives the dense array's ports; the zero-skipping array is
  // compiled by Icarus in the test suite instead.
  if (!z.enabled) {
    TemplateData icarus = pe_array_port_data(design, "//");
    icarus.set("filelist", eda_paths(design).filelist);
    files[fmt::format("sim/{}_icarus_tb.sv", design.top)] = render("icarus_tb.sv.mustache", icarus);
  }

  // Testbench and golden-model sources, exactly as in the npugen source tree.
  for (const auto& [path, text] : embedded_files()) {
    if (path.starts_with("tb/") || path.starts_with("golden/")) {
      files[fmt::format("sim/src/{}", path)] = std::string(text);
    }
  }
}

}  // namespace npugen::emit
