// The one typed model of an npugen YAML configuration. Everything generated (RTL,
// golden-model parameters, scripts, docs) is derived from a validated Config.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "config/diagnostic.hpp"
#include "config/schema_reader.hpp"

namespace npugen::config {

struct OperandFormat {
  int width = 8;
  bool is_signed = true;
};

struct DesignConfig {
  std::string name;           ///< design name: output folder and file names
  std::string module_prefix;  ///< prefix of every generated module name
  double clock_mhz = 0;       ///< target clock frequency for the constraints
};

struct PeArrayConfig {
  int tiles = 0;
  int lanes = 0;
  OperandFormat weight;
  OperandFormat activation;
  int accumulator_width = 0;
  int adder_tree_stages = 0;
};

struct SimConfig {
  int64_t cycles = 0;
  int64_t seed = 0;
  double valid_probability = 0;
  int max_dot_length = 0;
};

struct Config {
  DesignConfig design;
  PeArrayConfig pe_array;
  SimConfig sim;
  std::filesystem::path source;  ///< the file it was read from (not part of the hash)
};

struct LoadResult {
  std::optional<Config> config;  ///< present exactly when diagnostics is empty
  Diagnostics diagnostics;
};

/// Reads and validates a configuration file; every problem is reported at once.
LoadResult load_config(const std::filesystem::path& file);
/// The same, from text (display_name is used in messages).
LoadResult load_config_text(const std::string& text, const std::string& display_name);

/// The schema's documentation, produced by the same code that reads a file.
Schema describe_schema();

/// Resolved configuration (every default filled in), canonical key order.
nlohmann::json to_json(const Config& config);
/// SHA-256 of the canonical resolved configuration, in hex.
std::string config_hash(const Config& config);

}  // namespace npugen::config
