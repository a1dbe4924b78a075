// The address generator (convolution as a matrix multiply): from a layer's
// registers, in two ping-pong groups, one address set per cycle in im2col order for the PE
// array (section `agu`; the array's tiles and lanes come from section pe_array).
#pragma once

#include <string>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "npugen/golden/agu/params.hpp"

namespace npugen::blocks::agu {

const Block& block();

/// The `agu` section.
struct AguConfig {
  bool enabled = false;
  golden::AguParams params;
};
const AguConfig& config_of(const config::Config& config);
/// The dataflows a design generates, in words: "conv, fc, fc_batch".
std::string dataflow_list(const golden::AguParams& p);

class Design : public BlockDesign {
 public:
  golden::AguParams params;  ///< also what the co-simulation's golden model gets
  int coord_bits = 1;        ///< signed input coordinates (window origins, steps)
  int chan_bits = 1;         ///< channel counter: up to C + L
  int chan_word_bits = 1;    ///< channel-word counter: up to ceil(C / L)
  int filter_bits = 1;       ///< filter-block counter: up to K + T
  int batch_bits = 1;        ///< image counter: up to N

  std::string agu_module;  ///< the top
  std::string package;     ///< its package

  [[nodiscard]] elab::SvConstants constants() const;

  [[nodiscard]] const Block& block() const override { return agu::block(); }
  [[nodiscard]] std::string top() const override { return agu_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

}  // namespace npugen::blocks::agu
