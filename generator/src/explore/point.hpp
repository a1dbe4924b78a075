// One point of npugen explore's design space: its configuration keys, and what it costs and
// does (golden-model cycles of the network, Yosys cells and flip-flops of the NPU top).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npugen::explore {

struct Point {
  std::vector<std::pair<std::string, std::string>> settings;  ///< key, value (as written)
  std::string status = "ok";  ///< ok, invalid (the validator refused it), no_fit (the network
                              ///< does not compile for it), synth_failed, skipped (another shard)
  std::string message;
  std::string config_hash, manifest_hash;
  int batch = 0;                 ///< images a program runs (the most that fit, as npugen run)
  uint64_t cycles = 0;           ///< golden-model cycles of one batch
  double cycles_per_image = 0;   ///< cycles / batch
  double images_per_second = 0;  ///< at the configuration's clock
  uint64_t cells = 0, ffs = 0;   ///< Yosys, hierarchical, the NPU top
  double synth_seconds = 0;      ///< Yosys's time (0 when cached)
  bool synth_cached = false;
  bool front = false;   ///< on the Pareto front of cycles per image against cells
  bool chosen = false;  ///< the point --max-cells or --min-fps picked

  [[nodiscard]] bool costed() const { return status == "ok" && cells != 0; }
  /// "lanes=4 tiles=8": the settings, for labels.
  [[nodiscard]] std::string label() const;
};

}  // namespace npugen::explore
