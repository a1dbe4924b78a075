// compile_network (npu/program.hpp): a network placed in an NPU top's buffers, weight store
// and parameter tables, and the steps a host takes to run it, layer after layer.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <string>

#include "npugen/golden/agu/params.hpp"
#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/npu/dma.hpp"
#include "npugen/golden/npu/program.hpp"
#include "npugen/golden/planar/params.hpp"
#include "npugen/golden/sequencer/lowering.hpp"
#include "npugen/golden/tasks/params.hpp"
#include "npugen/golden/vq/params.hpp"

namespace npugen::golden {
namespace {

const char* buffer_name(unsigned b) { return b == 0 ? "A" : "B"; }

// The words of the two activation buffers in use: live ranges, placed first fit, or next fit
// (the search starts where the buffer's last placement ended and wraps round): with the task
// unit a tensor then reuses space only when the buffer has gone round, so a layer does not
// wait for older readers of the words it writes (docs/tasks.md) and layers overlap.
class Buffers {
 public:
  Buffers(uint64_t words, bool next_fit) : words_(words), next_fit_(next_fit) {}

  [[nodiscard]] std::optional<uint64_t> fit(unsigned buf, uint64_t n) const {
    if (next_fit_) {
      if (const auto at = first_fit(buf, n, cursor_[buf])) return at;
    }
    return first_fit(buf, n, 0);
  }
  void take(unsigned buf, uint64_t base, uint64_t n) {
    live_[buf].emplace(base, base + n);
    cursor_[buf] = base + n;
  }
  void free(unsigned buf, uint64_t base) { live_[buf].erase(base); }
  [[nodiscard]] uint64_t used(unsigned buf) const {
    uint64_t n = 0;
    for (const auto& [base, end] : live_[buf]) n += end - base;
    return n;
  }

 private:
  // The first gap of n words at or after `from`.
  [[nodiscard]] std::optional<uint64_t> first_fit(unsigned buf, uint64_t n, uint64_t from) const {
    uint64_t at = from;
    for (const auto& [base, end] : live_[buf]) {
      if (end <= at) continue;
      if (base >= at && base - at >= n) return at;
      at = std::max(at, end);
    }
    if (at <= words_ && words_ - at >= n) return at;
    return std::nullopt;
  }

  uint64_t words_;
  bool next_fit_;
  std::map<uint64_t, uint64_t> live_[2];  ///< base -> end
  uint64_t cursor_[2] = {0, 0};           ///< where the last placement ended
};

std::vector<uint8_t> resized(std::vector<uint8_t> bytes, size_t n) {
  bytes.resize(n, 0);
  return bytes;
}

PlanarOp planar_op(net::Op op) {
  switch (op) {
    case net::Op::kMaxPool:
      return PlanarOp::kMaxPool;
    case net::Op::kAvgPool:
      return PlanarOp::kAvgPool;
    case net::Op::kAdd:
      return PlanarOp::kAdd;
    case net::Op::kGainBias:
      return PlanarOp::kGainBias;
    case net::Op::kReduceSum:
      return PlanarOp::kReduceSum;
    case net::Op::kReduceMax:
      return PlanarOp::kReduceMax;
    default:
      return PlanarOp::kActivation;
  }
}

bool same_range(const Requant& a, const Requant& b) {
  return a.zero_point == b.zero_point && a.act_min == b.act_min && a.act_max == b.act_max;
}

std::string shape_text(const ProgramTensor& t) {
  return fmt::format("{}x{}x{}x{}", t.n, t.h, t.w, t.c);
}

TaskOp task_op(net::Op op) {
  switch (op) {
    case net::Op::kConv:
      return TaskOp::kConv;
    case net::Op::kFc:
      return TaskOp::kTensor;
    case net::Op::kMaxPool:
    case net::Op::kAvgPool:
      return TaskOp::kPool;
    case net::Op::kReduceSum:
    case net::Op::kReduceMax:
      return TaskOp::kReduction;
    case net::Op::kGainBias:
      return TaskOp::kGainBias;
    default:  // add, activation
      return TaskOp::kElementwise;
  }
}

// A layer as the task unit runs it: its regions (planar-engine addresses) and the engine's
// register writes (descriptor register, value), CTRL last.
struct LayerTask {
  TaskOp op = TaskOp::kConv;
  uint64_t region[6] = {};  ///< in0 base, words, in1 base, words, out base, words
  std::vector<std::pair<uint32_t, uint32_t>> writes;
};

class Compiler {
 public:
  Compiler(const NpuDesign& d, const net::Network& n, int batch, const CompileOptions& o)
      : d_(d),
        n_(n),
        batch_(batch),
        tasks_(o.sequencing == Sequencing::kTasks),
        pack_(o.pack_input),
        dma_(o.dma && tasks_),
        zero_skip_(o.zero_skip && d.seq.zs.has_value()),
        buffers_(d.act_words(), o.sequencing == Sequencing::kTasks) {
    host_bytes_ = (d.host_data_bits() + 7) / 8;
  }

