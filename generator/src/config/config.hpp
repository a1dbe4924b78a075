// The typed model of an npugen YAML configuration: the design's identity and the
// co-simulation defaults, read here, and every block's section, read by the block itself
// (a SchemaPart) into a struct of its own. Everything generated (RTL, golden-model
// parameters, scripts, docs) is derived from a validated Config.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/diagnostic.hpp"
#include "config/schema_reader.hpp"

namespace npugen::config {

struct DesignConfig {
  std::string name = "npu";   ///< design name: output folder and file names
  std::string module_prefix;  ///< prefix of every generated module name (default: name)
  double clock_mhz = 200;     ///< target clock frequency for the constraints
};

/// What the timing constraints and the timing flow (npugen timing) assume around the design.
struct TimingConfig {
  double clock_uncertainty_ns = 0.25;  ///< jitter and skew before clock-tree synthesis (setup)
  double hold_uncertainty_ns = 0.1;    ///< skew before clock-tree synthesis (hold)
  double clock_transition_ns = 0.15;   ///< the ideal clock's transition before the tree
  double io_delay_fraction = 0.2;      ///< of the period, taken by the logic outside a port
  std::string driving_cell = "BUFX2";  ///< the liberty cell driving every input but the clock
  double output_load_pf = 0.04;        ///< the load on every output
  double max_transition_ns = 1.0;      ///< the longest transition a net may have
  int64_t memory_macro_bits = 4096;    ///< memories of at least this many bits are macros
  double memory_access_ns = 2.0;       ///< a macro's clock to read data
  double memory_setup_ns = 0.4;        ///< a macro's input setup before the clock
  double memory_hold_ns = 0.1;         ///< a macro's input hold after the clock
};

struct SimConfig {
  int64_t cycles = 20000;
  int64_t seed = 1;
  double valid_probability = 0.9;
  double ready_probability = 0.8;
  int64_t max_dot_length = 16;
};

struct Config;

/// A section of the schema read by another part of npugen (a block): one object reads it
/// or, in describe mode, documents it; the reader records every value it resolves, so the
/// resolved JSON needs no second list of keys.
class SchemaPart {
 public:
  virtual ~SchemaPart() = default;
  /// The section's key; also the block's name.
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// Reads the section from the root mapping into `config` (documents it when describing).
  virtual void read(Reader& reader, Section& root, Config& config) const = 0;
};

/// The sections' structs, by section name. Each part stores and finds its own type.
class SectionValues {
 public:
  template <typename T>
  void put(std::string_view name, T value) {
    values_[std::string(name)] = std::make_shared<const T>(std::move(value));
  }
  /// The section's struct; the caller names the type the part stored.
  template <typename T>
  [[nodiscard]] const T& get(std::string_view name) const {
    return *static_cast<const T*>(values_.at(std::string(name)).get());
  }
  [[nodiscard]] bool has(std::string_view name) const {
    return values_.count(std::string(name)) != 0;
  }

 private:
  std::map<std::string, std::shared_ptr<const void>> values_;
};

struct Config {
  DesignConfig design;
  TimingConfig timing;
  SimConfig sim;
  SectionValues sections;                ///< every part's struct
  std::vector<const SchemaPart*> parts;  ///< the parts, in schema order
  std::filesystem::path source;          ///< the file it was read from (not part of the hash)
  /// Every key as read, defaults filled in (Reader::resolved()): the resolved configuration.
  nlohmann::json resolved;
};

struct LoadResult {
  std::optional<Config> config;  ///< present exactly when diagnostics is empty
  Diagnostics diagnostics;
};

using Parts = std::vector<const SchemaPart*>;

/// Reads and validates a configuration file; every problem is reported at once.
LoadResult load_config(const std::filesystem::path& file, const Parts& parts);
/// The same, from text (display_name is used in messages).
LoadResult load_config_text(const std::string& text, const std::string& display_name,
                            const Parts& parts);

/// The schema's documentation, produced by the same code that reads a file.
Schema describe_schema(const Parts& parts);

/// Resolved configuration (every default filled in), canonical key order.
nlohmann::json to_json(const Config& config);
/// SHA-256 of the canonical resolved configuration, in hex.
std::string config_hash(const Config& config);

}  // namespace npugen::config
