// Elaboration of the vector-quantized weight dequantizer (SPEC M3): golden-model
// parameters and the structure of its RTL, derived once from the config.
#pragma once

#include <string>

#include "config/config.hpp"
#include "npugen/golden/vq_params.hpp"

namespace npugen::elab {

struct VqDesign {
  bool enabled = false;
  golden::VqParams params;  ///< also what the co-simulation's golden model gets
  bool ram = true;          ///< codebook copies as inferable memories (false: registers)
  int weight_width = 8;     ///< W: bits per weight
  int row_width = 32;       ///< M x W: bits of a codebook row
  int beat_width = 128;     ///< P x M x W: bits of an output beat
  int offset_bits = 0;      ///< log2 M: weight offset of a vector inside its row

  std::string dequant_module;   ///< the block's top
  std::string codebook_module;  ///< one copy of the codebook
};

VqDesign elaborate_vq(const config::Config& config);

/// Golden-model parameters of the dequantizer a configuration describes.
golden::VqParams vq_params(const config::Config& config);

}  // namespace npugen::elab
