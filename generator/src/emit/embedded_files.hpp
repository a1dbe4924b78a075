// Text of the templates and co-simulation sources, embedded at build time.
#pragma once

#include <map>
#include <string_view>

namespace npugen::emit {

/// Path relative to the source tree (e.g. "rtl_templates/pe_tile.sv.mustache") -> text.
const std::map<std::string_view, std::string_view>& embedded_files();

}  // namespace npugen::emit
