#include "emit/primitives.hpp"

#include <fmt/format.h>

#include "emit/templates.hpp"

namespace npugen::emit {

std::string fifo_module(const elab::Design& design) {
  return design.config.design.module_prefix + "_fifo";
}

std::string emit_fifo(const elab::Design& design, util::FileMap& files) {
  const std::string path = fmt::format("rtl/{}.sv", fifo_module(design));
  if (files.count(path) == 0) {
    TemplateData d = common_data(design, "//");
    d.set("fifo_module", fifo_module(design));
    files[path] = render("common/fifo.sv.mustache", d);
  }
  return path;
}

std::string ram_1r1w_module(const elab::Design& design) {
  return design.config.design.module_prefix + "_ram_1r1w";
}

std::string memories_lib(const elab::Design& design) {
  return design.config.design.name + "_memories.lib";
}

std::string emit_ram_1r1w(const elab::Design& design, util::FileMap& files) {
  const std::string path = fmt::format("rtl/{}.sv", ram_1r1w_module(design));
  if (files.count(path) == 0) {
    TemplateData d = common_data(design, "//");
    d.set("ram_module", ram_1r1w_module(design));
    d.set("memories_lib", memories_lib(design));
    files[path] = render("common/ram_1r1w.sv.mustache", d);
  }
  return path;
}

}  // namespace npugen::emit
