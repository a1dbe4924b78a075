// The address generator's files: its package (the block's constants and its register
// map's), its RTL, the register map's renderings and the synthesis script, which asserts
// that synthesis finds no multiplier in it.
#include <fmt/format.h>

#include "blocks/agu/agu.hpp"
#include "elab/design.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/register_map.hpp"
#include "emit/sv_package.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::agu {

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = agu_module;
  const auto map = golden::agu_csr::register_map(params);
  elab::SvConstants constants = this->constants();
  for (auto& c : emit::register_map_sv_constants(map)) constants.push_back(std::move(c));
  out.rtl.push_back(emit::emit_package(design, block().name(), block().title(), constants, files));
  emit::TemplateData d = emit::common_data(design, "//");
  d.set("pkg", package);
  d.set("agu_module", agu_module);
  d.set("tiles", emit::dec(params.tiles));
  d.set("lanes", emit::dec(params.lanes));
  const std::string path = fmt::format("rtl/{}.sv", agu_module);
  files[path] = emit::render("agu/agu.sv.mustache", d);
  out.rtl.push_back(path);
  out.register_maps = emit::write_register_map(map, emit::register_map_names(design), files);
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files, "",
                                                emit::render("agu/synth_checks.tcl.mustache", d));
  return out;
}

}  // namespace npugen::blocks::agu
