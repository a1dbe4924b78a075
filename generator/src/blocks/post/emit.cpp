// The post unit's files: its package (the block's constants and its register map's), its
// RTL (the unit and one lane's parameter table), the register map's renderings and the
// synthesis script.
#include <fmt/format.h>

#include "blocks/post/post.hpp"
#include "elab/design.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/register_map.hpp"
#include "emit/sv_package.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::post {

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = post_module;
  const auto map = golden::post_csr::register_map(params);
  elab::SvConstants constants = this->constants();
  for (auto& c : emit::register_map_sv_constants(map)) constants.push_back(std::move(c));
  out.rtl.push_back(emit::emit_package(design, block().name(), block().title(), constants, files));
  emit::TemplateData d = emit::common_data(design, "//");
  d.set("pkg", package);
  d.set("post_module", post_module);
  d.set("table_module", table_module);
  d.set("lanes", emit::dec(params.lanes));
  d.set("shift_bits", emit::dec(golden::PostParams::kShiftBits));
  for (const auto& [module, tmpl] : {std::pair{table_module, "post/table.sv.mustache"},
                                     std::pair{post_module, "post/post.sv.mustache"}}) {
    const std::string path = fmt::format("rtl/{}.sv", module);
    files[path] = emit::render(tmpl, d);
    out.rtl.push_back(path);
  }
  out.register_maps = emit::write_register_map(map, emit::register_map_names(design), files);
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);
  return out;
}

}  // namespace npugen::blocks::post
