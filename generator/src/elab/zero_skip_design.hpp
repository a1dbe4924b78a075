// Elaboration of the zero-skipping PE array (SPEC M1): golden-model parameters, the
// control-word layout and the structure of the RTL, derived once from the config.
#pragma once

#include <string>

#include "config/config.hpp"
#include "npugen/golden/zero_skip_params.hpp"

namespace npugen::elab {

struct ZeroSkipDesign {
  bool enabled = false;
  golden::ZeroSkipParams params;  ///< also what the co-simulation's golden model gets
  golden::ControlLayout layout;   ///< the control word, shared with the golden model
  int window = 1;                 ///< activation rows held: h + H + 1
  int row_bits = 1;               ///< activation row address width
  int count_bits = 1;             ///< width of the rows-read count (0..R)
  bool lane_mux = false;          ///< level 0 on: per-lane activation muxes
  bool prefetch_mux = false;      ///< level 1 lookahead on: per-tile prefetch muxes
  bool demux = false;             ///< level 1 lookaside on: result demultiplexers

  std::string buffer_module;
  std::string window_module;
  std::string prefetch_module;
  std::string lane_mux_module;
  std::string demux_module;
  std::string accumulator_module;
};

ZeroSkipDesign elaborate_zero_skip(const config::Config& config);

/// Golden-model parameters of the array described by a configuration (dense part only
/// when zero skipping is off).
golden::ZeroSkipParams zero_skip_params(const config::Config& config);

}  // namespace npugen::elab
