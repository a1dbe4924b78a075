// The plain reference of the address generator: the im2col matrix of a layer walked in
// the generator's order with nested loops and direct index arithmetic (products, no
// running counters). It shares no code with the cycle model (AguModel); the co-simulation
// checks every address set the RTL streams against it, as FINN checks its sliding-window
// generator against its Im2Col operator.
#pragma once

#include <vector>

#include "npugen/golden/agu/params.hpp"

namespace npugen::golden {

/// Every address set of `layer`, in order: filter block, image, output row, output column,
/// kernel row, kernel column, channel word (conv, fc; MEC: output column before output row,
/// with each set's window slot and reuse flag); fc_batch: image, channel word (the
/// feature loads), then filter block, neuron, channel word. Addresses wrap at their field
/// widths; a padded set's act_addr is 0 (the hardware's is meaningless there).
std::vector<AddressSet> im2col_reference(const AguParams& p, const AguLayer& layer, unsigned group);

/// Activation words: `touched` = distinct words of the input the layer reads (its
/// footprint), `read` = words read by the address stream in im2col order (pads excluded),
/// `mec_read` = words read from the buffer in MEC order (pads and window reuse excluded),
/// `materialised` = elements of the unrolled im2col matrix in words (OH x OW x N x KH x KW
/// x ceil(C/L)). One filter block's worth: each further block reads as much again.
struct ActivationTraffic {
  uint64_t touched = 0;
  uint64_t read = 0;
  uint64_t mec_read = 0;
  uint64_t materialised = 0;
};
ActivationTraffic activation_traffic(const AguParams& p, const AguLayer& layer);

}  // namespace npugen::golden
