// The sequencer's files: its package (its constants and its register map's), its RTL (the
// memory and the top), the register map's renderings and the synthesis script. Its
// filelist starts with the RTL of the blocks it instantiates (the address generator, the
// PE array, the post unit), as they list it.
#include <fmt/format.h>

#include <algorithm>

#include "blocks/sequencer/sequencer.hpp"
#include "blocks/zs/zs.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::sequencer {

BlockFiles Design::emit(const elab::Design& elab, util::FileMap& files) const {
  BlockFiles out;
  out.top = seq_module;
  // The blocks inside, leaves first (rendered again into a scratch map: the same text).
  std::vector<const char*> inside = {"agu", "pe_array", "post"};
  if (design.zs) inside.push_back("zs");
  for (const char* name : inside) {
    const BlockDesign* inner = elab.find(name);
    if (inner == nullptr) throw std::logic_error(fmt::format("the sequencer needs block {}", name));
    util::FileMap scratch;
    BlockFiles inner_files = inner->emit(elab, scratch);
    if (std::string_view(name) == "post")
      add_memories(out.memories, inner_files.memories, "u_post.");
    for (auto& path : inner_files.rtl) {
      // Shared files (the FIFO) once.
      if (std::find(out.rtl.begin(), out.rtl.end(), path) == out.rtl.end()) {
        out.rtl.push_back(std::move(path));
      }
    }
  }
  for (auto shared : {emit::emit_fifo(elab, files), emit::emit_ram_1r1w(elab, files)}) {
    if (std::find(out.rtl.begin(), out.rtl.end(), shared) == out.rtl.end()) {
      out.rtl.push_back(std::move(shared));
    }
  }
  const auto map = golden::sequencer_csr::register_map(design);
  emit::emit_package_with_registers(elab, block(), constants(), map, files, out);
  emit::TemplateData d = emit::common_data(elab, "//");
  d.set("pkg", package);
  d.set("seq_module", seq_module);
  d.set("ram_module", ram_module);
  d.set("agu_module", agu_module);
  d.set("array_module", array_module);
  d.set("post_module", post_module);
  d.set("fifo_module", emit::fifo_module(elab));
  d.set("tiles", emit::dec(design.tiles()));
  d.set("lanes", emit::dec(design.lanes()));
  d.set("post_lanes", emit::dec(design.post.lanes));
  d.set("zs", emit::flag(design.zs.has_value()));
  if (design.zs) {
    const auto* zs = dynamic_cast<const zs::Design*>(elab.find("zs"));
    if (zs == nullptr) throw std::logic_error("the sequencer's zero-skip path needs block zs");
    d.set("zs_pkg", zs->package);
    d.set("zs_array_module", zs->array_module);
  }
  for (auto& path :
       emit::render_modules(d, {{seq_module, "sequencer/sequencer.sv.mustache"}}, files)) {
    out.rtl.push_back(std::move(path));
  }
  // Its own memories (the ones of the address generator, the PE arrays: none).
  const auto& g = design;
  const uint64_t lanes = g.lanes(), row_bits = uint64_t{g.tiles()} * g.lanes() * 8;
  for (int b = 0; b < 2; ++b) {
    out.memories.push_back({fmt::format("g_buffer[{}].u_buffer", b),
                            fmt::format("activation buffer {}", b == 0 ? 'A' : 'B'),
                            g.agu.act_words, lanes * 8, 8});
  }
  const uint64_t store_bits = uint64_t{g.store_row_bytes()} * 8;
  out.memories.push_back({"u_store", "weight store", g.agu.weight_rows, store_bits, store_bits});
  for (int c = 0; c < 2; ++c) {
    out.memories.push_back({fmt::format("g_cache[{}].u_cache", c),
                            fmt::format("weight cache, set {}", c), g.seq.cache_rows, row_bits, 8});
  }
  if (g.agu.mec_window > 0) {
    out.memories.push_back({"g_window.u_window", "MEC window", g.agu.mec_window, lanes * 8, 8});
  }
  out.synthesis_script =
      emit::synthesis_script(elab, block(), out.top, out.rtl, files,
                             emit::render("sequencer/synth_checks.tcl.mustache", d));
  return out;
}

}  // namespace npugen::blocks::sequencer
