// The elaborated design: the validated configuration plus everything derived from
// it that more than one emitter needs. Emitters read only this.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "config/config.hpp"
#include "elab/pe_array_design.hpp"
#include "elab/tasks_design.hpp"
#include "elab/vq_design.hpp"
#include "elab/zero_skip_design.hpp"

namespace npugen::elab {

struct Design {
  config::Config config;
  std::string config_file;  ///< file name of the configuration (no directories)
  std::string config_hash;  ///< SHA-256 of the resolved configuration
  std::string top;          ///< top-level module
  PeArrayDesign pe_array;
  ZeroSkipDesign zero_skip;
  VqDesign vq;
  TasksDesign tasks;

  /// The first 16 hex digits of the hash, as file headers show it.
  [[nodiscard]] std::string short_hash() const { return config_hash.substr(0, 16); }
};

Design elaborate(const config::Config& config);

/// Resolved configuration plus derived parameters, as written to config.resolved.json.
nlohmann::json resolved_json(const Design& design);

}  // namespace npugen::elab
