#include "emit/eda_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

kainjow::mustache::list path_list(const std::vector<std::string>& paths) {
  kainjow::mustache::list out;
  for (const auto& p : paths) out.push_back(TemplateData("path", p));
  return out;
}

}  // namespace

EdaPaths eda_paths(const elab::Design& design) {
  const std::string& name = design.config.design.name;
  return EdaPaths{fmt::format("{}.f", name), fmt::format("constraints/{}.sdc", name),
                  fmt::format("{}.core", name)};
}

std::string synthesis_script(const elab::Design& design, const blocks::Block& block,
                             const std::string& top, const std::vector<std::string>& rtl,
                             util::FileMap& files) {
  const std::string path = fmt::format("synth/{}_{}.ys", design.config.design.name, block.name());
  TemplateData y = common_data(design, "#");
  y.set("rtl_files", path_list(rtl));
  y.set("top", top);
  y.set("script", path);
  y.set("title", std::string(block.title()));
  files[path] = render("eda/yosys.ys.mustache", y);
  return path;
}

void emit_eda(const elab::Design& design, const std::vector<blocks::BlockFiles>& blocks,
              util::FileMap& files) {
  const EdaPaths paths = eda_paths(design);
  std::vector<std::string> rtl;
  for (const auto& b : blocks) {
    for (const auto& f : b.rtl) {
      // Files blocks share (the FIFO) are listed once, where first used.
      if (std::find(rtl.begin(), rtl.end(), f) == rtl.end()) rtl.push_back(f);
    }
  }

  TemplateData f = common_data(design, "//");
  f.set("rtl_files", path_list(rtl));
  files[paths.filelist] = render("eda/filelist.f.mustache", f);

  const double period_ns = 1000.0 / design.config.design.clock_mhz;
  TemplateData s = common_data(design, "#");
  s.set("clock_mhz", fmt::format("{:g}", design.config.design.clock_mhz));
  s.set("period_ns", fmt::format("{:.3f}", period_ns));
  s.set("io_delay_ns", fmt::format("{:.3f}", period_ns / 5));
  files[paths.sdc] = render("eda/constraints.sdc.mustache", s);

  TemplateData c = common_data(design, "#");
  c.set("rtl_files", path_list(rtl));
  c.set("sdc", paths.sdc);
  files[paths.core] = render("eda/fusesoc.core.mustache", c);
}

}  // namespace npugen::emit
