// The dequantizer's files: its RTL, register map (Markdown and C header) and synthesis
// script.
#include <fmt/format.h>

#include <algorithm>

#include "blocks/vq/vq.hpp"
#include "elab/design.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/templates.hpp"
#include "npugen/golden/common/bits.hpp"

namespace npugen::blocks::vq {
namespace {

using emit::dec;
using emit::file_header;
using emit::flag;
using emit::render;
using emit::TemplateData;
using emit::upper_case;

std::string registers_md() { return "docs/vq_registers.md"; }
std::string registers_h(const elab::Design& design) {
  return fmt::format("sw/{}_vq_regs.h", design.config.design.name);
}

TemplateData vq_data(const elab::Design& design, const Design& v) {
  const auto& p = v.params;
  const int w = v.weight_width;
  const int ib = static_cast<int>(p.index_bits());
  const int k_max = static_cast<int>(p.row_log2());
  const int k_min = static_cast<int>(p.min_vlen_log2());
  const int vb = static_cast<int>(p.vlen_bits());
  const int copies = static_cast<int>(p.copies);
  TemplateData d = emit::common_data(design, "//");
  d.set("dequant_module", v.dequant_module);
  d.set("codebook_module", v.codebook_module);
  d.set("rows", dec(p.rows));
  d.set("row_weights", dec(p.row_weights));
  d.set("copies", dec(copies));
  d.set("copies_msb", dec(copies - 1));
  d.set("format", p.weight.name());
  d.set("min_vlen", dec(p.min_vector_length));
  d.set("ram", flag(v.ram));
  d.set("weight_width", dec(w));
  d.set("index_bits", dec(ib));
  d.set("row_bits", dec(ib));
  d.set("row_msb", dec(ib - 1));
  d.set("row_width", dec(v.row_width));
  d.set("row_width_msb", dec(v.row_width - 1));
  d.set("indices_msb", dec(copies * ib - 1));
  d.set("beat_weights", dec(p.beat_weights()));
  d.set("beat_msb", dec(v.beat_width - 1));
  d.set("row_log2", dec(k_max));
  d.set("vlen_bits", dec(vb));
  d.set("vlen_msb", dec(vb - 1));
  d.set("vlen_pad", dec(golden::vq_csr::kCtrlVlenBits - vb));
  d.set("vlen_ok", k_min > 0 ? fmt::format("wr_vlen >= 4'd{} && wr_vlen <= 4'd{}", k_min, k_max)
                             : fmt::format("wr_vlen <= 4'd{}", k_max));
  d.set("base_read", ib == 32 ? "base_q" : fmt::format("{{{}'d0, base_q}}", 32 - ib));
  d.set("info_hex", fmt::format("{:08x}", golden::vq_csr::info_value(p)));

  // csr_wdata_i bits no field holds: fields are [1:0] (STATUS), [7:4] (CTRL), [ib-1:0] (BASE).
  std::vector<bool> used(32, false);
  used[0] = used[1] = true;
  for (int b = 4; b < 8; ++b) used[b] = true;
  for (int b = 0; b < ib; ++b) used[b] = true;
  std::string unused;
  for (int b = 31; b >= 0;) {
    if (used[b]) {
      --b;
      continue;
    }
    int lo = b;
    while (lo > 0 && !used[lo - 1]) --lo;
    unused += fmt::format("{}csr_wdata_i[{}:{}]", unused.empty() ? "" : ", ", b, lo);
    b = lo - 1;
  }
  d.set("unused_wdata", "{" + unused + "}");

  const int ob = v.offset_bits;
  d.set("has_offset", flag(ob > 0));
  d.set("offset_bits", dec(ob));
  d.set("offsets_msb", dec(copies * std::max(ob, 1) - 1));
  d.set("row_mask", dec(p.row_weights - 1));
  d.set("index_low", ib >= ob
                         ? (ib == ob ? std::string("index") : fmt::format("index[{}:0]", ob - 1))
                         : fmt::format("{{{}'d0, index}}", ob - ib));
  if (ob > 0) {
    // Shift of lookup p's row by offset x W bits.
    const int sb = static_cast<int>(golden::ceil_log2(static_cast<uint64_t>(v.row_width)));
    d.set("row_shift",
          fmt::format(" >> ({{{}'d0, offset_q[p*{} +: {}]}} * {}'d{})", sb - ob, ob, ob, sb, w));
  } else {
    d.set("row_shift", "");
  }

  // Output weight q: for each supported m = 2^k with q < P x m, lookup q >> k, weight q mod m.
  kainjow::mustache::list positions;
  for (int q = 0; q < static_cast<int>(p.beat_weights()); ++q) {
    std::string expr = fmt::format("{}'d0", w);
    for (int k = k_max; k >= k_min; --k) {
      if (q >= (copies << k)) continue;
      const int lookup = q >> k;
      const int j = q & ((1 << k) - 1);
      expr = fmt::format("beat_vlen_q == {}'d{} ? lookup_vectors[{} +: {}]\n{:>{}}: {}", vb, k,
                         lookup * v.row_width + j * w, w, "", 6 + 23, expr);
    }
    TemplateData pos;
    pos.set("lsb", dec(q * w));
    pos.set("expr", expr);
    positions.push_back(pos);
  }
  d.set("positions", positions);
  return d;
}

std::string registers_markdown(const elab::Design& design, const Design& v) {
  const auto& p = v.params;
  std::string out = fmt::format(
      "<!-- {} -->\n# Registers of {}\n\n"
      "32-bit registers on `csr_addr_i` (word index; byte offset = 4 x index). Codebook: {} rows "
      "x {} {} weight(s), {} copies ({} lookups per cycle), index width {} bits. The C header "
      "`{}` holds the same map.\n\n"
      "| register | index | byte offset | meaning |\n| --- | --- | --- | --- |\n",
      file_header(design, "").substr(1), v.dequant_module, p.rows, p.row_weights, p.weight.name(),
      p.copies, p.copies, p.index_bits(), registers_h(design));
  const auto map = golden::vq_csr::register_map(p);
  for (const auto& r : map) {
    out += fmt::format("| `{}` | {} | 0x{:02x} | {} |\n", r.name, r.index, 4 * r.index, r.meaning);
  }
  for (const auto& r : map) {
    out += fmt::format(
        "\n## {}\n\n| field | bits | access | reset | meaning |\n| --- | --- | --- | --- | --- |\n",
        r.name);
    for (const auto& f : r.fields) {
      const std::string bits =
          f.width == 1 ? dec(f.lsb) : fmt::format("{}:{}", f.lsb + f.width - 1, f.lsb);
      out +=
          fmt::format("| `{}` | {} | {} | {} | {} |\n", f.name, bits, f.access, f.reset, f.meaning);
    }
  }
  out += "\nBits not listed read as 0 and ignore writes.\n";
  return out;
}

std::string registers_header(const elab::Design& design, const Design& v) {
  const auto& p = v.params;
  const std::string guard = upper_case(design.config.design.name) + "_VQ_REGS_H";
  const std::string prefix = upper_case(design.config.design.name) + "_VQ";
  std::string out = fmt::format(
      "{}\n//\n// Registers of {} (SPEC M3), as in docs/vq_registers.md.\n#ifndef {}\n#define "
      "{}\n\n"
      "#define {}_ROWS {}u\n#define {}_ROW_WEIGHTS {}u\n#define {}_COPIES {}u\n"
      "#define {}_MIN_VECTOR_LENGTH {}u\n#define {}_INDEX_BITS {}u\n#define {}_WEIGHT_BITS {}u\n",
      file_header(design, "//"), v.dequant_module, guard, guard, prefix, p.rows, prefix,
      p.row_weights, prefix, p.copies, prefix, p.min_vector_length, prefix, p.index_bits(), prefix,
      p.weight.width);
  for (const auto& r : golden::vq_csr::register_map(p)) {
    out += fmt::format("\n/* {} */\n#define {}_{}_OFFSET 0x{:02x}u\n", r.meaning, prefix, r.name,
                       4 * r.index);
    for (const auto& f : r.fields) {
      const uint64_t mask = ((uint64_t{1} << f.width) - 1) << f.lsb;
      out += fmt::format("#define {}_{}_{}_LSB {}u\n#define {}_{}_{}_MASK 0x{:08x}u\n", prefix,
                         r.name, f.name, f.lsb, prefix, r.name, f.name, mask);
    }
  }
  out += fmt::format("\n#endif  // {}\n", guard);
  return out;
}

}  // namespace

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = dequant_module;
  const TemplateData d = vq_data(design, *this);
  for (const auto& [module, tmpl] : {std::pair{codebook_module, "vq/codebook.sv.mustache"},
                                     std::pair{dequant_module, "vq/dequant.sv.mustache"}}) {
    const std::string path = fmt::format("rtl/{}.sv", module);
    files[path] = render(tmpl, d);
    out.rtl.push_back(path);
  }
  out.register_maps = {registers_md(), registers_h(design)};
  files[registers_md()] = registers_markdown(design, *this);
  files[registers_h(design)] = registers_header(design, *this);
  kainjow::mustache::list rtl;
  for (const auto& f : out.rtl) rtl.push_back(TemplateData("path", f));
  out.synthesis_script = fmt::format("synth/{}_vq.ys", design.config.design.name);
  TemplateData y = emit::common_data(design, "#");
  y.set("rtl_files", rtl);
  y.set("top", dequant_module);
  y.set("script", out.synthesis_script);
  y.set("ram", flag(ram));
  y.set("copies", dec(params.copies));
  files[out.synthesis_script] = render("vq/yosys.ys.mustache", y);
  return out;
}

}  // namespace npugen::blocks::vq