  Program run() {
    if (n_.layers.empty()) throw CompileError("the network has no layers", -1);
    if (!n_.has_arithmetic) {
      size_t i = 0;  // the first layer with weights, or the first
      while (i < n_.layers.size() && !net::is_neural(n_.layers[i].op)) ++i;
      if (i == n_.layers.size()) i = 0;
      throw error(i,
                  "the network has no weights or quantization (a shape-only network file); the "
                  "NPU runs networks with their arithmetic");
    }
    if (batch_ < 1) {
      throw CompileError(fmt::format("the batch is {} images: at least one", batch_), -1);
    }
    p_.lanes = d_.lanes();
    p_.sequencing = tasks_ ? Sequencing::kTasks : Sequencing::kHost;
    const size_t tensors = n_.layers.size() + 1;
    last_use_.assign(tensors, std::nullopt);
    unsigned input_readers = 0;
    for (size_t i = 0; i < n_.layers.size(); ++i) {
      const net::Layer& l = n_.layers[i];
      if (l.inputs.empty() || l.inputs.size() > 2) {
        throw error(i, fmt::format("{} inputs (1, or 2 for add)", l.inputs.size()));
      }
      for (const size_t t : l.inputs) {
        if (t > i) throw error(i, fmt::format("it reads tensor {}, not an earlier one", t));
        last_use_[t] = i;
        if (t == 0) ++input_readers, input_reader_ = i;
      }
    }
    if (input_readers != 1) input_reader_.reset();  // packing and the DMA want one reader
    at_.resize(tensors);
    ProgramTensor& in = at_[0];
    in.n = batch_, in.h = n_.input.h, in.w = n_.input.w, in.c = n_.input.c;
    if (pack_) pack_input_for_reader(in);
    const uint64_t words = in.words(d_.lanes());
    if (words > d_.act_words()) {
      throw CompileError(fmt::format("the input ({} image(s) of {}x{}x{}, {} words) does not fit "
                                     "buffer A ({} words; agu.act_words)",
                                     batch_, in.h, in.w, in.c, words, d_.act_words()),
                         -1);
    }
    buffers_.take(0, 0, words);
    p_.input = in;
    hold(0);
    for (size_t i = 0; i < n_.layers.size(); ++i) {
      if (net::is_neural(n_.layers[i].op)) {
        neural(i);
      } else {
        planar(i);
      }
      // The inputs whose last reader this was, and an output nobody reads (but the network's).
      for (const size_t t : n_.layers[i].inputs) {
        if (last_use_[t] == i && t != tensors - 1 && live_[t]) {
          buffers_.free(at_[t].buf, at_[t].base);
          live_[t] = false;
        }
      }
      hold(i + 1);
    }
    if (tasks_) enqueue();
    return std::move(p_);
  }

 private:
  CompileError error(size_t i, const std::string& what) const {
    return CompileError(fmt::format("layer {}: {}", n_.layers[i].name, what), static_cast<int>(i));
  }

  // Tensor t has its space: held until its last reader has run, released at once when no
  // layer reads it (but the network's output).
  void hold(size_t t) {
    live_.resize(at_.size(), false);
    live_[t] = true;
    if (!last_use_[t] && t != at_.size() - 1) {
      buffers_.free(at_[t].buf, at_[t].base);
      live_[t] = false;
    }
  }

  // Places layer i's output (shape `out`) in buffer `buf`, or (planar) the other one.
  void place(size_t i, ProgramTensor& out, unsigned buf, bool either) {
    const uint64_t words = out.words(d_.lanes());
    for (const unsigned b : {buf, 1 - buf}) {
      if (const auto base = buffers_.fit(b, words)) {
        out.buf = b, out.base = *base;
        buffers_.take(b, *base, words);
        return;
      }
      if (!either) break;
    }
    std::string where = fmt::format("buffer {} ({} words, {} in use", buffer_name(buf),
                                    d_.act_words(), buffers_.used(buf));
    if (either) {
      where += fmt::format("; buffer {}: {} in use", buffer_name(1 - buf), buffers_.used(1 - buf));
    }
    throw error(i, fmt::format("its output ({}, {} words) does not fit {}; agu.act_words)",
                               shape_text(out), words, where));
  }

