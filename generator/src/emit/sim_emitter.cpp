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
  mk.set("filelist", eda_paths(design).filelist);
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
  files["sim/design_params.hpp"] = render("design_params.hpp.mustache", p);

  TemplateData icarus = pe_array_port_data(design, "//");
  icarus.set("filelist", eda_paths(design).filelist);
  files[fmt::format("sim/{}_icarus_tb.sv", design.top)] = render("icarus_tb.sv.mustache", icarus);

  // Testbench and golden-model sources, exactly as in the npugen source tree.
  for (const auto& [path, text] : embedded_files()) {
    if (path.starts_with("tb/") || path.starts_with("golden/")) {
      files[fmt::format("sim/src/{}", path)] = std::string(text);
    }
  }
}

}  // namespace npugen::emit
