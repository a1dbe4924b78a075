// partition (passes.hpp): each neural layer in tiles of output channels that fit the weight
// store and the post table beside the layers before it, each tile lowered to its weight rows
// (dense, or the zero-skipping array's preprocessed steps when they are faster) and its post
// parameters; the planar gain table's one layer.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "passes.hpp"

namespace npugen::compiler {
namespace {

using golden::Dataflow;
using golden::LoweredLayer;
using golden::ProgramTensor;

// The table space in use, row and group (the host writes every layer's first: kTasks
// without weights by the DMA).
struct Tables {
  uint64_t weight_rows = 0, param_groups = 0;
};

void neural(const Target& t, Graph& g, Node& node, Tables& used) {
  const size_t i = node.layer;
  const golden::net::Layer& l = t.n.layers[i];
  const ProgramTensor& x = g.tensors[l.inputs[0]];
  const unsigned lanes = t.d.lanes(), tiles = t.d.seq.tiles();
  const bool fc = node.info->dataflow == Dataflow::kFc;
  const golden::reference::ConvLayer& c = node.conv;
  const auto k = static_cast<uint64_t>(c.filters);
  // The weight store and the post table: with the host sequencing, each layer's weights and
  // parameters are written just before it runs, from row and group 0; with the task unit,
  // every layer's are written first, layer after layer. A layer whose filters do not fit
  // runs, sequenced by the host, in tiles of output channels (a multiple of lcm(L, T)
  // filters each), its weights and parameters written again before each.
  const bool each = !t.tasks || t.dma_weights;  // this layer's weights are loaded for it alone
  if (each) used = Tables{};
  if (t.dma_weights && l.vq.vector_length != 0) {
    throw t.error(i,
                  "it is loaded as codebook indices (vq:) by the host before the list starts, "
                  "but this network's weights go through the DMA layer by layer "
                  "(--weights-by-dma, or the store does not hold every layer's at once); "
                  "sequence it by the host (--sequencing host)");
  }
  const uint64_t cw = (static_cast<uint64_t>(x.c) + lanes - 1) / lanes;
  const uint64_t block_rows =
      static_cast<uint64_t>(c.kernel_h) * static_cast<uint64_t>(c.kernel_w) * cw;
  const uint64_t plane = t.d.seq.post.lanes;
  auto rows_of = [&](uint64_t f) { return (f + tiles - 1) / tiles * block_rows; };
  auto groups_of = [&](uint64_t f) { return (f + plane - 1) / plane; };
  auto fits = [&](uint64_t f) {
    return used.weight_rows + rows_of(f) <= t.d.seq.agu.weight_rows &&
           used.param_groups + groups_of(f) <= t.d.seq.post.groups();
  };
  // A tile of output channels is a multiple of lcm(L, T) filters (its outputs start at a word,
  // its weights at a filter block). Above the address generator's FILTERS maximum
  // (agu.max_channels) the layer runs in tiles of at most that many.
  const uint64_t step = std::lcm<uint64_t>(lanes, tiles);
  uint64_t cap = k;
  if (k > t.d.seq.agu.max_channels) {
    cap = t.d.seq.agu.max_channels / step * step;
    if (cap == 0) {
      throw t.error(i, fmt::format("{} filters are above the address generator's {} "
                                   "(agu.max_channels), and a tile of output channels is a "
                                   "multiple of {} filters (lcm of the lanes and the tiles)",
                                   k, t.d.seq.agu.max_channels, step));
    }
  }
  // Every tile of `f` filters at once (the host writes every layer's before the task unit
  // starts).
  auto fits_layer = [&](uint64_t f) {
    uint64_t rows = 0, groups = 0;
    for (uint64_t k0 = 0; k0 < k; k0 += f) {
      rows += rows_of(std::min(f, k - k0)), groups += groups_of(std::min(f, k - k0));
    }
    return used.weight_rows + rows <= t.d.seq.agu.weight_rows &&
           used.param_groups + groups <= t.d.seq.post.groups();
  };
  uint64_t tile_filters = cap;
  if (each ? !fits(cap) : !fits_layer(cap)) {
    tile_filters = 0;
    while (each && tile_filters + step < cap && fits(tile_filters + step)) tile_filters += step;
    if (tile_filters == 0) {
      const bool rows = used.weight_rows + rows_of(k) > t.d.seq.agu.weight_rows;
      const std::string what =
          rows ? fmt::format(
                     "{} weight rows do not fit the weight store ({} rows, {} in use; "
                     "agu.weight_rows)",
                     rows_of(k), t.d.seq.agu.weight_rows, used.weight_rows)
               : fmt::format(
                     "{} parameter groups do not fit the post unit's table ({} groups "
                     "of {} channels, {} in use; post.max_channels)",
                     groups_of(k), t.d.seq.post.groups(), plane, used.param_groups);
      if (!each) {
        throw CompileError(
            fmt::format("layer {}: {}; sequenced by the host (--sequencing host){} it would run "
                        "in tiles of output channels",
                        l.name, what, t.dma ? "" : ", or with the DMA (without --host-io),"),
            static_cast<int>(i), t.dma);
      }
      throw t.error(
          i, what + fmt::format(", nor do {} filters, the smallest tile", std::min(step, k)));
    }
  }
  golden::reference::Tensor shape;
  shape.n = t.batch, shape.h = x.h, shape.w = x.w, shape.c = x.c;
  const uint64_t per = c.weights.size() / k;           // weights a filter
  const uint64_t out_words = (k + lanes - 1) / lanes;  // a pixel's output words
  std::vector<std::optional<LoweredLayer>> zs;         // each tile's on the zero-skipping array
  for (uint64_t k0 = 0; k0 < k; k0 += tile_filters) {
    Tile& tile = node.tiles.emplace_back();
    tile.k0 = k0;
    tile.kk = std::min(tile_filters, k - k0);
    golden::reference::ConvLayer part = c;
    if (tile.kk != k) {  // filters k0 .. k0 + kk - 1
      part.filters = static_cast<int>(tile.kk);
      part.weights.assign(c.weights.begin() + static_cast<std::ptrdiff_t>(k0 * per),
                          c.weights.begin() + static_cast<std::ptrdiff_t>((k0 + tile.kk) * per));
      part.bias.assign(c.bias.begin() + static_cast<std::ptrdiff_t>(k0),
                       c.bias.begin() + static_cast<std::ptrdiff_t>(k0 + tile.kk));
      part.output.assign(c.output.begin() + static_cast<std::ptrdiff_t>(k0),
                         c.output.begin() + static_cast<std::ptrdiff_t>(k0 + tile.kk));
    }
    LoweredLayer& low = tile.low;
    try {  // placed by lower
      low = golden::lower_layer(t.d.seq, node.info->dataflow, shape, part, {});
    } catch (const std::invalid_argument& e) {
      throw t.error(i, e.what());
    }
    if (k0 == 0 && (low.out_shape.h != l.out.h || low.out_shape.w != l.out.w)) {
      throw std::logic_error(
          fmt::format("compile_network: layer {}'s lowering gives {}x{}, its "
                      "shape rule {}x{}",
                      l.name, low.out_shape.h, low.out_shape.w, l.out.h, l.out.w));
    }
    // A tile writes its channels' words of every output pixel.
    low.regs.out_pixel_stride = out_words;
    low.regs.out_row_stride = out_words * static_cast<uint64_t>(l.out.w);
    // The dense array's steps (the mapping bound), before zero skipping may replace them.
    node.mapping_bound += low.regs.steps(t.d.seq.agu);
    std::optional<LoweredLayer>& z = zs.emplace_back();
    if (t.zero_skip && l.vq.vector_length == 0) {
      // On the zero-skipping array (fc as a convolution over its whole input) when its
      // window fits the staged half, the address generator takes it, and its steps a pixel
      // beat the dense array's rows.
      try {
        z = golden::lower_layer(t.d.seq, Dataflow::kZeroSkip, shape, part, {});
      } catch (const std::invalid_argument&) {
        z.reset();  // the window exceeds a staging slot (zs.max_rows / 3): dense
      }
      if (z) {
        z->regs.out_pixel_stride = low.regs.out_pixel_stride;
        z->regs.out_row_stride = low.regs.out_row_stride;
        const uint64_t blocks = (tile.kk + tiles - 1) / tiles;
        const uint64_t steps = z->weight_rows.size();
        if (t.neural_refusal(z->regs).empty() &&
            golden::zs_pixel_cycles(z->dense_rows, steps) < blocks * low.dense_rows) {
          z->out_shape = low.out_shape;
        } else {
          z.reset();
        }
      }
    }
  }
  // An fc's tiles all on one array: the zero-skipping array sees the input as an H x W image,
  // the dense array as one row (a layer in bands runs every tile over the same bands).
  if (fc && node.tiles.size() > 1 &&
      !std::all_of(zs.begin(), zs.end(), [](const auto& z) { return z.has_value(); })) {
    for (auto& z : zs) z.reset();
  }
  for (size_t n = 0; n < node.tiles.size(); ++n) {
    Tile& tile = node.tiles[n];
    LoweredLayer& low = tile.low;
    if (zs[n]) {
      node.zs_steps += zs[n]->weight_rows.size();
      low = std::move(*zs[n]);
    }
    if (const std::string why = t.neural_refusal(low.regs); !why.empty()) {
      throw t.error(i, fmt::format("the sequencer cannot run it: {}{}", why,
                                   fc ? " (fc reads its input as one vector of H x W x "
                                        "ceil(C/L) words)"
                                      : ""));
    }
    tile.wgt_base = used.weight_rows;
    tile.param_base = static_cast<unsigned>(used.param_groups);
    if (t.tasks && !t.dma_weights) {  // every layer's written first, layer after layer
      used.weight_rows += low.weight_rows.size();
      used.param_groups += low.params.size();
    }
  }
}

}  // namespace

void partition(const Target& t, Graph& g) {
  Tables used;
  for (Node& node : g.nodes) {
    if (node.info->neural) {
      neural(t, g, node, used);
      continue;
    }
    // A planar layer is one task (or its bands' and tiles'), its limits checked in layer
    // order with the neural layers'.
    if (runs_as_copies(node.info->op)) {  // concat, resize: copies of the input(s)
      node.mapping_bound = 0;
      for (const CopyPart& p : copy_parts(t.n, node.layer, node.task, t.d.lanes())) {
        // Each copy runs whole: no bands, tiles or slices yet.
        if (const std::string why = golden::planar_refusal(t.d.planar, p.task); !why.empty()) {
          throw t.error(node.layer, fmt::format("the planar engine cannot copy an input: {} (a "
                                                "{}'s copies run whole, in no bands or slices)",
                                                why, golden::net::op_name(node.info->op)));
        }
        node.mapping_bound += golden::planar_beats(t.d.planar, p.task);
      }
    } else {
      if (const std::string why = t.planar_refusal(node.task); !why.empty()) {
        throw t.error(node.layer, fmt::format("the planar engine cannot run it: {}", why));
      }
      node.mapping_bound = golden::planar_beats(t.d.planar, node.task);
    }
    if (t.tasks && !t.dma_weights && !node.gains.empty()) {
      const golden::net::Layer& l = t.n.layers[node.layer];
      if (g.gain_layer) {
        throw CompileError(
            fmt::format("layer {}: a second {} layer (after {}, {}): the planar gain table "
                        "holds one layer's gains or LUT, written before the task unit starts; "
                        "sequence this network by the host{}",
                        l.name, golden::net::op_name(l.op), t.n.layers[*g.gain_layer].name,
                        golden::net::op_name(t.n.layers[*g.gain_layer].op),
                        t.dma ? "" : ", or load the gains through the DMA (without --host-io)"),
            static_cast<int>(node.layer), t.dma);
      }
      g.gain_layer = node.layer;
    }
  }
}

}  // namespace npugen::compiler
