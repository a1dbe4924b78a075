// The compiler's IR (docs/compiler.md): the network's layers as nodes, each filled in by the
// passes in turn (legalize, partition, allocate, lower), and what the passes share: the
// target (design and options), the tensors' places, the DMA's data area, the tasks.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "npugen/compiler/compile.hpp"
#include "npugen/compiler/op_table.hpp"
#include "npugen/compiler/row_bands.hpp"
#include "npugen/golden/npu/dma.hpp"
#include "npugen/golden/npu/program.hpp"
#include "npugen/golden/planar/params.hpp"
#include "npugen/golden/sequencer/lowering.hpp"

namespace npugen::compiler {

/// The design and the options as the passes read them.
struct Target {
  Target(const golden::NpuDesign& design, const golden::net::Network& network, int images,
         const CompileOptions& o);

  const golden::NpuDesign& d;
  const golden::net::Network& n;
  int batch;
  bool tasks;        ///< the task unit runs the layers (else the host)
  bool pack;         ///< pack the input for its reader when it pays
  bool dma;          ///< the input and output through memory and the DMA
  bool bands;        ///< a tensor above a buffer stays in memory, its layers run in row bands
  bool dma_weights;  ///< weights, parameters and gains loaded by the DMA before each layer
  bool zero_skip;    ///< layers may run on the zero-skipping array
  unsigned neural_group, planar_group;  ///< each engine's group of its first task
  size_t host_bytes;                    ///< a host-port write's bytes