  void host_write(HostTarget target, uint64_t addr, std::vector<uint8_t> data) {
    ProgramStep s;
    s.kind = ProgramStep::Kind::kHostWrite;
    s.target = target;
    s.addr = addr;
    s.data = resized(std::move(data), host_bytes_);
    p_.steps.push_back(std::move(s));
  }
  void apb_write(uint32_t addr, uint32_t data) {
    if (tasks_) {  // into the layer's descriptor, as the engine's register
      const bool planar = addr >= npu_csr::kPlanarWindow;
      const uint32_t reg = planar
                               ? npu_csr::kDescPlanar + (addr - npu_csr::kPlanarWindow) / 4
                               : npu_csr::kDescSequencer + (addr - npu_csr::kSequencerWindow) / 4;
      task_.writes.emplace_back(reg, data);
      return;
    }
    ProgramStep s;
    s.kind = ProgramStep::Kind::kApbWrite;
    s.apb_addr = addr, s.apb_data = data;
    p_.steps.push_back(std::move(s));
  }
  // The input written im2col'd for its one reader (InputPacking) when that is a convolution
  // that then reads fewer rows a pixel, and the packed input fits buffer A and the
  // sequencer's channels.
  void pack_input_for_reader(ProgramTensor& in) {
    if (!input_reader_ || n_.layers[*input_reader_].op != net::Op::kConv) return;
    const net::Layer& l = n_.layers[*input_reader_];
    const reference::ConvLayer& c = l.conv;
    const uint64_t lanes = d_.lanes();
    const uint64_t taps = static_cast<uint64_t>(c.kernel_h) * static_cast<uint64_t>(c.kernel_w);
    const uint64_t channels = taps * static_cast<uint64_t>(in.c);
    const uint64_t rows = taps * ((static_cast<uint64_t>(in.c) + lanes - 1) / lanes);
    const uint64_t packed_rows = (channels + lanes - 1) / lanes;
    const uint64_t words = static_cast<uint64_t>(batch_) * static_cast<uint64_t>(l.out.h) *
                           static_cast<uint64_t>(l.out.w) * packed_rows;
    if (packed_rows >= rows || words > d_.act_words() || channels > d_.seq.agu.max_channels) {
      return;
    }
    InputPacking& k = p_.packing;
    k.on = true;
    k.h = in.h, k.w = in.w, k.c = in.c;
    k.kernel_h = c.kernel_h, k.kernel_w = c.kernel_w;
    k.stride_y = c.stride_y, k.stride_x = c.stride_x;
    k.pad_top = c.pad_top, k.pad_left = c.pad_left;
    k.zero_point = n_.input_zero_point;
    in.h = l.out.h, in.w = l.out.w, in.c = static_cast<int>(channels);
    packed_reader_ = input_reader_;
  }

  // An APB access of the host's own (weights are the host's to load, whatever the sequencing).
  void host_apb(ProgramStep::Kind kind, uint32_t addr, uint32_t data = 0) {
    ProgramStep s;
    s.kind = kind;
    s.apb_addr = addr, s.apb_data = data;
    p_.steps.push_back(std::move(s));
  }

  // A VQ layer's rows through the VQ weight loader: the dequantizer's CTRL (VQ on, its
  // vector length) and BASE (0), the layer's codebook, each row as indices; then a read of
  // the dequantizer's STATUS, which waits until the loader has written the last row.
  // Returns the bits sent.
  uint64_t vq_rows(const net::VqTable& t, const std::vector<std::vector<uint8_t>>& rows,
                   uint64_t first) {
    const VqParams& q = *d_.vq;
    const unsigned m = t.vector_length, row_w = d_.seq.tiles() * d_.lanes(), ib = q.index_bits();
    const uint32_t vq = npu_csr::kVqWindow;
    host_apb(ProgramStep::Kind::kApbWrite, vq + vq_csr::kCtrl,
             (1U << vq_csr::kCtrlVqEnBit) | (ceil_log2(m) << vq_csr::kCtrlVlenLsb));
    host_apb(ProgramStep::Kind::kApbWrite, vq + vq_csr::kBase, 0);
    const size_t weights = t.codebook.size();
    const size_t book_rows = (weights + q.row_weights - 1) / q.row_weights;
    for (size_t r = 0; r < book_rows; ++r) {
      std::vector<uint8_t> data(q.row_weights, 0);
      for (unsigned j = 0; j < q.row_weights && r * q.row_weights + j < weights; ++j) {
        data[j] = static_cast<uint8_t>(t.codebook[r * q.row_weights + j]);
      }
      host_write(HostTarget::kVqCodebook, r, std::move(data));
    }
    std::map<std::string, uint32_t> index;  // a vector's bytes -> its first index
    for (size_t v = 0; v * m < weights; ++v) {
      std::string key(m, '\0');
      for (unsigned j = 0; j < m; ++j) key[j] = static_cast<char>(t.codebook[v * m + j]);
      index.emplace(std::move(key), static_cast<uint32_t>(v));
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      std::vector<uint8_t> data((row_w / m * ib + 7) / 8, 0);
      for (unsigned j = 0; j < row_w / m; ++j) {
        std::string key(m, '\0');
        for (unsigned k = 0; k < m; ++k) {
          const size_t at = size_t{j} * m + k;
          key[k] = static_cast<char>(at < rows[r].size() ? rows[r][at] : 0);
        }
        const auto it = index.find(key);
        if (it == index.end()) {
          throw std::logic_error(
              "compile_network: a VQ layer's row holds a vector that is not "
              "in its codebook");
        }
        put_bits(data, j * ib, ib, it->second);
      }
      host_write(HostTarget::kVqRow, first + r, std::move(data));
    }
    host_apb(ProgramStep::Kind::kApbRead, vq + vq_csr::kStatus);
    return uint64_t{book_rows} * q.row_weights * 8 + rows.size() * uint64_t{row_w / m} * ib;
  }

