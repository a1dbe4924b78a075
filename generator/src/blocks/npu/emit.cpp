// The NPU top's files: its package (its constants and its register map's), its RTL (the
// engines' files first, as they list them, then the top), the register map's renderings and
// the synthesis script.
#include <fmt/format.h>

#include <algorithm>

#include "blocks/npu/npu.hpp"
#include "blocks/vq/vq.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::npu {

BlockFiles Design::emit(const elab::Design& elab, util::FileMap& files) const {
  BlockFiles out;
  out.top = npu_module;
  // The engines inside, leaves first (rendered again into a scratch map: the same text);
  // a file both list (the common queue) once.
  std::vector<const char*> inside = {"sequencer", "planar", "tasks"};
  if (design.vq) inside.push_back("vq");
  for (const char* name : inside) {
    const BlockDesign* inner = elab.find(name);
    if (inner == nullptr) throw std::logic_error(fmt::format("the NPU needs block {}", name));
    util::FileMap scratch;
    BlockFiles inner_files = inner->emit(elab, scratch);
    const std::string_view n(name);
    add_memories(out.memories, inner_files.memories,
                 n == "sequencer" ? "u_sequencer."
                 : n == "planar"  ? "u_planar."
                 : n == "tasks"   ? "u_tasks."
                                  : "u_vq_load.u_dequant.");
    for (auto& path : inner_files.rtl) {
      if (std::find(out.rtl.begin(), out.rtl.end(), path) == out.rtl.end()) {
        out.rtl.push_back(std::move(path));
      }
    }
  }
  const auto map = golden::npu_csr::register_map(design);
  emit::emit_package_with_registers(elab, block(), constants(), map, files, out);
  emit::TemplateData d = emit::common_data(elab, "//");
  d.set("pkg", package);
  d.set("npu_module", npu_module);
  d.set("seq_module", seq_module);
  d.set("planar_module", planar_module);
  d.set("tasks_module", tasks_module);
  d.set("cmd_module", cmd_module);
  d.set("dma_module", dma_module);
  d.set("fifo_module", emit::fifo_module(elab));
  d.set("lanes", emit::dec(design.lanes()));
  d.set("vq", emit::flag(design.vq.has_value()));
  std::vector<std::pair<std::string, std::string>> modules = {{cmd_module, "npu/cmd.sv.mustache"},
                                                              {dma_module, "npu/dma.sv.mustache"}};
  if (design.vq) {
    const auto* vq = dynamic_cast<const vq::Design*>(elab.find("vq"));
    if (vq == nullptr) throw std::logic_error("the NPU's VQ loader needs block vq");
    d.set("vq_pkg", vq->package);
    d.set("dequant_module", vq->dequant_module);
    d.set("vq_load_module", vq_load_module);
    modules.emplace_back(vq_load_module, "npu/vq_load.sv.mustache");
  }
  modules.emplace_back(npu_module, "npu/npu.sv.mustache");
  for (auto& path : emit::render_modules(d, modules, files)) out.rtl.push_back(std::move(path));
  // The C driver (sw/), and its adapter for the co-simulation (sim/).
  emit::TemplateData c = emit::common_data(elab, "");
  const std::string& name = elab.config.design.name;
  c.set("npu", emit::upper_case(name + "_npu"));
  c.set("tasks", emit::upper_case(name + "_tasks"));
  c.set("guard", emit::upper_case(name + "_npu_driver_h"));
  c.set("seq_window", fmt::format("{:03x}", golden::npu_csr::kSequencerWindow));
  c.set("planar_window", fmt::format("{:03x}", golden::npu_csr::kPlanarWindow));
  c.set("own_window", fmt::format("{:03x}", golden::npu_csr::kOwnWindow));
  c.set("tasks_window", fmt::format("{:03x}", golden::npu_csr::kTasksWindow));
  c.set("base_entries", emit::dec(golden::npu_csr::kBaseEntries));
  files[fmt::format("sw/{}_npu_driver.h", name)] = emit::render("sw/npu_driver.h.mustache", c);
  files[fmt::format("sw/{}_npu_driver.c", name)] = emit::render("sw/npu_driver.c.mustache", c);
  emit::TemplateData h = emit::common_data(elab, "//");
  h.set("npu", emit::upper_case(name + "_npu"));
  files["sim/npu_driver.hpp"] = emit::render("sw/npu_driver.hpp.mustache", h);
  out.synth_options = " -noshare";
  out.synthesis_script = emit::synthesis_script(elab, block(), out.top, out.rtl, files,
                                                emit::render("npu/synth_checks.tcl.mustache", d),
                                                "", out.synth_options);
  return out;
}

}  // namespace npugen::blocks::npu
