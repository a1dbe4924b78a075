// The dequantizer's files: its package (the block's constants and its register map's), its
// RTL, the register map's renderings and the synthesis script. The templates take every
// number from the package; the data here names modules and documents ports.
#include <fmt/format.h>

#include "blocks/vq/vq.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::vq {
namespace {

using emit::dec;
using emit::flag;
using emit::render;
using emit::TemplateData;

TemplateData vq_data(const elab::Design& design, const Design& v) {
  const auto& p = v.params;
  TemplateData d = emit::common_data(design, "//");
  d.set("pkg", v.package);
  d.set("dequant_module", v.dequant_module);
  d.set("codebook_module", v.codebook_module);
  d.set("rows", dec(p.rows));
  d.set("row_weights", dec(p.row_weights));
  d.set("copies", dec(p.copies));
  d.set("format", p.weight.name());
  d.set("min_vlen", dec(p.min_vector_length));
  d.set("ram", flag(v.ram));
  d.set("ram_module", emit::ram_1r1w_module(design));
  d.set("weight_width", dec(v.weight_width));
  d.set("index_bits", dec(p.index_bits()));
  d.set("beat_weights", dec(p.beat_weights()));
  d.set("row_log2", dec(p.row_log2()));
  d.set("has_offset", flag(v.offset_bits > 0));
  return d;
}

}  // namespace

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = dequant_module;
  const auto map = golden::vq_csr::register_map(params);
  emit::emit_package_with_registers(design, block(), constants(), map, files, out);
  const TemplateData d = vq_data(design, *this);
  if (ram) out.rtl.push_back(emit::emit_ram_1r1w(design, files));
  for (auto& path : emit::render_modules(d,
                                         {{codebook_module, "vq/codebook.sv.mustache"},
                                          {dequant_module, "vq/dequant.sv.mustache"}},
                                         files)) {
    out.rtl.push_back(std::move(path));
  }
  if (ram) {
    const uint64_t row_width = uint64_t{params.row_weights} * static_cast<uint64_t>(weight_width);
    for (unsigned p = 0; p < params.copies; ++p) {
      out.memories.push_back({fmt::format("g_lookup[{}].u_codebook.u_ram", p),
                              fmt::format("codebook, copy {}", p), params.rows, row_width,
                              row_width});
    }
  }
  // The codebook copies are inferred as memories (vq.memory: ram), or not (flops).
  TemplateData checks = d;
  checks.set("copies", dec(params.copies));
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files,
                                                render("vq/synth_checks.tcl.mustache", checks));
  return out;
}

}  // namespace npugen::blocks::vq