  void wait_and_mark(ProgramStep::Kind kind, uint64_t count, size_t i) {
    if (tasks_) return;  // the task unit runs the layers (enqueue)
    ProgramStep w;
    w.kind = kind;
    w.count = count;
    p_.steps.push_back(std::move(w));
    ProgramStep done;
    done.kind = ProgramStep::Kind::kLayerDone;
    done.layer = static_cast<unsigned>(i);
    p_.steps.push_back(std::move(done));
  }

  void neural(size_t i) {
    const net::Layer& l = n_.layers[i];
    const ProgramTensor x = at_[l.inputs[0]];
    const unsigned lanes = d_.lanes(), tiles = d_.seq.tiles();
    const bool fc = l.op == net::Op::kFc;
    reference::ConvLayer c = l.conv;
    if (fc) {  // weights [K][H*W*C]: a kernel over the whole input
      c.kernel_h = x.h, c.kernel_w = x.w;
      c.stride_y = c.stride_x = 1;
      c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = 0;
    }
    if (packed_reader_ == i) {  // over the packed input: 1 x 1, weights [K][KH*KW*C] as they are
      c.kernel_h = c.kernel_w = 1;
      c.stride_y = c.stride_x = 1;
      c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = 0;
    }
    const auto k = static_cast<uint64_t>(std::max(c.filters, 0));
    const uint64_t expect = k * static_cast<uint64_t>(std::max(c.kernel_h, 0)) *
                            static_cast<uint64_t>(std::max(c.kernel_w, 0)) *
                            static_cast<uint64_t>(x.c);
    if (k == 0 || c.weights.size() != expect || c.bias.size() != k || c.output.size() != k) {
      throw error(i, fmt::format("{} filters with {} weights, {} biases and {} output scales do "
                                 "not match its {}x{} kernel over {} channels",
                                 c.filters, c.weights.size(), c.bias.size(), c.output.size(),
                                 c.kernel_h, c.kernel_w, x.c));
    }
    if (const unsigned m = l.vq.vector_length; m != 0) {
      if (!d_.vq) {
        throw error(i,
                    "it is loaded as codebook indices (vq:), but the design has no VQ weight "
                    "loader (vq.enabled)");
      }
      const VqParams& q = *d_.vq;
      if (!q.vlen_supported(ceil_log2(m)) || (m & (m - 1)) != 0) {
        throw error(i, fmt::format("vectors of {} weights: the dequantizer decodes vectors of {} "
                                   "to {} weights (vq.min_vector_length, vq.row_weights)",
                                   m, q.min_vector_length, q.row_weights));
      }
      if (lanes % m != 0) {
        throw error(i, fmt::format("vectors of {} weights do not divide a tile's {} lanes of a "
                                   "weight-store row",
                                   m, lanes));
      }
      if (l.vq.codebook.size() / m > q.rows) {
        throw error(i, fmt::format("{} codewords do not fit the codebook's {} indices (vq.rows)",
                                   l.vq.codebook.size() / m, q.rows));
      }
    }
    // The weight store and the post table: with the host sequencing, each layer's weights and
    // parameters are written just before it runs, from row and group 0; with the task unit,
    // every layer's are written first, layer after layer. A layer whose filters do not fit
    // runs, sequenced by the host, in tiles of output channels (a multiple of lcm(L, T)
    // filters each), its weights and parameters written again before each.
    if (!tasks_) weight_rows_ = param_groups_ = 0;
    const uint64_t cw = (static_cast<uint64_t>(x.c) + lanes - 1) / lanes;
    const uint64_t block_rows =
        static_cast<uint64_t>(c.kernel_h) * static_cast<uint64_t>(c.kernel_w) * cw;
    const uint64_t plane = d_.seq.post.lanes;
    auto rows_of = [&](uint64_t f) { return (f + tiles - 1) / tiles * block_rows; };
    auto groups_of = [&](uint64_t f) { return (f + plane - 1) / plane; };
    auto fits = [&](uint64_t f) {
      return weight_rows_ + rows_of(f) <= d_.seq.agu.weight_rows &&
             param_groups_ + groups_of(f) <= d_.seq.post.groups();
    };
    uint64_t tile_filters = k;
    if (!fits(k)) {
      const uint64_t step = std::lcm<uint64_t>(lanes, tiles);
      tile_filters = 0;
      while (!tasks_ && tile_filters + step < k && fits(tile_filters + step)) tile_filters += step;
      if (tile_filters == 0) {
        const bool rows = weight_rows_ + rows_of(k) > d_.seq.agu.weight_rows;
        const std::string what =
            rows ? fmt::format(
                       "{} weight rows do not fit the weight store ({} rows, {} in use; "
                       "agu.weight_rows)",
                       rows_of(k), d_.seq.agu.weight_rows, weight_rows_)
                 : fmt::format(
                       "{} parameter groups do not fit the post unit's table ({} groups "
                       "of {} channels, {} in use; post.max_channels)",
                       groups_of(k), d_.seq.post.groups(), plane, param_groups_);
        throw error(i, tasks_ ? what +
                                    "; sequenced by the host (--sequencing host) it would "
                                    "run in tiles of output channels"
                              : what + fmt::format(", nor do {} filters, the smallest tile",
                                                   std::min(step, k)));
      }
    }
    reference::Tensor shape;
    shape.n = batch_, shape.h = x.h, shape.w = x.w, shape.c = x.c;
    ProgramTensor out;
    ProgramLayer pl;
    pl.name = l.name;
    pl.op = l.op;
    pl.neural = true;
    task_ = LayerTask{};
    task_.op = task_op(l.op);
    const uint64_t out_words = (k + lanes - 1) / lanes;  // a pixel's output words
    for (uint64_t k0 = 0; k0 < k; k0 += tile_filters) {
      const uint64_t kk = std::min(tile_filters, k - k0);
      reference::ConvLayer part = c;
      if (kk != k) {  // filters k0 .. k0 + kk - 1
        const uint64_t per = expect / k;
        part.filters = static_cast<int>(kk);
        part.weights.assign(c.weights.begin() + static_cast<std::ptrdiff_t>(k0 * per),
                            c.weights.begin() + static_cast<std::ptrdiff_t>((k0 + kk) * per));
        part.bias.assign(c.bias.begin() + static_cast<std::ptrdiff_t>(k0),
                         c.bias.begin() + static_cast<std::ptrdiff_t>(k0 + kk));
        part.output.assign(c.output.begin() + static_cast<std::ptrdiff_t>(k0),
                           c.output.begin() + static_cast<std::ptrdiff_t>(k0 + kk));
      }
      LayerPlacement where;
      where.in_buf = x.buf, where.out_buf = 1 - x.buf;
      where.in_base = x.base;
      where.wgt_base = weight_rows_;
      where.param_base = static_cast<unsigned>(param_groups_);
      LoweredLayer low;
      try {
        low = lower_layer(d_.seq, fc ? Dataflow::kFc : Dataflow::kConv, shape, part, where);
      } catch (const std::invalid_argument& e) {
        throw error(i, e.what());
      }

      if (k0 == 0) {
        out.n = low.out_shape.n, out.h = low.out_shape.h, out.w = low.out_shape.w;
        out.c = static_cast<int>(k);
        if (out.h != l.out.h || out.w != l.out.w || out.c != l.out.c) {
          throw error(i, fmt::format("its output is {}x{}x{}, but the layer says {}x{}x{}", out.h,
                                     out.w, out.c, l.out.h, l.out.w, l.out.c));
        }
        place(i, out, 1 - x.buf, false);
      }
      // A tile writes its channels' words of every output pixel.
      low.regs.out_base = out.base + k0 / lanes;
      low.regs.out_pixel_stride = out_words;
      low.regs.out_row_stride = out_words * static_cast<uint64_t>(out.w);
      // The dense array's steps (the mapping bound), before zero skipping may replace them.
      pl.mapping_bound += low.regs.steps(d_.seq.agu);
      if (zero_skip_ && l.vq.vector_length == 0) {
        // On the zero-skipping array (fc as a convolution over its whole input) when its
        // window fits the staged half, the address generator takes it, and its steps a pixel
        // beat the dense array's rows.
        std::optional<LoweredLayer> z;
        try {
          z = lower_layer(d_.seq, Dataflow::kZeroSkip, shape, part, where);
        } catch (const std::invalid_argument&) {
          z.reset();  // the window exceeds a staging slot (zs.max_rows / 3): dense
        }
        if (z) {
          z->regs.out_base = low.regs.out_base;
          z->regs.out_pixel_stride = low.regs.out_pixel_stride;
          z->regs.out_row_stride = low.regs.out_row_stride;
          const uint64_t blocks = (kk + tiles - 1) / tiles;
          const uint64_t steps = z->weight_rows.size();
          if (agu_refusal(d_.seq.agu, z->regs).empty() &&
              zs_pixel_cycles(z->dense_rows, steps) < blocks * low.dense_rows) {
            z->out_shape = low.out_shape;
            low = std::move(*z);
            pl.zs_steps += steps;
          }
        }
      }
      if (const std::string why = agu_refusal(d_.seq.agu, low.regs); !why.empty()) {
        throw error(i, fmt::format("the sequencer cannot run it: {}{}", why,
                                   fc ? " (fc reads its input as one vector of H x W x "
                                        "ceil(C/L) words)"
                                      : ""));
      }
      if (l.vq.vector_length != 0) {
        pl.weight_bits += vq_rows(l.vq, low.weight_rows, weight_rows_);
      } else {
        for (size_t r = 0; r < low.weight_rows.size(); ++r) {
          host_write(HostTarget::kWeights, weight_rows_ + r, low.weight_rows[r]);
        }
        pl.weight_bits += low.weight_rows.size() * (low.regs.dataflow == Dataflow::kZeroSkip
                                                        ? uint64_t{d_.seq.store_row_bytes()} * 8
                                                        : uint64_t{tiles} * lanes * 8);
      }
      for (size_t g = 0; g < low.params.size(); ++g) {
        host_write(HostTarget::kParams, param_groups_ + g,
                   param_group_bytes(d_.seq, low.params[g]));
      }
      const uint32_t base = npu_csr::kSequencerWindow + sequencer_csr::kAguWindow +
                            agu_csr::kGroupOffset +
                            static_cast<uint32_t>(neural_ % 2) * agu_csr::kGroupStride;
      for (const agu_csr::Write& w : agu_csr::layer_writes(low.regs))
        apb_write(base + w.offset, w.value);
      ++neural_;
      pl.weight_rows += low.weight_rows.size();
      if (tasks_) {
        weight_rows_ += low.weight_rows.size();
        param_groups_ += low.params.size();
      } else if (k0 + kk < k) {  // the next tile's weights wait for this one
        ProgramStep w;
        w.kind = ProgramStep::Kind::kWaitSeqDone;
        w.count = neural_;
        p_.steps.push_back(std::move(w));
      }
    }
    region(0, x);
    region(4, out);
    if (tasks_) layer_tasks_.push_back(std::move(task_));
    wait_and_mark(ProgramStep::Kind::kWaitSeqDone, neural_, i);

    pl.out = out;
    const auto n = static_cast<uint64_t>(batch_);
    pl.macs = fc ? n * k * static_cast<uint64_t>(x.h) * static_cast<uint64_t>(x.w) *
                       static_cast<uint64_t>(x.c)
                 : n * static_cast<uint64_t>(out.h) * static_cast<uint64_t>(out.w) * k *
                       static_cast<uint64_t>(c.kernel_h) * static_cast<uint64_t>(c.kernel_w) *
                       static_cast<uint64_t>(x.c);
    p_.layers.push_back(std::move(pl));
    at_[i + 1] = out;
  }

