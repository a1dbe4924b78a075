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

#include <algorithm>
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
  AguLayer regs;  ///< the layer registers
  /// From wgt_base: T x L bytes each; zero_skip: the preprocessed steps of every filter
  /// block, one a row of store_row_bytes (the weights, the control word, the filters, the
  /// pixel-end flag; params.hpp).
  std::vector<std::vector<uint8_t>> weight_rows;
  std::vector<std::vector<PostChannel>> params;  ///< groups from param_base, P each
  reference::Tensor out_shape;                   ///< the output's shape (no data)
  uint64_t dense_rows = 0;                       ///< rows of a filter block (KH x KW x ceil(C/L))
};

/// Lowers `layer` over an input of `in`'s shape (its data unused). conv: the layer as it
/// is; fc and fc_batch: the input flattened per image (the layer's weights [K][H*W*C]).
/// zero_skip: as conv, each filter block's rows ([T][R][L]) preprocessed (zs.levels) and
/// checked against the dense block (check_schedule), the address generator given one
/// block (FILTERS min(K, T), outputs still ceil(K/L) words a pixel); throws
/// std::invalid_argument when a block's R rows exceed a staging slot (zs.max_rows / 3).
/// The output range (zero point, clamp) must be the same for every channel.
LoweredLayer lower_layer(const SequencerDesign& d, Dataflow flow, const reference::Tensor& in,
                         const reference::ConvLayer& layer, const LayerPlacement& at);

/// Cycles a zero_skip layer's output pixel takes on the sequencer, as the cycle model runs
/// it when nothing else waits: its window staged while the pixel before is replayed (one
/// word a cycle), and the replay of its `steps` (one a cycle) plus the array's pipeline and
/// the hand-over to the next pixel (kZsPixelOverhead cycles, measured in the co-simulation's
/// perf mode). The dense array takes ceil(K/T) x rows.
inline constexpr uint64_t kZsPixelOverhead = 1;
inline uint64_t zs_pixel_cycles(uint64_t rows, uint64_t steps) {
  return std::max(rows, steps + kZsPixelOverhead);
}

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
