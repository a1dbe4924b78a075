// The task unit's files: its package (the block's constants and its register map's), its
// RTL (unit, manager, task buffer; the configuration queue is the shared FIFO), the
// register map's renderings and the synthesis script. The templates take every number from
// the package; the data here names modules and documents them.
#include <fmt/format.h>

#include "blocks/tasks/tasks.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::tasks {

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  using emit::dec;
  BlockFiles out;
  out.top = unit_module;
  const auto map = golden::tasks_csr::register_map(params);
  emit::emit_package_with_registers(design, block(), constants(), map, files, out);
  out.rtl.push_back(emit::emit_fifo(design, files));

  emit::TemplateData d = emit::common_data(design, "//");
  d.set("pkg", package);
  d.set("unit_module", unit_module);
  d.set("manager_module", manager_module);
  d.set("buffer_module", buffer_module);
  d.set("fifo_module", emit::fifo_module(design));
  d.set("queues", dec(params.queues));
  d.set("entries", dec(params.entries));
  d.set("cq_depth", dec(params.config_queue_depth));
  d.set("neural_engines", dec(params.neural_engines));
  d.set("planar_engines", dec(params.planar_engines));
  for (auto& path : emit::render_modules(d,
                                         {{manager_module, "tasks/manager.sv.mustache"},
                                          {buffer_module, "tasks/buffer.sv.mustache"},
                                          {unit_module, "tasks/tasks.sv.mustache"}},
                                         files)) {
    out.rtl.push_back(std::move(path));
  }
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);
  return out;
}

}  // namespace npugen::blocks::tasks
