// legalize (passes.hpp): the network checked layer by layer against its operations' rules
// (op_table.hpp) and the design's engines, and made the IR the later passes fill in.
#include <fmt/format.h>

#include <algorithm>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/vq/params.hpp"
#include "passes.hpp"

namespace npugen::compiler {
namespace {

using golden::ProgramTensor;
using golden::net::Layer;
using golden::net::Shape;

// The input written im2col'd for its one reader (golden::InputPacking) when that is a
// convolution that then reads fewer rows a pixel, and the packed input fits the sequencer's
// channels and buffer A (or, with row bands, system memory).
void pack_input_for_reader(const Target& t, Graph& g) {
  if (!t.pack || !g.input_reader) return;
  const Layer& l = t.n.layers[*g.input_reader];
  if (l.op != golden::net::Op::kConv) return;
  ProgramTensor& in = g.tensors[0];
  const golden::reference::ConvLayer& c = l.conv;
  const uint64_t lanes = t.d.lanes();
  const uint64_t taps = static_cast<uint64_t>(c.kernel_h) * static_cast<uint64_t>(c.kernel_w);
  const uint64_t channels = taps * static_cast<uint64_t>(in.c);
  const uint64_t rows = taps * ((static_cast<uint64_t>(in.c) + lanes - 1) / lanes);
  const uint64_t packed_rows = (channels + lanes - 1) / lanes;
  const uint64_t words = static_cast<uint64_t>(t.batch) * static_cast<uint64_t>(l.out.h) *
                         static_cast<uint64_t>(l.out.w) * packed_rows;
  // Above buffer A, with row bands, the packed input stays in system memory and its reader
  // loads it band by band, as any input above the buffer.
  if (packed_rows >= rows || (words > t.d.act_words() && !t.bands) ||
      channels > t.d.seq.agu.max_channels) {
    return;
  }
  golden::InputPacking& k = g.packing;
  k.on = true;
  k.h = in.h, k.w = in.w, k.c = in.c;
  k.kernel_h = c.kernel_h, k.kernel_w = c.kernel_w;
  k.stride_y = c.stride_y, k.stride_x = c.stride_x;
  k.pad_top = c.pad_top, k.pad_left = c.pad_left;
  k.zero_point = t.n.input_zero_point;
  in.h = l.out.h, in.w = l.out.w, in.c = static_cast<int>(channels);
  g.packed_reader = g.input_reader;
}

// The declared output against the operation's shape rule.
void check_output(const Target& t, size_t i) {
  const Layer& l = t.n.layers[i];
  std::vector<Shape> in;
  for (const size_t x : l.inputs) in.push_back(t.n.shape_of(x));
  Shape s;
  try {
    s = op_info(l.op).shape(l, in);
  } catch (const Refusal& r) {
    throw t.error(i, r.what());
  }
  if (s != l.out) {
    throw t.error(i, fmt::format("its output is {}x{}x{}, but the layer says {}x{}x{}", s.h, s.w,
                                 s.c, l.out.h, l.out.w, l.out.c));
  }
}

void neural(const Target& t, Graph& g, Node& node) {
  const size_t i = node.layer;
  const Layer& l = t.n.layers[i];
  const ProgramTensor& x = g.tensors[l.inputs[0]];
  golden::reference::ConvLayer& c = node.conv;
  c = l.conv;
  if (node.info->dataflow == golden::Dataflow::kFc) {  // weights [K][H*W*C]: a kernel over the
    c.kernel_h = x.h, c.kernel_w = x.w;                // whole input
    c.stride_y = c.stride_x = 1;
    c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = 0;
  }
  if (g.packed_reader == i) {  // over the packed input: 1 x 1, weights [K][KH*KW*C] as they are
    c.kernel_h = c.kernel_w = 1;
    c.stride_y = c.stride_x = 1;
    c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = 0;
  }
  const auto k = static_cast<uint64_t>(std::max(c.filters, 0));
  const uint64_t expect = k * static_cast<uint64_t>(std::max(c.kernel_h, 0)) *
                          static_cast<uint64_t>(std::max(c.kernel_w, 0)) *
                          static_cast<uint64_t>(x.c);
  if (k == 0 || c.weights.size() != expect || c.bias.size() != k || c.output.size() != k) {
    throw t.error(i, fmt::format("{} filters with {} weights, {} biases and {} output scales do "
                                 "not match its {}x{} kernel over {} channels",
                                 c.filters, c.weights.size(), c.bias.size(), c.output.size(),
                                 c.kernel_h, c.kernel_w, x.c));
  }
  if (const unsigned m = l.vq.vector_length; m != 0) {
    if (!t.d.vq) {
      throw t.error(i,
                    "it is loaded as codebook indices (vq:), but the design has no VQ weight "
                    "loader (vq.enabled)");
    }
    const golden::VqParams& q = *t.d.vq;
    if (!q.vlen_supported(golden::ceil_log2(m)) || (m & (m - 1)) != 0) {
      throw t.error(i, fmt::format("vectors of {} weights: the dequantizer decodes vectors of {} "
                                   "to {} weights (vq.min_vector_length, vq.row_weights)",
                                   m, q.min_vector_length, q.row_weights));
    }
    if (t.d.lanes() % m != 0) {
      throw t.error(i, fmt::format("vectors of {} weights do not divide a tile's {} lanes of a "
                                   "weight-store row",
                                   m, t.d.lanes()));
    }
    if (l.vq.codebook.size() / m > q.rows) {
      throw t.error(i, fmt::format("{} codewords do not fit the codebook's {} indices (vq.rows)",
                                   l.vq.codebook.size() / m, q.rows));
    }
  }
  check_output(t, i);
}

void planar(const Target& t, Graph& g, Node& node) {
  const size_t i = node.layer;
  const Layer& l = t.n.layers[i];
  const ProgramTensor& x = g.tensors[l.inputs[0]];
  const unsigned lanes = t.d.lanes();
  const golden::PlanarOp op = node.info->planar;
  if (!t.d.planar.generates(op)) {
    throw t.error(i, fmt::format("{} is not generated by this design's planar engine "
                                 "(planar.modes)",
                                 golden::planar_op_name(op)));
  }
  golden::PlanarTask& task = node.task;
  task.op = op;
  task.height = static_cast<unsigned>(x.h), task.width = static_cast<unsigned>(x.w);
  task.channels = static_cast<unsigned>(x.c), task.batch = static_cast<unsigned>(t.batch);
  task.in_pixel_stride = task.channel_words(lanes);
  task.in_row_stride = task.in_pixel_stride * task.width;
  task.in_image_stride = task.in_row_stride * task.height;
  task.act_min = l.act_min, task.act_max = l.act_max;
  try {
    node.info->planar_fields(l, task, node.gains);
  } catch (const Refusal& r) {
    throw t.error(i, r.what());
  }
  // A concat writes whole words of its output: every input but the last ends at a word.
  if (node.info->op == golden::net::Op::kConcat) {
    for (size_t k = 0; k + 1 < l.inputs.size(); ++k) {
      const int c = t.n.shape_of(l.inputs[k]).c;
      if (c % static_cast<int>(lanes) != 0) {
        throw t.error(i, fmt::format("its input {} has {} channels, not a multiple of the {} "
                                     "lanes of a word (pe_array.lanes): the inputs after it "
                                     "would start inside a word (a concat copies whole words)",
                                     k, c, lanes));
      }
    }
  }
  check_output(t, i);
}

}  // namespace

Graph legalize(const Target& t) {
  const golden::net::Network& n = t.n;
  if (n.layers.empty()) throw CompileError("the network has no layers", -1);
  if (!n.has_arithmetic) {
    size_t i = 0;  // the first layer with weights, or the first
    while (i < n.layers.size() && !golden::net::is_neural(n.layers[i].op)) ++i;
    if (i == n.layers.size()) i = 0;
    throw t.error(i,
                  "the network has no weights or quantization (a shape-only network file); the "
                  "NPU runs networks with their arithmetic");
  }
  if (t.batch < 1) {
    throw CompileError(fmt::format("the batch is {} images: at least one", t.batch), -1);
  }
  Graph g;
  const size_t tensors = n.layers.size() + 1;
  g.last_use.assign(tensors, std::nullopt);
  g.is_output.assign(tensors, false);
  for (const golden::net::NetworkOutput& o : golden::net::network_outputs(n)) {
    if (o.tensor == 0 || o.tensor >= tensors) {
      throw CompileError(fmt::format("output {} is tensor {}, not a layer's (1 to {})", o.name,
                                     o.tensor, tensors - 1),
                         -1);
    }
    g.is_output[o.tensor] = true;
  }
  g.output_at.assign(n.layers.size(), std::nullopt);
  unsigned input_readers = 0;
  for (size_t i = 0; i < n.layers.size(); ++i) {
    const Layer& l = n.layers[i];
    const bool concat = l.op == golden::net::Op::kConcat;
    if (l.inputs.empty() || (!concat && l.inputs.size() > 2) || (concat && l.inputs.size() < 2)) {
      throw t.error(i,
                    fmt::format("{} inputs (1, 2 for add, 2 or more for concat)", l.inputs.size()));
    }
    for (const size_t x : l.inputs) {
      if (x > i) throw t.error(i, fmt::format("it reads tensor {}, not an earlier one", x));
      g.last_use[x] = i;
      if (x == 0) ++input_readers, g.input_reader = i;
    }
  }
  if (input_readers != 1) g.input_reader.reset();  // packing and the DMA want one reader
  g.tensors.resize(tensors);
  for (size_t x = 0; x < tensors; ++x) {
    const Shape& s = n.shape_of(x);
    g.tensors[x].n = t.batch, g.tensors[x].h = s.h, g.tensors[x].w = s.w, g.tensors[x].c = s.c;
  }
  pack_input_for_reader(t, g);
  // Above buffer A the input stays in system memory, its readers in row bands.
  if (const ProgramTensor& in = g.tensors[0]; in.words(t.d.lanes()) > t.d.act_words() && !t.bands) {
    throw CompileError(fmt::format("the input ({} image(s) of {}x{}x{}, {} words) does not fit "
                                   "buffer A ({} words; agu.act_words){}",
                                   t.batch, in.h, in.w, in.c, in.words(t.d.lanes()),
                                   t.d.act_words(), t.band_hint()),
                       -1);
  }
  for (size_t i = 0; i < n.layers.size(); ++i) {
    Node& node = g.nodes.emplace_back();
    node.layer = i;
    node.info = &op_info(n.layers[i].op);
    if (node.info->neural) {
      neural(t, g, node);
    } else {
      planar(t, g, node);
    }
  }
  return g;
}

}  // namespace npugen::compiler