  /// "layer <name>: <what>" for layer i.
  [[nodiscard]] CompileError error(size_t i, const std::string& what) const {
    return CompileError(fmt::format("layer {}: {}", n.layers[i].name, what), static_cast<int>(i));
  }
  /// Why a tensor above a buffer is refused: the row bands need the task unit and the DMA.
  [[nodiscard]] std::string band_hint() const;
  /// Whether a layer of `height` x `width` exceeds an engine's registers (`max_height`,
  /// `max_width`) and runs, with the task unit, in bands of rows and tiles of columns.
  [[nodiscard]] bool beyond(unsigned height, unsigned width, unsigned max_height,
                            unsigned max_width) const {
    return tasks && (height > max_height || width > max_width);
  }
  /// Why the sequencer cannot run layer registers `r`, or "": a layer beyond the address
  /// generator's height and width is checked as its largest band and tile (lower checks
  /// each); sequenced by the host, such a layer is refused, naming the task unit.
  [[nodiscard]] std::string neural_refusal(golden::AguLayer r) const;
  /// The same for the planar engine's task `p`, whose channels above `planar.max_channels`
  /// run in slices of channels when its operation allows (sliced_by_channels).
  [[nodiscard]] std::string planar_refusal(golden::PlanarTask p) const;
  /// Buffer `buf`'s word `base` as the planar engine and the task regions address it.
  [[nodiscard]] uint64_t planar_address(unsigned buf, uint64_t base) const {
    return buf * d.act_words() + base;
  }
};

/// Whether a planar operation runs on a slice of its channels as on the whole (pools, add,
/// the clamp, reductions over H x W; not a reduction over the channels, nor gain_bias, whose
/// gain table holds the layer's channels).
constexpr bool sliced_by_channels(golden::PlanarOp op, golden::PlanarAxis axis) {
  return op != golden::PlanarOp::kGainBias &&
         !(golden::is_reduce(op) && axis == golden::PlanarAxis::kChannels);
}

/// A neural layer's rows and columns (its registers `r`) as its bands and tiles of columns
/// see them: its window (an fc on the dense array sees each image as one row).
inline std::pair<BandGeometry, BandGeometry> neural_geometry(const golden::AguLayer& r) {
  return {{static_cast<int>(r.height), static_cast<int>(r.kernel_h), static_cast<int>(r.stride_y),
           static_cast<int>(r.pad_top), static_cast<int>(r.out_height())},
          {static_cast<int>(r.width), static_cast<int>(r.kernel_w), static_cast<int>(r.stride_x),
           static_cast<int>(r.pad_left), static_cast<int>(r.out_width())}};
}

/// A planar task's rows and columns as its bands and tiles of columns see them: a pool's
/// window; a reduction over H x W, one window of the whole image (a band is an image, read
/// whole); otherwise each row and column on its own.
inline std::pair<BandGeometry, BandGeometry> planar_geometry(const golden::PlanarTask& t) {
  const auto h = static_cast<int>(t.height), w = static_cast<int>(t.width);
  const auto oh = static_cast<int>(t.out_height()), ow = static_cast<int>(t.out_width());
  if (golden::is_pool(t.op)) {
    return {{h, static_cast<int>(t.kernel_h), static_cast<int>(t.stride_y),
             static_cast<int>(t.pad_top), oh},
            {w, static_cast<int>(t.kernel_w), static_cast<int>(t.stride_x),
             static_cast<int>(t.pad_left), ow}};
  }
  if (golden::is_reduce(t.op) && t.axis == golden::PlanarAxis::kSpatial) {
    return {{h, h, 1, 0, 1}, {w, w, 1, 0, 1}};
  }
  return {{h, 1, 1, 0, oh}, {w, 1, 1, 0, ow}};
}

/// A layer run as planar copies (concat, resize): each the clamp alone from one input, its
/// shape and dense strides, into the output from `out_offset` words with its own strides
/// (lowering adds the bases). A concat copies each input into its words of every output
/// pixel; a resize by fy x fx copies its input fy x fx times, copy (dy, dx) to the output
/// pixels (fy y + dy, fx x + dx).
struct CopyPart {
  golden::PlanarTask task;
  size_t input = 0;  ///< which of the layer's inputs it reads (an index into Layer::inputs)
  uint64_t out_offset = 0, pixel_stride = 0, row_stride = 0, image_stride = 0;
};
inline std::vector<CopyPart> copy_parts(const golden::net::Network& n, size_t layer,
                                        const golden::PlanarTask& t, unsigned lanes) {
  const golden::net::Layer& l = n.layers[layer];
  const golden::net::Shape& o = l.out;
  const uint64_t words = (static_cast<uint64_t>(o.c) + lanes - 1) / lanes;  // an output pixel's
  const uint64_t row = words * static_cast<uint64_t>(o.w), image = row * static_cast<uint64_t>(o.h);
  auto part = [&](size_t k) {
    const golden::net::Shape& s = n.shape_of(l.inputs[k]);
    CopyPart p;
    p.task = t;
    p.task.height = static_cast<unsigned>(s.h), p.task.width = static_cast<unsigned>(s.w);
    p.task.channels = static_cast<unsigned>(s.c);
    p.task.in_pixel_stride = p.task.channel_words(lanes);
    p.task.in_row_stride = p.task.in_pixel_stride * p.task.width;
    p.task.in_image_stride = p.task.in_row_stride * p.task.height;
    p.input = k;
    p.pixel_stride = words, p.row_stride = row, p.image_stride = image;
    return p;
  };
  std::vector<CopyPart> parts;
  if (l.op == golden::net::Op::kResize) {
    for (int dy = 0; dy < l.resize_h; ++dy) {
      for (int dx = 0; dx < l.resize_w; ++dx) {
        CopyPart p = part(0);
        p.out_offset = static_cast<uint64_t>(dy) * row + static_cast<uint64_t>(dx) * words;
        p.pixel_stride = words * static_cast<uint64_t>(l.resize_w);
        p.row_stride = row * static_cast<uint64_t>(l.resize_h);
        parts.push_back(p);
      }
    }
    return parts;
  }
  uint64_t channel = 0;  // concat
  for (size_t k = 0; k < l.inputs.size(); ++k) {
    CopyPart p = part(k);
    p.out_offset = channel / lanes;
    channel += static_cast<uint64_t>(n.shape_of(l.inputs[k]).c);
    parts.push_back(p);
  }
  return parts;
}
/// Whether the layer runs as copies (copy_parts).
inline bool runs_as_copies(golden::net::Op op) {
  return op == golden::net::Op::kConcat || op == golden::net::Op::kResize;
}

/// A staging area of a banded layer: where a band's input rows are loaded, or its output rows
/// written before they are stored.
struct Staging {
  unsigned buf = 0;
  uint64_t base = 0, words = 0;
};
struct BandPlan {
  int rows = 0;  ///< output rows a band
  int cols = 0;  ///< output columns a tile of columns; 0: one tile, the layer's own width
  std::optional<Staging> in, out;
  std::optional<Staging> in2;  ///< add: its second input's rows, when that is in memory
};

/// A neural layer's tile of output channels (the whole layer when its filters fit).
struct Tile {
  uint64_t k0 = 0, kk = 0;  ///< filters k0 .. k0 + kk - 1
  /// Its weight rows, parameters and registers (partition); the registers' buffers and bases
  /// are set by lower.
  golden::LoweredLayer low;
  uint64_t wgt_base = 0;    ///< its first weight-store row
  unsigned param_base = 0;  ///< its first post-table group
  /// With weights by the DMA: the data-area words its rows and parameter groups are loaded
  /// from (allocate).
  std::optional<uint64_t> weights_at, params_at;
};

struct Node {
  size_t layer = 0;  ///< its index in the network (it writes tensor layer + 1)
  const OpInfo* info = nullptr;
  // legalize
  golden::reference::ConvLayer conv;      ///< neural: the kernel as the array runs it
  golden::PlanarTask task;                ///< planar: the whole layer's task (no places yet)
  std::vector<golden::PlanarGain> gains;  ///< gain_bias: the gain table's entries
  // partition
  std::vector<Tile> tiles;           ///< neural
  uint64_t mapping_bound = 0;        ///< array steps (neural) or beats (planar)
  uint64_t zs_steps = 0;             ///< preprocessed steps replayed a pixel (zero skipping)
  std::optional<uint64_t> gains_at;  ///< allocate: the gain rows' DMA load (data-area words)
  // allocate
  golden::ProgramTensor x;                    ///< its (first) input where it is read
  std::vector<golden::ProgramTensor> inputs;  ///< every input where it is read (in order)
  golden::ProgramTensor out;                  ///< its output
  bool banded = false;                        ///< it runs in row bands (and tiles of columns)
  BandPlan plan;                              ///< banded: the bands' height and staging areas
};

/// A task as the task unit runs it: its regions (planar-engine addresses) and the engine's
/// register writes (descriptor register, value), CTRL last; what the DMA loads before it and
/// stores after it, as words of the data area (after the descriptors, placed by encode).
/// A layer is one task, or with row bands one a band, after a claim when its bands load.
struct LayerTask {
  golden::TaskOp op = golden::TaskOp::kConv;
  size_t layer = 0;
  uint64_t region[6] = {};  ///< in0 base, words, in1 base, words, out base, words
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  std::optional<uint64_t> load, store;  ///< data-area words (header bits 25, 26; words 2, 3)
  golden::DmaTarget dma_target = golden::DmaTarget::kBuffers;  ///< a load of rows
  uint64_t dma_row = 0, dma_rows = 0;
};

struct Graph {
  std::vector<Node> nodes;  ///< one a layer, in the network's order
  // legalize
  std::vector<golden::ProgramTensor> tensors;   ///< per tensor (0 the input): shape, then place
  std::vector<std::optional<size_t>> last_use;  ///< per tensor: its last reader
  std::vector<bool> is_output;                  ///< per tensor: a network output (kept)
  std::optional<size_t> input_reader;           ///< the network input's one reader
  std::optional<size_t> packed_reader;          ///< the layer that reads the packed input
  golden::InputPacking packing;
  // partition
  std::optional<size_t> gain_layer;  ///< kTasks, gains by the host: the gain_bias layer
  // allocate
  std::vector<uint32_t> data;        ///< the data area: the input, loads, tensors, the output
  std::optional<uint64_t> input_at;  ///< data-area words
  std::vector<std::optional<uint64_t>> output_at;  ///< per layer: its output's area (DMA)
  std::vector<std::optional<Staging>> writer;      ///< per tensor in memory: the staging
                                                   ///< area its writer's bands stored it from
  // lower
  std::vector<LayerTask> tasks;  ///< kTasks: every layer's
  std::vector<golden::ProgramStep> steps;
  std::vector<golden::ProgramLayer> layers;
};

}  // namespace npugen::compiler
