// What software writes to run a TFLite int8 layer on the sequencer: the layer registers,
// the weight rows in the store, and the post unit's parameter-table groups (the bias
// folded as TFLite folds it: bias - x_zp x sum(w), so the array multiplies raw
// activations and padded positions read x_zp). The co-simulation and the unit tests lower
// their layers with it; the network compiler will too.
//
// Layouts (docs/sequencer.md):
//  - activations: NHWC words of L int8; a pixel's C channels in ceil(C/L) words, the
//    lanes beyond C unused;
//  - weights: row kb x KH x KW x ceil(C/L) + (kh x KW + kw) x ceil(C/L) + cb from the
//    layer's base, tile t's L weights at bytes t x L of the row: filter kb x T + t,
//    channels cb x L onwards (0 beyond K or C). Every dataflow uses this one layout;
//    fc_batch broadcasts one tile's slice of a row.
//  - a fully connected layer over an H x W x C tensor reads its ceil(C/L) words per pixel
//    as one feature vector of H x W x ceil(C/L) words: the weights of the lanes beyond C
//    are 0.
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/post/model.hpp"
#include "npugen/golden/post/reference.hpp"
#include "npugen/golden/sequencer/params.hpp"

namespace npugen::golden {

/// Where a layer's tensors, weights and parameters are.
struct LayerPlacement {
  unsigned in_buf = 0, out_buf = 1;
  uint64_t in_base = 0, out_base = 0;  ///< words
  uint64_t wgt_base = 0;               ///< weight row
  unsigned param_base = 0;             ///< post table group
};

struct LoweredLayer {
  AguLayer regs;                                  ///< the layer registers
  std::vector<std::vector<uint8_t>> weight_rows;  ///< from wgt_base, T x L bytes each
  std::vector<std::vector<PostChannel>> params;   ///< groups from param_base, P each
  reference::Tensor out_shape;                    ///< the output's shape (no data)
};

/// Lowers `layer` over an input of `in`'s shape (its data unused). conv: the layer as it
/// is; fc and fc_batch: the input flattened per image (the layer's weights [K][H*W*C]).
/// The output range (zero point, clamp) must be the same for every channel.
LoweredLayer lower_layer(const SequencerDesign& d, Dataflow flow, const reference::Tensor& in,
                         const reference::ConvLayer& layer, const LayerPlacement& at);

/// A post parameter-table group as the host port writes it (mem_data_bits, little-endian
/// bytes: the P biases, multipliers and shifts; params.hpp param_*_lsb).
std::vector<uint8_t> param_group_bytes(const SequencerDesign& d,
                                       const std::vector<PostChannel>& group);

/// The words of a tensor in a buffer at `base` (NHWC, ceil(C/L) words a pixel, lanes beyond
/// C zero).
std::vector<std::vector<uint8_t>> tensor_words(const reference::Tensor& t, unsigned lanes);

/// Reads a tensor of `shape` back from words at `base` (`word(addr)` gives L bytes).
template <typename Word>
reference::Tensor read_tensor(const reference::Tensor& shape, unsigned lanes, uint64_t base,
                              Word&& word) {
  reference::Tensor t = shape;
  const unsigned words = (static_cast<unsigned>(t.c) + lanes - 1) / lanes;
  t.data.assign(static_cast<size_t>(t.n) * t.h * t.w * t.c, 0);
  for (size_t px = 0; px < static_cast<size_t>(t.n) * t.h * t.w; ++px) {
    for (int ch = 0; ch < t.c; ++ch) {
      const uint8_t* w = word(base + px * words + static_cast<unsigned>(ch) / lanes);
      t.data[px * static_cast<size_t>(t.c) + static_cast<size_t>(ch)] =
          static_cast<int8_t>(w[static_cast<unsigned>(ch) % lanes]);
    }
  }
  return t;
}

}  // namespace npugen::golden
