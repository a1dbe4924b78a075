// The ports of a module as npugen writes it (one port a line: `input  logic [..] name,`),
// read back from the rendered text, so that what is derived from a module's interface
// (the SDC's port lists) cannot drift from the template that declares it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace npugen::emit {

struct ModulePort {
  std::string name;
  bool input = true;
};

/// The ports of `module` in `text`, in declaration order. Throws std::logic_error when the
/// module or its port list is not found (a template that broke the convention).
std::vector<ModulePort> module_ports(std::string_view text, std::string_view module);

}  // namespace npugen::emit
