// What every block's emitter does alike: render its modules to rtl/<module>.sv, and write
// its package together with its register map's constants and renderings.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "emit/templates.hpp"
#include "npugen/golden/common/regmap.hpp"
#include "util/output_tree.hpp"

namespace npugen::elab {
struct Design;
}

namespace npugen::emit {

/// Renders each (module, template) with `data` to rtl/<module>.sv, in order; returns the
/// paths.
std::vector<std::string> render_modules(
    const TemplateData& data, const std::vector<std::pair<std::string, std::string>>& modules,
    util::FileMap& files);

/// The block's package (its constants, then the register map's) appended to out.rtl, and
/// the register map's documents and C header to out.register_maps.
void emit_package_with_registers(const elab::Design& design, const blocks::Block& block,
                                 elab::SvConstants constants,
                                 const golden::regmap::RegisterMap& map, util::FileMap& files,
                                 blocks::BlockFiles& out);

}  // namespace npugen::emit
