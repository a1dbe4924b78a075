#include "emit/eda_emitter.hpp"

#include <fmt/format.h>

#include "emit/templates.hpp"

namespace npugen::emit {

EdaPaths eda_paths(const elab::Design& design) {
  const std::string& name = design.config.design.name;
  return EdaPaths{fmt::format("{}.f", name), fmt::format("constraints/{}.sdc", name),
                  fmt::format("{}.core", name), fmt::format("synth/{}.ys", name)};
}

void emit_eda(const elab::Design& design, const std::vector<std::string>& rtl_files,
              util::FileMap& files) {
  const EdaPaths paths = eda_paths(design);
  kainjow::mustache::list rtl;
  for (const auto& f : rtl_files) rtl.push_back(TemplateData("path", f));

  TemplateData f = common_data(design, "//");
  f.set("rtl_files", rtl);
  files[paths.filelist] = render("filelist.f.mustache", f);

  TemplateData y = common_data(design, "#");
  y.set("rtl_files", rtl);
  files[paths.yosys] = render("yosys.ys.mustache", y);

  const double period_ns = 1000.0 / design.config.design.clock_mhz;
  TemplateData s = common_data(design, "#");
  s.set("clock_mhz", fmt::format("{:g}", design.config.design.clock_mhz));
  s.set("period_ns", fmt::format("{:.3f}", period_ns));
  s.set("io_delay_ns", fmt::format("{:.3f}", period_ns / 5));
  files[paths.sdc] = render("constraints.sdc.mustache", s);

  TemplateData c = common_data(design, "#");
  c.set("rtl_files", rtl);
  c.set("sdc", paths.sdc);
  files[paths.core] = render("fusesoc.core.mustache", c);
}

}  // namespace npugen::emit
