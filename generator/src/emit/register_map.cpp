// The register-map renderers' common part: names, paths, the files of a map, and the
// helpers of register_map_detail.hpp.
#include "emit/register_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "elab/design.hpp"
#include "emit/register_map_detail.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {
namespace detail = register_map_detail;

RegisterMapNames register_map_names(const elab::Design& design) {
  std::string header = file_header(design, "");
  if (!header.empty() && header.front() == ' ') header.erase(0, 1);
  return {design.config.design.name, design.config.design.module_prefix, header};
}

RegisterMapPaths register_map_paths(const golden::regmap::RegisterMap& map,
                                    const RegisterMapNames& names) {
  return {fmt::format("docs/{}_registers.md", map.block),
          fmt::format("sw/{}_{}_regs.h", names.design, map.block),
          fmt::format("docs/{}_registers.rdl", map.block),
          fmt::format("docs/{}_registers.json", map.block)};
}

std::vector<std::string> write_register_map(const golden::regmap::RegisterMap& map,
                                            const RegisterMapNames& names, util::FileMap& files) {
  detail::require_consistent(map);
  const RegisterMapPaths paths = register_map_paths(map, names);
  files[paths.markdown] = register_map_markdown(map, names);
  files[paths.c_header] = register_map_c_header(map, names);
  files[paths.systemrdl] = register_map_systemrdl(map, names);
  files[paths.json] = register_map_json(map, names).dump(2) + "\n";
  return {paths.markdown, paths.c_header, paths.systemrdl, paths.json};
}

namespace register_map_detail {

std::vector<Entry> entries_by_offset(const golden::regmap::RegisterMap& map) {
  std::vector<Entry> out;
  for (const auto& r : map.registers) out.push_back({&r, nullptr, r.offset});
  for (const auto& g : map.groups) out.push_back({nullptr, &g, g.offset});
  std::stable_sort(out.begin(), out.end(),
                   [](const Entry& a, const Entry& b) { return a.offset < b.offset; });
  return out;
}

std::vector<const golden::regmap::Register*> registers_by_offset(const golden::regmap::Group& g) {
  std::vector<const golden::regmap::Register*> out;
  for (const auto& r : g.registers) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto* a, const auto* b) { return a->offset < b->offset; });
  return out;
}

void require_consistent(const golden::regmap::RegisterMap& map) {
  const auto problems = map.problems();
  if (problems.empty()) return;
  std::string text =
      fmt::format("internal error: the register map of block {} is inconsistent:", map.block);
  for (const auto& p : problems) text += "\n  " + p;
  throw std::logic_error(text);
}

std::string hex(uint64_t value, int digits) { return fmt::format("0x{:0{}x}", value, digits); }

std::string bit_range(const golden::regmap::Field& f) {
  return f.width == 1 ? fmt::format("{}", f.lsb) : fmt::format("{}:{}", f.msb(), f.lsb);
}

std::string one_line(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::string> wrap(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  const std::string flat = one_line(text);
  size_t i = 0;
  while (i < flat.size()) {
    size_t j = flat.find(' ', i);
    if (j == std::string::npos) j = flat.size();
    const std::string_view word(flat.data() + i, j - i);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    i = j + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace register_map_detail
}  // namespace npugen::emit
