#include "emit/sv_package.hpp"

#include <fmt/format.h>

namespace npugen::emit {

std::string package_name(const elab::Design& design, std::string_view block) {
  return fmt::format("{}_{}_pkg", design.config.design.module_prefix, block);
}

std::string package_text(TemplateData d, const std::string& name, std::string_view title,
                         const elab::SvConstants& constants) {
  d.set("package", name);
  d.set("title", std::string(title));
  kainjow::mustache::list list;
  for (const auto& c : constants) {
    TemplateData e;
    e.set("name", c.name);
    e.set("type", c.type);
    e.set("value", c.value);
    e.set("doc", c.doc);
    list.push_back(e);
  }
  d.set("constants", list);
  return render("common/pkg.sv.mustache", d);
}

std::string emit_package(const elab::Design& design, std::string_view block,
                         std::string_view title, const elab::SvConstants& constants,
                         util::FileMap& files) {
  const std::string name = package_name(design, block);
  const std::string path = fmt::format("rtl/{}.sv", name);
  files[path] = package_text(common_data(design, "//"), name, title, constants);
  return path;
}

}  // namespace npugen::emit
