#include "emit/eda_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "emit/module_ports.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

kainjow::mustache::list path_list(const std::vector<std::string>& paths) {
  kainjow::mustache::list out;
  for (const auto& p : paths) out.push_back(TemplateData("path", p));
  return out;
}

std::string block_stem(const elab::Design& design, std::string_view block) {
  return fmt::format("{}_{}", design.config.design.name, block);
}

// The SDC of one block: its ports, read back from its top's rendered file.
std::string constraints(const elab::Design& design, const blocks::Block& block,
                        const blocks::BlockFiles& b, const util::FileMap& files) {
  const auto it = files.find(fmt::format("rtl/{}.sv", b.top));
  if (it == files.end()) throw std::logic_error(fmt::format("no file holds {}", b.top));
  std::string inputs, outputs, driven;
  bool has_reset = false;
  for (const ModulePort& p : module_ports(it->second, b.top)) {
    if (p.name == "clk_i") continue;
    std::string& list = p.input ? inputs : outputs;
    list += (list.empty() ? "" : " ") + p.name;
    // The reset is an ideal net before placement, as the clock is (the SDC says why).
    if (p.name == "rst_ni") {
      has_reset = true;
    } else if (p.input) {
      driven += (driven.empty() ? "" : " ") + p.name;
    }
  }
  TemplateData s = common_data(design, "#");
  s.set("title", std::string(block.title()));
  s.set("block", std::string(block.name()));
  s.set("top_module", b.top);
  s.set("clock_mhz", fmt::format("{:g}", design.config.design.clock_mhz));
  s.set("period_ns", fmt::format("{:.3f}", design.clock_period_ns));
  s.set("io_delay_ns", fmt::format("{:.3f}", design.io_delay_ns));
  const config::TimingConfig& t = design.config.timing;
  s.set("io_percent", fmt::format("{:g}", t.io_delay_fraction * 100));
  s.set("uncertainty_ns", fmt::format("{:.3f}", t.clock_uncertainty_ns));
  s.set("hold_uncertainty_ns", fmt::format("{:.3f}", t.hold_uncertainty_ns));
  s.set("clock_transition_ns", fmt::format("{:.3f}", t.clock_transition_ns));
  s.set("driving_cell", t.driving_cell);
  s.set("output_load_pf", fmt::format("{:g}", t.output_load_pf));
  s.set("max_transition_ns", fmt::format("{:.3f}", t.max_transition_ns));
  s.set("inputs", inputs);
  s.set("driven", driven);
  s.set("has_reset", has_reset);
  s.set("outputs", outputs);
  return render("eda/constraints.sdc.mustache", s);
}

}  // namespace

EdaPaths eda_paths(const elab::Design& design) {
  const std::string& name = design.config.design.name;
  return EdaPaths{fmt::format("{}.f", name), fmt::format("{}.core", name), "README.md"};
}

std::string synthesis_script(const elab::Design& design, const blocks::Block& block,
                             const std::string& top, const std::vector<std::string>& rtl,
                             util::FileMap& files, const std::string& checks,
                             const std::string& coarse_checks, const std::string& synth_options) {
  const std::string path = fmt::format("synth/{}.tcl", block_stem(design, block.name()));
  TemplateData y = common_data(design, "#");
  y.set("rtl_files", path_list(rtl));
  y.set("top_module", top);
  y.set("script", path);
  y.set("block", std::string(block.name()));
  y.set("title", std::string(block.title()));
  y.set("checks", checks);
  y.set("has_coarse_checks", flag(!coarse_checks.empty()));
  y.set("coarse_checks", coarse_checks);
  y.set("synth_options", synth_options);
  files[path] = render("eda/yosys.tcl.mustache", y);
  return path;
}

