#include "emit/primitives.hpp"

#include <fmt/format.h>

#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

// Renders rtl/<module>.sv from `tmpl` once (whichever block asks first); returns its path.
// `key` names the module in the template; `more` adds the template's other values.
template <typename More>
std::string emit_once(const elab::Design& design, util::FileMap& files, const std::string& module,
                      const char* key, const char* tmpl, More more) {
  const std::string path = fmt::format("rtl/{}.sv", module);
  if (files.count(path) == 0) {
    TemplateData d = common_data(design, "//");
    d.set(key, module);
    more(d);
    files[path] = render(tmpl, d);
  }
  return path;
}

}  // namespace

std::string fifo_module(const elab::Design& design) {
  return design.config.design.module_prefix + "_fifo";
}

std::string emit_fifo(const elab::Design& design, util::FileMap& files) {
  return emit_once(design, files, fifo_module(design), "fifo_module", "common/fifo.sv.mustache",
                   [](TemplateData&) {});
}

std::string ram_1r1w_module(const elab::Design& design) {
  return design.config.design.module_prefix + "_ram_1r1w";
}

std::string memories_lib(const elab::Design& design) {
  return design.config.design.name + "_memories.lib";
}

std::string emit_ram_1r1w(const elab::Design& design, util::FileMap& files) {
  return emit_once(design, files, ram_1r1w_module(design), "ram_module",
                   "common/ram_1r1w.sv.mustache",
                   [&](TemplateData& d) { d.set("memories_lib", memories_lib(design)); });
}

}  // namespace npugen::emit
