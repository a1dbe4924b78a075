#include "emit/module_ports.hpp"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

namespace npugen::emit {

std::vector<ModulePort> module_ports(std::string_view text, std::string_view module) {
  const std::string source(text);
  const std::string head = fmt::format("module {} ", module);
  size_t at = source.find("\n" + head);
  if (at == std::string::npos && source.starts_with(head)) at = 0;
  if (at == std::string::npos) {
    throw std::logic_error(fmt::format("module {} is not in its file", module));
  }
  const size_t end = source.find("\n);", at);
  if (end == std::string::npos) {
    throw std::logic_error(fmt::format("module {}: no end of its port list", module));
  }
  static const std::regex kPort(R"(^\s*(input|output)\s+logic\b[^\n/]*?\b([A-Za-z_]\w*)\s*,?\s*$)");
  std::vector<ModulePort> ports;
  size_t line_start = source.find('\n', at) + 1;
  while (line_start < end) {
    size_t line_end = source.find('\n', line_start);
    if (line_end == std::string::npos || line_end > end) line_end = end;
    const std::string line = source.substr(line_start, line_end - line_start);
    std::smatch m;
    if (std::regex_match(line, m, kPort)) ports.push_back({m[2].str(), m[1].str() == "input"});
    line_start = line_end + 1;
  }
  if (ports.empty()) throw std::logic_error(fmt::format("module {}: no ports found", module));
  return ports;
}

}  // namespace npugen::emit