void emit_eda(const elab::Design& design, std::vector<blocks::BlockFiles>& blocks,
              util::FileMap& files) {
  const EdaPaths paths = eda_paths(design);
  std::vector<std::string> rtl;    // every block's files, each once
  std::vector<std::string> owner;  // the block whose fileset lists rtl[k]
  kainjow::mustache::list block_list;
  std::string replay_blocks;  // the blocks with an Icarus bench replaying vectors: a|b
  for (size_t i = 0; i < blocks.size(); ++i) {
    blocks::BlockFiles& b = blocks[i];
    const blocks::Block& block = design.blocks[i]->block();
    const std::string stem = block_stem(design, block.name());
    // Files blocks share (the FIFO) are listed once, in the fileset of the first block that
    // uses them; a later block's targets add that fileset.
    std::vector<std::string> own, filesets;
    for (const auto& f : b.rtl) {
      const auto at = std::find(rtl.begin(), rtl.end(), f);
      if (at == rtl.end()) {
        rtl.push_back(f);
        owner.emplace_back(block.name());
        own.push_back(f);
      } else {
        const std::string set = "rtl_" + owner[static_cast<size_t>(at - rtl.begin())];
        if (std::find(filesets.begin(), filesets.end(), set) == filesets.end()) {
          filesets.push_back(set);
        }
      }
    }
    filesets.push_back(fmt::format("rtl_{}", block.name()));
    b.filelist = stem + ".f";
    TemplateData f = common_data(design, "//");
    f.set("rtl_files", path_list(b.rtl));
    f.set("what", fmt::format("{} ({})", block.title(), b.top));
    files[b.filelist] = render("eda/filelist.f.mustache", f);
    b.constraints = fmt::format("constraints/{}.sdc", stem);
    files[b.constraints] = constraints(design, block, b, files);

    TemplateData d;
    d.set("block", std::string(block.name()));
    d.set("title", std::string(block.title()));
    d.set("top_module", b.top);
    d.set("rtl_files", path_list(b.rtl));
    d.set("own_files", path_list(own));
    std::string joined;
    for (const auto& set : filesets) joined += (joined.empty() ? "" : ", ") + set;
    d.set("filesets", joined);
    d.set("last", flag(i + 1 == blocks.size()));
    d.set("filelist", b.filelist);
    d.set("constraints", b.constraints);
    d.set("synthesis_script", b.synthesis_script);
    d.set("synthesis_script_file", b.synthesis_script.substr(b.synthesis_script.rfind('/') + 1));
    d.set("has_icarus_bench", flag(!b.icarus_bench.empty()));
    if (!b.icarus_bench.empty()) {
      if (!replay_blocks.empty()) replay_blocks += '|';
      replay_blocks += block.name();
    }
    d.set("icarus_bench", b.icarus_bench);
    d.set("icarus_bench_top", b.icarus_bench_top);
    kainjow::mustache::list maps;
    for (const auto& m : b.register_maps) maps.push_back(TemplateData("path", m));
    d.set("register_maps", maps);
    d.set("has_register_maps", flag(!b.register_maps.empty()));
    block_list.push_back(d);
  }

  TemplateData f = common_data(design, "//");
  f.set("rtl_files", path_list(rtl));
  f.set("what", "every block");
  files[paths.filelist] = render("eda/filelist.f.mustache", f);

  TemplateData c = common_data(design, "#");
  c.set("core_version", design.core_version());
  c.set("blocks", block_list);
  c.set("filelist", paths.filelist);
  c.set("has_replay", flag(!replay_blocks.empty()));
  c.set("replay_blocks", replay_blocks);
  files[paths.core] = render("eda/fusesoc.core.mustache", c);

  TemplateData r = common_data(design, "");
  r.set("blocks", block_list);
  r.set("filelist", paths.filelist);
  r.set("core", paths.core);
  r.set("has_replay", flag(!replay_blocks.empty()));
  r.set("replay_blocks", replay_blocks);
  r.set("clock_mhz", fmt::format("{:g}", design.config.design.clock_mhz));
  files[paths.readme] = render("eda/readme.md.mustache", r);
}

}  // namespace npugen::emit
