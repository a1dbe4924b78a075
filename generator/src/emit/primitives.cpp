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

}  // namespace npugen::emit