  void planar(size_t i) {
    const net::Layer& l = n_.layers[i];
    const ProgramTensor x = at_[l.inputs[0]];
    const unsigned lanes = d_.lanes();
    const PlanarOp op = planar_op(l.op);
    if (!d_.planar.generates(op)) {
      throw error(i, fmt::format("{} is not generated by this design's planar engine "
                                 "(planar.modes)",
                                 planar_op_name(op)));
    }
    const uint64_t act = d_.act_words();
    auto planar_addr = [&](const ProgramTensor& t) { return t.buf * act + t.base; };
    PlanarTask t;
    t.op = op;
    t.height = static_cast<unsigned>(x.h), t.width = static_cast<unsigned>(x.w);
    t.channels = static_cast<unsigned>(x.c), t.batch = static_cast<unsigned>(batch_);
    t.in_pixel_stride = t.channel_words(lanes);
    t.in_row_stride = t.in_pixel_stride * t.width;
    t.in_image_stride = t.in_row_stride * t.height;
    t.a_base = planar_addr(x);
    t.act_min = l.act_min, t.act_max = l.act_max;
    std::vector<PlanarGain> gains;
    auto one_output = [&](const std::vector<Requant>& out, const char* what, bool scale) {
      if (out.empty()) throw error(i, fmt::format("it has no {}", what));
      for (const Requant& r : out) {
        if (!same_range(r, out.front()) ||
            (scale && (r.multiplier != out.front().multiplier || r.shift != out.front().shift))) {
          throw error(
              i, fmt::format("its {} differ between channels; the planar engine has one "
                             "{} a task",
                             what, scale ? "scale, zero point and clamp" : "zero point and clamp"));
        }
      }
      const Requant& r = out.front();
      t.out_zero_point = r.zero_point, t.act_min = r.act_min, t.act_max = r.act_max;
      t.out_multiplier = r.multiplier, t.out_shift = r.shift;
    };
    switch (l.op) {
      case net::Op::kMaxPool:
      case net::Op::kAvgPool: {
        const reference::PoolWindow& w = l.window;
        auto u = [](int v) { return static_cast<unsigned>(std::max(v, 0)); };
        t.kernel_h = u(w.kernel_h), t.kernel_w = u(w.kernel_w);
        t.stride_y = u(w.stride_y), t.stride_x = u(w.stride_x);
        t.pad_top = u(w.pad_top), t.pad_bottom = u(w.pad_bottom);
        t.pad_left = u(w.pad_left), t.pad_right = u(w.pad_right);
        break;
      }
      case net::Op::kAdd: {
        const ProgramTensor y = at_[l.inputs.size() > 1 ? l.inputs[1] : l.inputs[0]];
        if (y.h != x.h || y.w != x.w || y.c != x.c) {
          throw error(i, fmt::format("it adds a {}x{}x{} tensor to a {}x{}x{} one", y.h, y.w, y.c,
                                     x.h, x.w, x.c));
        }
        const reference::AddParams& a = l.add;
        t.b_base = planar_addr(y);
        t.a_zero_point = a.a_zero_point, t.b_zero_point = a.b_zero_point;
        t.left_shift = static_cast<unsigned>(std::max(a.left_shift, 0));
        t.a_multiplier = a.a_multiplier, t.b_multiplier = a.b_multiplier;
        t.a_shift = a.a_shift, t.b_shift = a.b_shift;
        one_output({a.output}, "output", true);
        break;
      }
      case net::Op::kGainBias: {
        const reference::GainBias& g = l.gain;
        if (g.bias.size() != t.channels || g.output.size() != t.channels) {
          throw error(i, fmt::format("{} biases and {} scales for {} channels", g.bias.size(),
                                     g.output.size(), t.channels));
        }
        t.a_zero_point = g.input_zero_point;
        one_output(g.output, "output zero point and clamp", false);
        for (unsigned ch = 0; ch < t.channels; ++ch) {
          const Requant& r = g.output[ch];
          if (r.shift < PlanarParams::kMinTableShift || r.shift > 30) {
            throw error(i, fmt::format("channel {}'s shift {} is outside {} to 30 (the gain "
                                       "table's)",
                                       ch, r.shift, PlanarParams::kMinTableShift));
          }
          gains.push_back(PlanarGain{g.bias[ch], r.multiplier, r.shift});
        }
        break;
      }
      case net::Op::kReduceSum:
        t.axis = l.axis == reference::ReduceAxis::kSpatial ? PlanarAxis::kSpatial
                                                           : PlanarAxis::kChannels;
        t.a_zero_point = l.reduce_input_zero_point;
        one_output(l.reduce_output, "output scales", true);
        break;
      case net::Op::kReduceMax:
        t.axis = l.axis == reference::ReduceAxis::kSpatial ? PlanarAxis::kSpatial
                                                           : PlanarAxis::kChannels;
        break;
      default:  // activation
        break;
    }
    if (const std::string why = planar_refusal(d_.planar, t); !why.empty()) {
      throw error(i, fmt::format("the planar engine cannot run it: {}", why));
    }
    ProgramTensor out;
    out.n = batch_;
    out.h = static_cast<int>(t.out_height()), out.w = static_cast<int>(t.out_width());
    out.c = static_cast<int>(t.out_channels());
    if (out.h != l.out.h || out.w != l.out.w || out.c != l.out.c) {
      throw error(i, fmt::format("its output is {}x{}x{}, but the layer says {}x{}x{}", out.h,
                                 out.w, out.c, l.out.h, l.out.w, l.out.c));
    }
    place(i, out, 1 - x.buf, true);
    t.out_base = planar_addr(out);
    t.out_pixel_stride = (static_cast<uint64_t>(out.c) + lanes - 1) / lanes;
    t.out_row_stride = t.out_pixel_stride * t.out_width();
    t.out_image_stride = t.out_row_stride * t.out_height();

    task_ = LayerTask{};
    task_.op = task_op(l.op);
    region(0, x);
    if (l.op == net::Op::kAdd) region(2, at_[l.inputs.size() > 1 ? l.inputs[1] : l.inputs[0]]);
    region(4, out);
    if (tasks_ && !gains.empty()) {
      if (gain_layer_) {
        throw error(i, fmt::format("a second gain_bias layer (after {}): the planar gain table "
                                   "holds one layer's gains, written before the task unit "
                                   "starts; sequence this network by the host",
                                   n_.layers[*gain_layer_].name));
      }
      gain_layer_ = i;
    }
    // The gain table: a row of L channels a write.
    for (unsigned row = 0; row * lanes < gains.size(); ++row) {
      std::vector<uint8_t> data(host_bytes_, 0);
      for (unsigned ln = 0; ln < lanes && row * lanes + ln < gains.size(); ++ln) {
        const PlanarGain& g = gains[row * lanes + ln];
        put_bits(data, gain_bias_lsb(lanes, ln), 32, static_cast<uint32_t>(g.bias));
        put_bits(data, gain_multiplier_lsb(lanes, ln), 32, static_cast<uint32_t>(g.multiplier));
        put_bits(data, gain_shift_lsb(lanes, ln), PlanarParams::kShiftBits,
                 static_cast<uint32_t>(g.shift) & ((1U << PlanarParams::kShiftBits) - 1));
      }
      host_write(HostTarget::kPlanarGains, row, std::move(data));
    }
    const uint32_t base = npu_csr::kPlanarWindow + planar_csr::kGroupOffset +
                          static_cast<uint32_t>(planar_ % 2) * planar_csr::kGroupStride;
    for (const planar_csr::Write& w : planar_csr::task_writes(t))
      apb_write(base + w.offset, w.value);
    ++planar_;
    if (tasks_) layer_tasks_.push_back(std::move(task_));
    wait_and_mark(ProgramStep::Kind::kWaitPlanarDone, planar_, i);

    ProgramLayer pl;
    pl.name = l.name;
    pl.op = l.op;
    pl.neural = false;
    pl.out = out;
    pl.mapping_bound = planar_beats(d_.planar, t);
    p_.layers.push_back(std::move(pl));
    at_[i + 1] = out;
  }

