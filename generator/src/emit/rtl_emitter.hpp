// Emits the RTL of the dense PE array: one module per file under rtl/.
#pragma once

#include <string>
#include <vector>

#include "elab/design.hpp"
#include "emit/templates.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

/// Adds rtl/<module>.sv for every module of the design; returns their paths in
/// dependency order (leaves first), as filelists list them.
std::vector<std::string> emit_rtl(const elab::Design& design, util::FileMap& files);

/// Data shared by the templates that describe the PE array's ports (RTL and testbenches).
TemplateData pe_array_port_data(const elab::Design& design, std::string_view comment);

}  // namespace npugen::emit
