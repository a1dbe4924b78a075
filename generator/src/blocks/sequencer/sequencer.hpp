// The sequencer: the neural engine that runs convolution and fully
// connected layers on the PE array (section `sequencer`). It instantiates the blocks it is
// built from, which the configuration also enables: the address generator (section agu,
// whose register groups are the layer registers), the dense PE array (pe_array) and the
// post unit (post); it adds the activation buffers, the weight store and cache, and the
// control between them (docs/sequencer.md).
#pragma once

#include <string>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "npugen/golden/sequencer/params.hpp"

namespace npugen::blocks::sequencer {

const Block& block();

/// The `sequencer` section.
struct SequencerConfig {
  bool enabled = false;
  golden::SequencerParams params;
};
const SequencerConfig& config_of(const config::Config& config);

class Design : public BlockDesign {
 public:
  golden::SequencerDesign design;  ///< also what the co-simulation's golden model gets
  unsigned row_count_bits = 1;     ///< rows of a filter block: up to kernel^2 x ceil(C/L)
  unsigned cache_addr_bits = 1;
  unsigned beat_index_bits = 1;
  unsigned pending_bits = 1;

  std::string seq_module;  ///< the top
  std::string ram_module;  ///< its memories
  std::string package;     ///< its package
  // The blocks inside.
  std::string agu_module, array_module, post_module;
  std::string zs_array_module;  ///< with zero_skip: the zero-skipping array

  [[nodiscard]] elab::SvConstants constants() const;

  [[nodiscard]] const Block& block() const override { return sequencer::block(); }
  [[nodiscard]] std::string top() const override { return seq_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

}  // namespace npugen::blocks::sequencer
