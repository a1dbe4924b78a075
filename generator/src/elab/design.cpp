#include "elab/design.hpp"

#include <fmt/format.h>

#include <string>

#include "version.hpp"

namespace npugen::elab {

const blocks::BlockDesign* Design::find(std::string_view name) const {
  for (const auto& b : blocks) {
    if (b->block().name() == name) return b.get();
  }
  return nullptr;
}

Design elaborate(const config::Config& config) {
  Design d;
  d.config = config;
  d.config_file = config.source.filename().string();
  if (d.config_file.empty()) d.config_file = "<text>";
  d.config_hash = config::config_hash(config);
  d.clock_period_ns = 1000.0 / config.design.clock_mhz;
  d.io_delay_ns = d.clock_period_ns * config.timing.io_delay_fraction;
  for (const blocks::Block* b : blocks::generated(config)) d.blocks.push_back(b->elaborate(config));
  // The design's primary top: the NPU top when it is generated (it holds the others), else
  // the first block's.
  if (const blocks::BlockDesign* npu = d.find("npu")) {
    d.top = npu->top();
  } else if (!d.blocks.empty()) {
    d.top = d.blocks.front()->top();
  }
  return d;
}

nlohmann::json resolved_json(const Design& d) {
  nlohmann::json derived = {{"top", d.top}};
  for (const blocks::Block* b : blocks::all()) {
    const blocks::BlockDesign* design = d.find(b->name());
    derived[std::string(b->name())] = design != nullptr ? design->derived_json() : nullptr;
  }
  return nlohmann::json{{"generated_by", {{"tool", "npugen"}, {"version", kVersion}}},
                        {"config_file", d.config_file},
                        {"config_hash", d.config_hash},
                        {"config", config::to_json(d.config)},
                        {"derived", derived}};
}

std::string Design::core_version() const {
  return fmt::format("{}.{}", kVersion, std::stoul(config_hash.substr(0, 8), nullptr, 16));
}

}  // namespace npugen::elab
