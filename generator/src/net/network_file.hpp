// Reading a network file (docs/network.md): the input tensor and the layers with their
// TFLite int8 arithmetic, weights and quantization parameters from .npy files or scalars
// (paths relative to the network file), into golden::net::Network. Shape-only networks
// (no weights anywhere: npugen schedule's examples) read too; `has_arithmetic` says which
// kind a file is. Every problem is reported at the file and line of the key it concerns.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/diagnostic.hpp"
#include "npugen/golden/network/network.hpp"

namespace npugen::net {

/// A layer's scheduling annotations, beside the arithmetic in golden::net::Layer.
struct LayerPlan {
  unsigned split = 1;  ///< tasks along channels (npugen schedule)
  int column = 0;      ///< where the layer's name is (its line is in the layer)
};

struct NetworkFile {
  golden::net::Network network;
  std::vector<LayerPlan> plan;      ///< per layer
  std::vector<int32_t> zero_point;  ///< per tensor (0 the input)
  int input_line = 0, layers_line = 0, layers_column = 0;
};

struct NetworkResult {
  std::optional<NetworkFile> file;  ///< set when there is no error
  config::Diagnostics diagnostics;
};

/// Reads network text; `display_name` is how messages name it, `dir` where its .npy files
/// are.
NetworkResult read_network_text(const std::string& text, const std::string& display_name,
                                const std::filesystem::path& dir);
/// Reads a network file (regular files only; a missing file is a diagnostic).
NetworkResult read_network_file(const std::filesystem::path& file);

}  // namespace npugen::net
