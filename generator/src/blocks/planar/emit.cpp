// The planar engine's files: its package (the block's constants and its register map's),
// its RTL (the engine and the common queue), the register map's renderings and the
// synthesis script.
#include <fmt/format.h>

#include "blocks/planar/planar.hpp"
#include "elab/design.hpp"
#include "emit/block_files.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::planar {

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  using golden::PlanarOp;
  BlockFiles out;
  out.top = planar_module;
  const auto map = golden::planar_csr::register_map(params);
  emit::emit_package_with_registers(design, block(), constants(), map, files, out);
  out.rtl.push_back(emit::emit_fifo(design, files));
  out.rtl.push_back(emit::emit_ram_1r1w(design, files));
  emit::TemplateData d = emit::common_data(design, "//");
  d.set("pkg", package);
  d.set("planar_module", planar_module);
  d.set("fifo_module", emit::fifo_module(design));
  d.set("ram_module", emit::ram_1r1w_module(design));
  d.set("lanes", emit::dec(params.lanes));
  d.set("words", emit::dec(params.words));
  d.set("depth", emit::dec(params.queue_depth()));
  d.set("banks", emit::dec(params.lb_banks()));
  d.set("max_left_shift", emit::dec(golden::PlanarParams::kMaxLeftShift));
  d.set("has_pool", emit::flag(params.has_pool()));
  d.set("has_add", emit::flag(params.generates(PlanarOp::kAdd)));
  d.set("has_gain", emit::flag(params.generates(PlanarOp::kGainBias)));
  d.set("has_avg", emit::flag(params.generates(PlanarOp::kAvgPool)));
  d.set("has_lut", emit::flag(params.generates(PlanarOp::kLut)));
  const bool has_mul = params.generates(PlanarOp::kAvgPool) || params.generates(PlanarOp::kAdd) ||
                       params.generates(PlanarOp::kGainBias) ||
                       params.generates(PlanarOp::kReduceSum);
  d.set("has_mul", emit::flag(has_mul));
  d.set("area_bits", emit::dec(2 * golden::PlanarParams::kSmallBits));
  d.set("recip_bits", emit::dec(params.divider().reciprocal_bits()));
  d.set("split_product", emit::flag(has_mul && params.pipeline_stages >= kSplitProductStages));
  d.set("has_mbqm_out",
        emit::flag(params.generates(PlanarOp::kAdd) || params.generates(PlanarOp::kReduceSum)));
  emit::TemplateData regs{emit::TemplateData::type::list};
  for (const auto& r : map.groups.front().registers) {
    emit::TemplateData e;
    e.set("camel", golden::regmap::camel_case(r.name));
    e.set("index", emit::dec(r.offset / 4));
    regs.push_back(e);
  }
  d.set("group_regs", regs);
  // The refusal's maxima: the shape's first (MAX_SHAPE, MAX_DEPTH), then the window's.
  struct Limit {
    const char* field;
    const char* max;
    const char* bits;
  };
  static const Limit kLimits[] = {
      {"h", "MaxHeight", "DimBits"},    {"w", "MaxWidth", "DimBits"},
      {"c", "MaxChannels", "DimBits"},  {"n", "MaxBatch", "DimBits"},
      {"kh", "MaxWindow", "SmallBits"}, {"kw", "MaxWindow", "SmallBits"},
      {"sy", "MaxStride", "SmallBits"}, {"sx", "MaxStride", "SmallBits"},
      {"pt", "MaxPad", "SmallBits"},    {"pb", "MaxPad", "SmallBits"},
      {"pl", "MaxPad", "SmallBits"},    {"pr", "MaxPad", "SmallBits"}};
  emit::TemplateData limits{emit::TemplateData::type::list};
  int index = 0;
  for (const Limit& l : kLimits) {
    emit::TemplateData e;
    e.set("field", l.field);
    e.set("max", l.max);
    e.set("bits", l.bits);
    e.set("index", emit::dec(index++));
    limits.push_back(e);
  }
  d.set("limits", limits);
  d.set("limit_count", emit::dec(index));
  emit::TemplateData recips{emit::TemplateData::type::list};
  const golden::PoolDivider div = params.divider();
  for (unsigned n = 1; params.generates(PlanarOp::kAvgPool) && n < div.reciprocal.size(); ++n) {
    emit::TemplateData e;
    e.set("count", emit::dec(n));
    e.set("value", emit::dec(div.reciprocal[n]));
    recips.push_back(e);
  }
  d.set("reciprocals", recips);
  for (auto& path :
       emit::render_modules(d, {{planar_module, "planar/planar.sv.mustache"}}, files)) {
    out.rtl.push_back(std::move(path));
  }
  // Yosys's SAT-based resource sharing of the lanes' multipliers and adders runs out of
  // memory on wide engines (22 GB at W x L = 32 channels a beat): not run.
  // The memories: per line-buffer bank a line and a column memory (with pooling), and the
  // gain table (with gain_bias).
  const uint64_t beat_lanes = params.beat_lanes();
  if (params.has_pool()) {
    for (unsigned b = 0; b < params.lb_banks(); ++b) {
      out.memories.push_back({fmt::format("g_bank[{}].u_line", b),
                              fmt::format("line buffer, bank {}", b), params.lb_depth(),
                              beat_lanes * golden::PlanarParams::kHBits,
                              beat_lanes * golden::PlanarParams::kHBits});
      out.memories.push_back({fmt::format("g_bank[{}].u_column", b),
                              fmt::format("column buffer, bank {}", b), params.table_rows(),
                              beat_lanes * 8, beat_lanes * 8});
    }
  }
  if (params.generates(PlanarOp::kGainBias)) {
    const uint64_t entry = beat_lanes * (64 + golden::PlanarParams::kShiftBits);
    out.memories.push_back({"u_gain", "gain table", params.table_rows(), entry, entry});
  }
  out.synth_options = " -noshare";
  out.synthesis_script =
      emit::synthesis_script(design, block(), out.top, out.rtl, files, "", "", out.synth_options);
  return out;
}

}  // namespace npugen::blocks::planar