  // Task-region field r (and r + 1: its words) for tensor t, in planar-engine addresses.
  void region(unsigned r, const ProgramTensor& t) {
    task_.region[r] = t.buf * d_.act_words() + t.base;
    task_.region[r + 1] = t.words(d_.lanes());
  }

  // kTasks: the descriptors into system memory, then the host's queueing and waits.
  void enqueue() {
    namespace td = task_desc;
    const TaskParams& tp = d_.tasks;
    std::vector<uint32_t>& m = p_.memory;
    for (size_t i = 0; i < layer_tasks_.size(); ++i) {
      const LayerTask& t = layer_tasks_[i];
      const uint64_t first = m.size();
      p_.descriptors.push_back(first);
      m.push_back(static_cast<uint32_t>(i & 0xffffU) | (1U << td::kTaskSwitchBit));
      m.push_back(0);  // the length, below
      m.push_back(0);
      m.push_back(0);
      m.push_back((7U << td::kGroupCountShift) | td::kRegOp);
      m.push_back(static_cast<uint32_t>(t.op));
      for (const uint64_t v : t.region) m.push_back(static_cast<uint32_t>(v));
      // The engine's registers, consecutive ones in one group.
      for (size_t w = 0; w < t.writes.size();) {
        size_t n = 1;
        while (w + n < t.writes.size() && n < td::kMaxGroupCount &&
               t.writes[w + n].first == t.writes[w].first + n) {
          ++n;
        }
        m.push_back(t.writes[w].first | static_cast<uint32_t>(n << td::kGroupCountShift));
        for (size_t k = 0; k < n; ++k) m.push_back(t.writes[w + k].second);
        w += n;
      }
      const uint64_t length = m.size() - first;
      if (length > td::kMaxWords) {
        throw error(i, fmt::format("its descriptor has {} words, above {}", length, td::kMaxWords));
      }
      m[first + 1] = static_cast<uint32_t>(length);
    }
    if (m.size() > tp.memory_words) {
      throw CompileError(fmt::format("the descriptors ({} words for {} layers) do not fit the "
                                     "system memory the task unit addresses ({} words; "
                                     "tasks.memory_words)",
                                     m.size(), layer_tasks_.size(), tp.memory_words),
                         static_cast<int>(layer_tasks_.size()) - 1);
    }
    // The DMA: the input's one reader loads it (header bit 25, word 2), the last layer
    // stores its output (bit 26, word 3); both after the descriptors, a buffer word ceil(L / 4)
    // memory words. An input with several readers is written by the host.
    if (dma_) {
      const uint64_t per = dma_words_per_buffer_word(d_.lanes());
      if (input_reader_) {
        p_.input_at = m.size();
        m.resize(m.size() + at_[0].words(d_.lanes()) * per, 0);
        m[p_.descriptors[*input_reader_]] |= 1U << td::kInMemoryBit;
        m[p_.descriptors[*input_reader_] + 2] = static_cast<uint32_t>(*p_.input_at);
      }
      const size_t last = layer_tasks_.size() - 1;
      p_.output_at = m.size();
      m.resize(m.size() + at_[last + 1].words(d_.lanes()) * per, 0);
      m[p_.descriptors[last]] |= 1U << td::kOutMemoryBit;
      m[p_.descriptors[last] + 3] = static_cast<uint32_t>(*p_.output_at);
      if (m.size() > tp.memory_words) {
        throw CompileError(
            fmt::format("the descriptors, the input and the output ({} words) do not fit the "
                        "system memory the task unit addresses ({} words; tasks.memory_words); "
                        "with --host-io the host writes the input and the output stays in "
                        "its buffer",
                        m.size(), tp.memory_words),
            static_cast<int>(last));
      }
    }
    for (ProgramStep& s : npu_driver_steps(0, 0, layer_tasks_.size())) {
      p_.steps.push_back(std::move(s));
    }
  }

