#include "emit/design_emitter.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "emit/eda_emitter.hpp"
#include "emit/rtl_emitter.hpp"
#include "emit/sim_emitter.hpp"
#include "emit/tasks_rtl_emitter.hpp"
#include "emit/vq_rtl_emitter.hpp"
#include "util/sha256.hpp"
#include "version.hpp"

namespace npugen::emit {

util::FileMap emit_design(const elab::Design& design) {
  util::FileMap files;
  const std::vector<std::string> rtl = emit_rtl(design, files);
  emit_eda(design, rtl, files);
  emit_sim(design, files);
  files["config.resolved.json"] = elab::resolved_json(design).dump(2) + "\n";

  nlohmann::json list = nlohmann::json::array();
  for (const auto& [path, content] : files) {
    list.push_back(
        {{"path", path}, {"bytes", content.size()}, {"sha256", util::sha256_hex(content)}});
  }
  const EdaPaths eda = eda_paths(design);
  nlohmann::json blocks = nlohmann::json::array();
  blocks.push_back({{"block", "pe_array"}, {"top", design.top}, {"synthesis_script", eda.yosys}});
  if (design.vq.enabled) {
    const VqPaths vq = vq_paths(design);
    blocks.push_back({{"block", "vq"},
                      {"top", design.vq.dequant_module},
                      {"synthesis_script", vq.yosys},
                      {"register_map", {vq.registers_md, vq.registers_h}}});
  }
  if (design.tasks.enabled) {
    const TasksPaths tasks = tasks_paths(design);
    blocks.push_back({{"block", "tasks"},
                      {"top", design.tasks.unit_module},
                      {"synthesis_script", tasks.yosys},
                      {"register_map", {tasks.registers_md, tasks.registers_h}}});
  }
  const nlohmann::json manifest = {{"generated_by", {{"tool", "npugen"}, {"version", kVersion}}},
                                   {"design", design.config.design.name},
                                   {"top", design.top},
                                   {"config_file", design.config_file},
                                   {"config_hash", design.config_hash},
                                   {"filelist", eda.filelist},
                                   {"constraints", eda.sdc},
                                   {"fusesoc_core", eda.core},
                                   {"synthesis_script", eda.yosys},
                                   {"rtl", rtl},
                                   {"blocks", blocks},
                                   {"files", list}};
  files[kManifest] = manifest.dump(2) + "\n";
  return files;
}

util::WriteOutcome write_design(const elab::Design& design, const std::filesystem::path& dir) {
  return util::write_tree_atomically(dir, emit_design(design), kManifest, kBuildFolders);
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
