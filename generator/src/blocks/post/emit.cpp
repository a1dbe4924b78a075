// The post unit's files: its package (the block's constants and its register map's), its
// RTL (the unit and one lane's parameter table), the register map's renderings and the
// synthesis script.
#include <fmt/format.h>

#include "blocks/post/post.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::post {

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = post_module;
  const auto map = golden::post_csr::register_map(params);
  emit::emit_package_with_registers(design, block(), constants(), map, files, out);
  emit::TemplateData d = emit::common_data(design, "//");
  d.set("pkg", package);
  d.set("post_module", post_module);
  d.set("table_module", table_module);
  d.set("lanes", emit::dec(params.lanes));
  d.set("shift_bits", emit::dec(golden::PostParams::kShiftBits));
  for (auto& path : emit::render_modules(
           d, {{table_module, "post/table.sv.mustache"}, {post_module, "post/post.sv.mustache"}},
           files)) {
    out.rtl.push_back(std::move(path));
  }
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);
  return out;
}

}  // namespace npugen::blocks::post
