#include "emit/sim_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "emit/eda_emitter.hpp"
#include "emit/embedded_files.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

// A golden-model or compiler source compiles through a one-line unit of its own,
// units/golden_<folder>_<file> or units/compiler_<file>: the blocks' folders hold files of
// the same names (model.cpp, params.cpp), and Verilator's build names each object after its
// source's base name.
bool has_unit(std::string_view path) {
  return (path.starts_with("golden/src/") || path.starts_with("compiler/src/")) &&
         path.ends_with(".cpp");
}
std::string unit_of(std::string_view source) {
  const bool golden = source.starts_with("golden/");
  std::string rest(source.substr(golden ? std::string_view("golden/src/").size()
                                        : std::string_view("compiler/src/").size()));
  std::replace(rest.begin(), rest.end(), '/', '_');
  return (golden ? "units/golden_" : "units/compiler_") + rest;
}

// The sources a block's bench compiles: the testbench's and the golden model's common
// parts, the bench's own, and the golden model's folders it names (paths under sim/src,
// sorted).
kainjow::mustache::list bench_sources(const blocks::Block& block) {
  std::vector<std::string> prefixes = {"tb/common/", fmt::format("tb/{}/", block.name()),
                                       "golden/src/common/"};
  for (const auto& g : block.bench().golden) prefixes.push_back(fmt::format("golden/src/{}/", g));
  if (block.bench().compiler) prefixes.emplace_back("compiler/src/");
  kainjow::mustache::list out;
  for (const auto& [path, text] : embedded_files()) {
    if (!path.ends_with(".cpp")) continue;
    for (const auto& prefix : prefixes) {
      if (!path.starts_with(prefix)) continue;
      out.push_back(TemplateData("path", has_unit(path) ? unit_of(path) : std::string(path)));
    }
  }
  return out;
}

}  // namespace

void emit_sim(const elab::Design& design, util::FileMap& files) {
  kainjow::mustache::list blocks;
  std::string names;
  for (size_t i = 0; i < design.blocks.size(); ++i) {
    const auto& b = *design.blocks[i];
    TemplateData d;
    d.set("block", std::string(b.block().name()));
    d.set("title", std::string(b.block().title()));
    d.set("top", b.top());
    d.set("sources", bench_sources(b.block()));
    blocks.push_back(d);
    names += fmt::format("{}{}",
                         i == 0                          ? ""
                         : i + 1 == design.blocks.size() ? " and "
                                                         : ", ",
                         b.block().name());
  }
  TemplateData mk = common_data(design, "#");
  mk.set("blocks", blocks);
  mk.set("names", names);
  mk.set("first",
         design.blocks.empty() ? std::string() : std::string(design.blocks[0]->block().name()));
  mk.set("filelist", eda_paths(design).filelist);
  files["sim/Makefile"] = render("sim/makefile.mustache", mk);

  std::set<std::string> headers;
  kainjow::mustache::list declarations;
  for (const auto& b : design.blocks) {
    const blocks::DesignParams p = b->design_params();
    headers.insert(p.headers.begin(), p.headers.end());
    declarations.push_back(TemplateData("declarations", p.declarations));
  }
  kainjow::mustache::list header_list;
  for (const auto& h : headers) header_list.push_back(TemplateData("path", h));
  const auto& sim = design.config.sim;
  TemplateData p = common_data(design, "//");
  p.set("headers", header_list);
  p.set("blocks", declarations);
  p.set("sim_cycles", std::to_string(sim.cycles));
  p.set("sim_seed", std::to_string(sim.seed));
  p.set("sim_valid_probability", fmt::format("{:.17g}", sim.valid_probability));
  p.set("sim_ready_probability", fmt::format("{:.17g}", sim.ready_probability));
  p.set("clock_mhz", fmt::format("{:.17g}", design.config.design.clock_mhz));
  p.set("sim_max_dot_length", std::to_string(sim.max_dot_length));
  files["sim/design_params.hpp"] = render("sim/design_params.hpp.mustache", p);

  // Testbench, golden-model and compiler sources, exactly as in the npugen source tree.
  for (const auto& [path, text] : embedded_files()) {
    if (path.starts_with("tb/") || path.starts_with("golden/") || path.starts_with("compiler/")) {
      files[fmt::format("sim/src/{}", path)] = std::string(text);
    }
    if (has_unit(path)) {
      files[fmt::format("sim/src/{}", unit_of(path))] = fmt::format(
          "// {}, compiled under a name of its own (see sim/Makefile).\n#include \"../{}\"\n", path,
          path);
    }
  }
}

}  // namespace npugen::emit
