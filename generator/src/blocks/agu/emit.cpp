// The address generator's files: its package (the block's constants and its register
// map's), its RTL, the register map's renderings and the synthesis script, which asserts
// that synthesis finds no multiplier in it.
#include <fmt/format.h>

#include "blocks/agu/agu.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::agu {

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  BlockFiles out;
  out.top = agu_module;
  const auto map = golden::agu_csr::register_map(params);
  emit::emit_package_with_registers(design, block(), constants(), map, files, out);
  emit::TemplateData d = emit::common_data(design, "//");
  d.set("pkg", package);
  d.set("agu_module", agu_module);
  d.set("tiles", emit::dec(params.tiles));
  d.set("lanes", emit::dec(params.lanes));
  // The largest C whose KH x KW window fits a window of words, for each kernel size: the
  // MEC window (the MEC order) and the staging slot (zero_skip); the RTL's refusal tables.
  auto limits = [&](bool on, unsigned (golden::AguParams::*max_c)(unsigned, unsigned) const) {
    emit::TemplateData list{emit::TemplateData::type::list};
    for (unsigned kh = 1; on && kh <= params.max_kernel; ++kh) {
      for (unsigned kw = 1; kw <= params.max_kernel; ++kw) {
        emit::TemplateData e;
        e.set("kh", emit::dec(kh));
        e.set("kw", emit::dec(kw));
        e.set("channels", emit::dec((params.*max_c)(kh, kw)));
        list.push_back(e);
      }
    }
    return list;
  };
  const bool mec = params.mec_window > 0;
  const bool zs = params.generates(golden::Dataflow::kZeroSkip);
  d.set("has_mec", emit::flag(mec));
  d.set("mec_limits", limits(mec, &golden::AguParams::mec_max_channels));
  d.set("has_zs", emit::flag(zs));
  d.set("zs_limits", limits(zs, &golden::AguParams::zs_max_channels));
  for (auto& path : emit::render_modules(d, {{agu_module, "agu/agu.sv.mustache"}}, files)) {
    out.rtl.push_back(std::move(path));
  }
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files, "",
                                                emit::render("agu/synth_checks.tcl.mustache", d));
  return out;
}

}  // namespace npugen::blocks::agu
