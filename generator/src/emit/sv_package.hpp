// A block's SystemVerilog package, rtl/<prefix>_<block>_pkg.sv: the constants its
// elaboration derived (elab::SvConstant), one localparam each.
#pragma once

#include <string>
#include <string_view>

#include "elab/design.hpp"
#include "elab/sv_constant.hpp"
#include "emit/templates.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// The package's name: <prefix>_<block>_pkg.
std::string package_name(const elab::Design& design, std::string_view block);

/// The text of a package `name` documented as holding the constants of `title`; `common`
/// holds what the file header names (common_data()).
std::string package_text(TemplateData common, const std::string& name, std::string_view title,
                         const elab::SvConstants& constants);

/// Writes the package of `block` (whose title documents it); returns its path.
std::string emit_package(const elab::Design& design, std::string_view block,
                         std::string_view title, const elab::SvConstants& constants,
                         util::FileMap& files);

}  // namespace npugen::emit
