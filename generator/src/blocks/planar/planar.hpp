// The planar engine (seed 001's planar engine): pooling, ADD, gain and bias,
// reductions and the clamp on int8 NHWC tensors, W words a cycle, with two ping-pong task
// register groups (section `planar`; the word's lanes come from section pe_array).
#pragma once

#include <cstdint>
#include <string>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "npugen/golden/planar/params.hpp"

namespace npugen::blocks::planar {

const Block& block();

/// planar.pipeline_stages from which the output multiply's product is computed in four
/// registered parts (docs/planar.md).
constexpr unsigned kSplitProductStages = 5;

/// planar.act_words: the words the ports address, 2 to kMaxActWords.
constexpr int64_t kMaxActWords = int64_t{1} << 24;

/// The `planar` section.
struct PlanarConfig {
  bool enabled = false;
  golden::PlanarParams params;
};
const PlanarConfig& config_of(const config::Config& config);
/// The operations a design generates, in words: "max_pool, avg_pool, add".
std::string mode_list(const golden::PlanarParams& p);

class Design : public BlockDesign {
 public:
  golden::PlanarParams params;  ///< also what the co-simulation's golden model gets
  int coord_bits = 1;           ///< signed window coordinates (padding below 0)
  int batch_bits = 1;           ///< image counter
  int out_dim_bits = 1;         ///< output row and column counters
  int beat_bits = 1;            ///< beat-in-pixel counter
  int row_bits = 1;             ///< gain-table row
  int param_row_bits = 1;       ///< parameter port's row (the gain table's and the LUT's)
  int count_bits = 1;           ///< channels of a beat (1 to V)
  int bank_bits = 1;            ///< line-buffer bank
  int lb_addr_bits = 1;         ///< line-buffer entry

  std::string planar_module;  ///< the top
  std::string package;        ///< its package

  [[nodiscard]] elab::SvConstants constants() const;

  [[nodiscard]] const Block& block() const override { return planar::block(); }
  [[nodiscard]] std::string top() const override { return planar_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

}  // namespace npugen::blocks::planar
