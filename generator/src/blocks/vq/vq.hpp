// The vector-quantized weight dequantizer: P copies of a codebook of N rows x M
// weights turning P indices a cycle into P vectors of a per-layer length m, with virtual
// tables, configuration registers, a codebook write port and an out-of-table error flag
// (section `vq`).
#pragma once

#include <string>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "npugen/golden/vq/params.hpp"

namespace npugen::blocks::vq {

const Block& block();

/// The `vq` section.
struct VqConfig {
  bool enabled = false;
  golden::VqParams params;
  bool ram = true;  ///< codebook copies as inferable memories (false: registers)
};
const VqConfig& config_of(const config::Config& config);

class Design : public BlockDesign {
 public:
  golden::VqParams params;  ///< also what the co-simulation's golden model gets
  bool ram = true;
  int weight_width = 8;  ///< W: bits per weight
  int row_width = 32;    ///< M x W: bits of a codebook row
  int beat_width = 128;  ///< P x M x W: bits of an output beat
  int offset_bits = 0;   ///< log2 M: weight offset of a vector inside its row
  int shift_bits = 1;    ///< bits of a weight offset times W (a shift of a row)

  std::string dequant_module;   ///< the top
  std::string codebook_module;  ///< one copy of the codebook
  std::string package;          ///< its package

  /// The block's constants in its package (the register map's are added by the emitter).
  [[nodiscard]] elab::SvConstants constants() const;

  [[nodiscard]] const Block& block() const override { return vq::block(); }
  [[nodiscard]] std::string top() const override { return dequant_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

}  // namespace npugen::blocks::vq
