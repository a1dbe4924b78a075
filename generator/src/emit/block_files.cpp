#include "emit/block_files.hpp"

#include <fmt/format.h>

#include "emit/register_map.hpp"
#include "emit/sv_package.hpp"

namespace npugen::emit {

std::vector<std::string> render_modules(
    const TemplateData& data, const std::vector<std::pair<std::string, std::string>>& modules,
    util::FileMap& files) {
  std::vector<std::string> paths;
  for (const auto& [module, tmpl] : modules) {
    const std::string path = fmt::format("rtl/{}.sv", module);
    files[path] = render(tmpl, data);
    paths.push_back(path);
  }
  return paths;
}

void emit_package_with_registers(const elab::Design& design, const blocks::Block& block,
                                 elab::SvConstants constants,
                                 const golden::regmap::RegisterMap& map, util::FileMap& files,
                                 blocks::BlockFiles& out) {
  for (auto& c : register_map_sv_constants(map)) constants.push_back(std::move(c));
  out.rtl.push_back(emit_package(design, block.name(), block.title(), constants, files));
  out.register_maps = write_register_map(map, register_map_names(design), files);
}

}  // namespace npugen::emit