  const NpuDesign& d_;
  const net::Network& n_;
  int batch_;
  bool tasks_;
  bool pack_;                            ///< pack the input for its reader when it pays
  bool dma_;                             ///< the input and output through memory and the DMA
  bool zero_skip_;                       ///< layers may run on the zero-skipping array
  std::optional<size_t> input_reader_;   ///< the network input's reader, when it has one
  std::optional<size_t> packed_reader_;  ///< the layer that reads the packed input
  LayerTask task_;                       ///< the layer being compiled
  std::vector<LayerTask> layer_tasks_;   ///< kTasks: every layer's
  std::optional<size_t> gain_layer_;     ///< kTasks: the gain_bias layer
  size_t host_bytes_ = 0;
  Buffers buffers_;
  Program p_;
  std::vector<ProgramTensor> at_;                ///< per tensor (0 the input)
  std::vector<std::optional<size_t>> last_use_;  ///< per tensor: its last reader
  std::vector<bool> live_;                       ///< per tensor: its space is held
  uint64_t weight_rows_ = 0, param_groups_ = 0;  ///< in use
  uint64_t neural_ = 0, planar_ = 0;             ///< tasks programmed on each engine
};

}  // namespace

Program compile_network(const NpuDesign& d, const net::Network& network, int batch,
                        const CompileOptions& options) {
  return Compiler(d, network, batch, options).run();
}

}  // namespace npugen::golden
