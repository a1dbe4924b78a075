// A convolution or fully connected layer computed the way the NPU computes it: the
// activation buffer in words of L channels (NHWC, channels padded to a multiple of L), the
// weight store in rows of T x L weights, the address generator's model streaming one
// address set per step, a T x L array step per set (the activation word broadcast, one
// weight row per tile; a padded position reads the input zero point), each tile's
// accumulator opened at `first` and closed at `last`, and the post unit requantizing each
// filter of the block with the bias folded as TFLite folds it:
// bias' = bias - x_zp * sum(w). The golden path of the sequencer's conv dataflow, checked
// against the plain reference (conv2d_direct, fully_connected). The buffer words, weight
// rows and folded biases come from the lowering (lowering.hpp), as the sequencer gets them.
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/agu/params.hpp"
#include "npugen/golden/post/reference.hpp"

namespace npugen::golden {

/// What a layer run read and computed.
struct ConvRunStats {
  uint64_t steps = 0;         ///< address sets (array steps)
  uint64_t act_reads = 0;     ///< activation words read (padded sets read none)
  uint64_t weight_reads = 0;  ///< weight rows read (one per step in the conv dataflow)
  uint64_t macs = 0;          ///< useful multiply-accumulates (K x N x OH x OW x KH x KW x C)
};

/// Runs `layer` on `input` through the address generator's model with parameters `p`
/// (T = p.tiles, L = p.lanes); the output tensor, NHWC.
reference::Tensor conv_run(const AguParams& p, const reference::Tensor& input,
                           const reference::ConvLayer& layer, ConvRunStats* stats = nullptr);

}  // namespace npugen::golden
