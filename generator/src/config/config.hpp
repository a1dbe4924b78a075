// The one typed model of an npugen YAML configuration. Everything generated (RTL,
// golden-model parameters, scripts, docs) is derived from a validated Config.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

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

/// One level of hierarchical zero skipping (SPEC M1). Level 1 moves single weights inside
/// a tile (lookahead rows, lookaside lanes to either side); level 2 moves whole tile rows
/// (lookahead rows through the tile's prefetch mux, lookaside tiles through the result
/// demultiplexer).
struct SkipLevel {
  bool enabled = true;
  int lookahead = 1;
  int lookaside = 1;
};

struct ZeroSkipConfig {
  bool enabled = false;
  std::vector<SkipLevel> levels;  ///< levels[0] intra-tile, levels[1] inter-tile
  int act_rows_per_cycle = 2;     ///< activation buffer read bandwidth
  int max_rows = 1024;            ///< C: most original cycles (weight rows) of one job
  int step_buffer_depth = 2;      ///< entries of the weight and control-bit buffers

  /// Depths of a level as used (0 when the level is off or absent).
  [[nodiscard]] int lookahead(size_t level) const {
    return enabled && level < levels.size() && levels[level].enabled ? levels[level].lookahead : 0;
  }
  [[nodiscard]] int lookaside(size_t level) const {
    return enabled && level < levels.size() && levels[level].enabled ? levels[level].lookaside : 0;
  }
};

struct PeArrayConfig {
  int tiles = 0;
  int lanes = 0;
  OperandFormat weight;
  OperandFormat activation;
  int accumulator_width = 0;
  int adder_tree_stages = 0;
  ZeroSkipConfig zero_skip;
};

/// The vector-quantized weight dequantizer (SPEC M3): P copies of a codebook of N rows x
/// M weights, one lookup per copy and cycle.
struct VqConfig {
  bool enabled = false;
  int rows = 256;                      ///< N (power of two); index width log2 N
  int row_weights = 4;                 ///< M (power of two)
  int copies = 4;                      ///< P
  int min_vector_length = 2;           ///< smallest m (power of two, <= M)
  std::string weight_format = "int8";  ///< int<w>, uint<w> (w = 2..32), fp16, bf16
  std::string memory = "ram";          ///< ram: Yosys infers memories; flops: registers
};

struct TasksConfig {
  bool enabled = false;
  int entries = 8;  ///< E: task buffer entries
  int queues = 2;   ///< K: task queues
  int neural_engines = 1;
  int planar_engines = 1;
  int config_queue_depth = 2;
  int64_t buffer_words = 1 << 20;  ///< shared data buffer, in words
  int64_t memory_words = 1 << 16;  ///< descriptor memory the task manager addresses
  int memory_latency = 4;          ///< system-memory read latency (scheduler, testbench)
  int cycle_bits = 24;             ///< width of a task's work-cycle count
  int planar_words_per_cycle = 4;  ///< planar engine I/O rate (network task durations)
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
  VqConfig vq;
  TasksConfig tasks;
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
