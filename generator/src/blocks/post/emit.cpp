// The post unit's files: its package (the block's constants and its register map's), its
// RTL (the memory of its parameter table, and the unit), the register map's renderings and the
// synthesis script.
#include <fmt/format.h>

#include "blocks/post/post.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
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
  d.set("ram_module", ram_module);
  d.set("lanes", emit::dec(params.lanes));
  d.set("stages", emit::dec(params.pipeline_stages));
  d.set("split_product", emit::flag(params.pipeline_stages >= kSplitProductStages));
  d.set("shift_bits", emit::dec(golden::PostParams::kShiftBits));
  out.rtl.push_back(emit::emit_ram_1r1w(design, files));
  for (auto& path : emit::render_modules(d, {{post_module, "post/post.sv.mustache"}}, files)) {
    out.rtl.push_back(std::move(path));
  }
  for (unsigned l = 0; l < params.lanes; ++l) {
    const auto width = static_cast<uint64_t>(entry_width);
    out.memories.push_back({fmt::format("g_lane[{}].u_table", l),
                            fmt::format("parameter table, lane {}", l), params.groups(), width,
                            width});
  }
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);
  return out;
}

}  // namespace npugen::blocks::post
