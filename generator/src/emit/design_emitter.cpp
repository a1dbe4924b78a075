#include "emit/design_emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "emit/eda_emitter.hpp"
#include "emit/primitives.hpp"
#include "emit/sim_emitter.hpp"
#include "emit/timing_emitter.hpp"
#include "util/sha256.hpp"
#include "version.hpp"

namespace npugen::emit {

util::FileMap emit_design(const elab::Design& design) {
  util::FileMap files;
  std::vector<blocks::BlockFiles> outputs;
  for (const auto& b : design.blocks) outputs.push_back(b->emit(design, files));
  emit_eda(design, outputs, files);
  const std::vector<TimingScripts> timing = emit_timing(design, outputs, files);
  emit_sim(design, files);
  files["config.resolved.json"] = elab::resolved_json(design).dump(2) + "\n";

  nlohmann::json list = nlohmann::json::array();
  for (const auto& [path, content] : files) {
    list.push_back(
        {{"path", path}, {"bytes", content.size()}, {"sha256", util::sha256_hex(content)}});
  }
  const EdaPaths eda = eda_paths(design);
  nlohmann::json blocks = nlohmann::json::array();
  std::vector<std::string> rtl;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const blocks::BlockFiles& out = outputs[i];
    const blocks::Block& block = design.blocks[i]->block();
    const blocks::BenchInfo bench = block.bench();
    nlohmann::json b = {
        {"block", std::string(block.name())},
        {"top", out.top},
        {"rtl", out.rtl},
        {"filelist", out.filelist},
        {"constraints", out.constraints},
        {"synthesis_script", out.synthesis_script},
        {"timing", {{"synthesis", timing[i].synthesis}, {"sta", timing[i].sta}}},
        {"bench",
         {{"build", fmt::format("sim/build-{}/sim", block.name())}, {"modes", bench.modes}}}};
    if (!out.register_maps.empty()) b["register_map"] = out.register_maps;
    nlohmann::json memories = nlohmann::json::array();
    for (const blocks::Memory& m : out.memories) {
      memories.push_back({{"instance", m.instance},
                          {"role", m.role},
                          {"module", ram_1r1w_module(design)},
                          {"kind", "1r1w"},
                          {"depth", m.depth},
                          {"width", m.width},
                          {"data_bits_per_mask", m.data_bits_per_mask},
                          {"bits", m.depth * m.width},
                          {"read_latency", 1}});
    }
    b["memories"] = memories;
    blocks.push_back(b);
    for (const auto& f : out.rtl) {
      // Files blocks share (the FIFO) are listed once, where first used.
      if (std::find(rtl.begin(), rtl.end(), f) == rtl.end()) rtl.push_back(f);
    }
  }
  // The synthesis script of the design's top (the NPU top's when it is generated).
  std::string top_script;
  for (const blocks::BlockFiles& out : outputs) {
    if (out.top == design.top) top_script = out.synthesis_script;
  }
  const nlohmann::json manifest = {{"generated_by", {{"tool", "npugen"}, {"version", kVersion}}},
                                   {"design", design.config.design.name},
                                   {"top", design.top},
                                   {"config_file", design.config_file},
                                   {"config_hash", design.config_hash},
                                   {"filelist", eda.filelist},
                                   {"fusesoc_core", eda.core},
                                   {"readme", eda.readme},
                                   {"synthesis_script", top_script},
                                   {"rtl", rtl},
                                   {"blocks", blocks},
                                   {"files", list}};
  files[kManifest] = manifest.dump(2) + "\n";
  return files;
}

const std::vector<std::string>& build_folders() {
  static const std::vector<std::string> kFolders = [] {
    std::vector<std::string> out;
    for (const blocks::Block* b : blocks::all()) {
      out.push_back(fmt::format("sim/build-{}", b->name()));
      out.push_back(fmt::format("sim/build-{}-trace", b->name()));
    }
    return out;
  }();
  return kFolders;
}

util::WriteOutcome write_design(const elab::Design& design, const std::filesystem::path& dir) {
  return util::write_tree_atomically(dir, emit_design(design), kManifest, build_folders());
}

std::vector<std::string> verify_design_folder(const std::filesystem::path& dir) {
  std::vector<std::string> problems;
  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(util::read_file(dir / kManifest));
  } catch (const std::exception& e) {
    return {fmt::format("{}: {}", (dir / kManifest).string(), e.what())};
  }
  for (const auto& entry : manifest.at("files")) {
    const std::string path = entry.at("path");
    try {
      const std::string content = util::read_file(dir / path);
      if (util::sha256_hex(content) != entry.at("sha256")) {
        problems.push_back(fmt::format("{}: content differs from the manifest", path));
      }
    } catch (const std::exception&) {
      problems.push_back(fmt::format("{}: missing", path));
    }
  }
  return problems;
}

}  // namespace npugen::emit
