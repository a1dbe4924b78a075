// The zero-skipping PE array: weights preprocessed offline with hierarchical
// lookahead/lookaside, a control-bit buffer beside the weight buffer, lane activation
// muxes, tile prefetch muxes and result demultiplexers. It builds on the `pe_array`
// section's array and stands in for the dense array when enabled (section `zs`).
#pragma once

#include <string>

#include "blocks/block.hpp"
#include "blocks/pe_array/pe_array.hpp"
#include "npugen/golden/zs/params.hpp"

namespace npugen::blocks::zs {

const Block& block();

/// The `zs` section: whether the block is on, and its golden parameters (the array's
/// from the `pe_array` section).
struct ZsConfig {
  bool enabled = false;
  golden::ZeroSkipParams params;
};
const ZsConfig& config_of(const config::Config& config);

class Design : public BlockDesign {
 public:
  pe_array::Array array;          ///< the array (its tile and tree named <prefix>_zs_*)
  golden::ZeroSkipParams params;  ///< also what the co-simulation's golden model gets
  golden::ControlLayout layout;   ///< the control word, shared with the golden model
  bool beside_dense = false;  ///< in the sequencer, beside the dense array (pe_array's kPeArray)
  int window = 1;             ///< activation rows held: h + H + 1
  int row_bits = 1;           ///< activation row address width
  int count_bits = 1;         ///< width of the row counts (0..window, and R + 1)
  bool lane_mux = false;      ///< level 0 lookahead on: per-lane activation muxes
  bool prefetch_mux = false;  ///< level 1 lookahead on: per-tile prefetch muxes
  bool demux = false;         ///< level 1 lookaside on: result demultiplexers
  // Numbers the RTL's comments show.
  int row_width = 1;     ///< bits of an activation row: L x activation width
  int tile_rows = 1;     ///< window rows a tile reads: h + 1
  int lane_span = 1;     ///< lanes a weight may come from in a row ahead: 2d + 1
  int demux_inputs = 1;  ///< sums routed to an accumulator: D + 1

  std::string array_module;  ///< the top
  std::string package;       ///< its package
  std::string window_module;
  std::string prefetch_module;
  std::string lane_mux_module;
  std::string demux_module;
  std::string accumulator_module;

  [[nodiscard]] const Block& block() const override { return zs::block(); }
  [[nodiscard]] std::string top() const override { return array_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
  /// The package's constants: the array's and the zero-skipping ones.
  [[nodiscard]] elab::SvConstants constants() const;
  /// docs/control_word.md: the bit layout of this design's control word.
  [[nodiscard]] std::string control_word_markdown(const elab::Design& design) const;
};

/// `npugen bench CONFIG --preprocess W.npy [--repeat N]`: the best of N times of the
/// preprocessing alone, the contract check and the lower bound on one weight tensor.
void bench_preprocess(const elab::Design& design, const OfflineBench::Args& args);

}  // namespace npugen::blocks::zs
