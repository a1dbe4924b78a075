// The elaborated design: the validated configuration, what every emitter shares (names,
// hash) and each generated block as elaborated by itself. Emitters read only this.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "blocks/block.hpp"
#include "config/config.hpp"

namespace npugen::elab {

struct Design {
  config::Config config;
  std::string config_file;  ///< file name of the configuration (no directories)
  std::string config_hash;  ///< SHA-256 of the resolved configuration
  /// The blocks the configuration generates, in list order.
  std::vector<std::shared_ptr<const blocks::BlockDesign>> blocks;
  std::string top;             ///< the first block's top module (the design's primary top)
  double clock_period_ns = 0;  ///< 1000 / design.clock_mhz
  /// Input and output delay of every block port in its SDC (timing.io_delay_fraction of the
  /// period), for the logic around the block.
  double io_delay_ns = 0;

  /// The first 16 hex digits of the hash, as file headers show it.
  [[nodiscard]] std::string short_hash() const { return config_hash.substr(0, 16); }
  /// The FuseSoC core's version: npugen's, then the configuration hash's first 32 bits as
  /// a decimal number (FuseSoC takes numeric versions only), so it follows the hash.
  [[nodiscard]] std::string core_version() const;
  /// The generated block of that name, or nullptr.
  [[nodiscard]] const blocks::BlockDesign* find(std::string_view name) const;
  /// The generated block of that type, or nullptr.
  template <typename T>
  [[nodiscard]] const T* find() const {
    for (const auto& b : blocks) {
      if (const auto* t = dynamic_cast<const T*>(b.get())) return t;
    }
    return nullptr;
  }
};

Design elaborate(const config::Config& config);

/// Resolved configuration plus derived parameters, as written to config.resolved.json.
nlohmann::json resolved_json(const Design& design);

}  // namespace npugen::elab
