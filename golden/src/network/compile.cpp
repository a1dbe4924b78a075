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
#include "npugen/golden/network/row_bands.hpp"
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

// A task as the task unit runs it: its regions (planar-engine addresses) and the engine's
// register writes (descriptor register, value), CTRL last; what the DMA loads before it and
// stores after it, as words of the data area (after the descriptors, placed by enqueue).
// A layer is one task, or with row bands one a band, after a claim when its bands load.
struct LayerTask {
  TaskOp op = TaskOp::kConv;
  size_t layer = 0;
  uint64_t region[6] = {};  ///< in0 base, words, in1 base, words, out base, words
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  std::optional<uint64_t> load, store;         ///< data-area words (header bits 25, 26; words 2, 3)
  DmaTarget dma_target = DmaTarget::kBuffers;  ///< a load of rows: DMA_TARGET, ROW, ROWS
  uint64_t dma_row = 0, dma_rows = 0;
};

// A staging area of a banded layer: where a band's input rows are loaded, or its output rows
// written before they are stored.
struct Staging {
  unsigned buf = 0;
  uint64_t base = 0, words = 0;
};
struct BandPlan {
  int rows = 0;  ///< output rows a band
  std::optional<Staging> in, out;
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
        bands_(o.row_bands && dma_),
        dma_weights_(o.weights_by_dma && dma_),
        zero_skip_(o.zero_skip && d.seq.zs.has_value()),
        buffers_(d.act_words(), o.sequencing == Sequencing::kTasks),
        neural_group_(o.neural_group % 2),
        planar_group_(o.planar_group % 2) {
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
    // The input goes through the DMA when one layer reads it (its descriptor loads it whole)
    // or when it does not fit buffer A (its readers' bands load it).
    if (words <= d_.act_words()) {
      buffers_.take(0, 0, words);
    } else if (!bands_) {
      throw CompileError(fmt::format("the input ({} image(s) of {}x{}x{}, {} words) does not fit "
                                     "buffer A ({} words; agu.act_words){}",
                                     batch_, in.h, in.w, in.c, words, d_.act_words(), band_hint()),
                         -1);
    }
    if (dma_ && (input_reader_ || words > d_.act_words())) input_at_ = take_data(words);
    if (words > d_.act_words()) in.mem = input_at_;
    writer_.assign(tensors, std::nullopt);
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
          if (!at_[t].mem) buffers_.free(at_[t].buf, at_[t].base);
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
      if (!at_[t].mem) buffers_.free(at_[t].buf, at_[t].base);
      live_[t] = false;
    }
  }

  // Places layer i's output (shape `out`) in buffer `buf`, or (planar, or over an input in
  // memory) the other one; with row bands, in system memory when it fits neither.
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
    if (bands_) {
      out.mem = take_data(words);
      return;
    }
    std::string where = fmt::format("buffer {} ({} words, {} in use", buffer_name(buf),
                                    d_.act_words(), buffers_.used(buf));
    if (either) {
      where += fmt::format("; buffer {}: {} in use", buffer_name(1 - buf), buffers_.used(1 - buf));
    }
    throw error(i, fmt::format("its output ({}, {} words) does not fit {}; agu.act_words){}",
                               shape_text(out), words, where, band_hint()));
  }

  // Why a tensor above a buffer is refused: the row bands need the task unit and the DMA.
  [[nodiscard]] std::string band_hint() const {
    if (!tasks_) {
      return "; with the task unit (--sequencing tasks) it would stay in system memory and its "
             "layers run in row bands";
    }
    if (!dma_) {
      return "; with the DMA (without --host-io) it would stay in system memory and its layers "
             "run in row bands";
    }
    return "";
  }

  // `words` buffer words of the data area (data-area addresses until enqueue places it).
  uint64_t take_data(uint64_t words) {
    const uint64_t at = data_.size();
    data_.resize(at + words * dma_words_per_buffer_word(d_.lanes()), 0);
    return at;
  }

  // A load task on layer i's engine: `rows` (each the host port's bytes for `target`) into
  // rows first.. of the target, from the data area where they are put, W_t words a row.
  void load_rows(size_t i, DmaTarget target, uint64_t first,
                 const std::vector<std::vector<uint8_t>>& rows) {
    if (rows.empty()) return;
    const unsigned w = d_.dma_rows().words(target);
    LayerTask t;
    t.op = task_op(n_.layers[i].op);
    t.layer = i;
    t.load = data_.size();
    t.dma_target = target;
    t.dma_row = first;
    t.dma_rows = rows.size();
    for (const std::vector<uint8_t>& r : rows) {
      for (unsigned j = 0; j < w; ++j) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4 && size_t{j} * 4 + b < r.size(); ++b) {
          v |= uint32_t{r[size_t{j} * 4 + b]} << (8 * b);
        }
        data_.push_back(v);
      }
    }
    layer_tasks_.push_back(std::move(t));
  }

  // A banded layer's input that is the network's input, to be loaded whole by this layer's
  // descriptor, stays in memory instead: its bands load their rows.
  void input_to_memory(ProgramTensor& x, size_t tensor) {
    if (tensor != 0 || x.mem || !input_at_) return;
    buffers_.free(x.buf, x.base);
    x.mem = input_at_;
    at_[0].mem = input_at_;
    p_.input.mem = input_at_;
  }

  // The band height and staging areas of layer i (input x, output out): the tallest bands
  // whose staging areas fit, over the buffers the engine may use (the sequencer reads one
  // buffer and writes the other). The areas are taken until free_staging.
  BandPlan plan_bands(size_t i, const ProgramTensor& x, const ProgramTensor& out,
                      const BandGeometry& g, uint64_t in_row_words, uint64_t out_row_words,
                      bool neural) {
    BandPlan best;
    for (const unsigned bin : {0U, 1U}) {
      for (const unsigned bout : {0U, 1U}) {
        if ((!x.mem && bin != 0) || (!out.mem && bout != 0)) continue;  // no staging: once
        const unsigned reads = x.mem ? bin : x.buf, writes = out.mem ? bout : out.buf;
        if (neural && reads == writes) continue;
        auto areas = [&](int rows) -> std::optional<BandPlan> {
          BandPlan p;
          p.rows = rows;
          const uint64_t win = x.mem ? band_input_rows(g, rows) * in_row_words : 0;
          const uint64_t wout = out.mem ? static_cast<uint64_t>(rows) * out_row_words : 0;
          if (x.mem && out.mem && bin == bout) {
            const auto at = buffers_.fit(bin, win + wout);
            if (!at) return std::nullopt;
            p.in = Staging{bin, *at, win};
            p.out = Staging{bout, *at + win, wout};
            return p;
          }
          if (x.mem) {
            const auto at = buffers_.fit(bin, win);
            if (!at) return std::nullopt;
            p.in = Staging{bin, *at, win};
          }
          if (out.mem) {
            const auto at = buffers_.fit(bout, wout);
            if (!at) return std::nullopt;
            p.out = Staging{bout, *at, wout};
          }
          return p;
        };
        int lo = 0, hi = g.out_height;  // the most rows that fit: in [lo, hi]
        while (lo < hi) {
          const int mid = lo + (hi - lo + 1) / 2;
          if (areas(mid)) {
            lo = mid;
          } else {
            hi = mid - 1;
          }
        }
        if (lo > best.rows) best = *areas(lo);
      }
    }
    if (best.rows == 0) {
      throw error(
          i,
          fmt::format("its {} is in system memory (it does not fit a buffer), and the staging "
                      "area of a band of one output row ({} input rows of {} words, {} output "
                      "words) does not fit the buffers beside the tensors in use (A: {} of {} "
                      "words, B: {}; agu.act_words)",
                      x.mem && out.mem ? "input and output"
                      : x.mem          ? "input"
                                       : "output",
                      x.mem ? band_input_rows(g, 1) : 0, in_row_words, out.mem ? out_row_words : 0,
                      buffers_.used(0), d_.act_words(), buffers_.used(1)));
    }
    for (const auto& a : {best.in, best.out}) {
      if (a) buffers_.take(a->buf, a->base, a->words);
    }
    return best;
  }
  void free_staging(const BandPlan& p) {
    for (const auto& a : {p.in, p.out}) {
      if (a) buffers_.free(a->buf, a->base);
    }
  }
  [[nodiscard]] uint64_t planar_address(unsigned buf, uint64_t base) const {
    return buf * d_.act_words() + base;
  }

  // Before the bands that load tensor t into `in`: a task with no engine writes (its engine
  // is done at once) whose output region is the staging area, so that it waits for older
  // tasks that still read or write those words, and whose input region is the staging area
  // of the tasks that stored t (on the other engine, possibly still storing), so that it
  // waits for them; the bands read the area it wrote, and wait for it.
  void claim(size_t i, size_t t, const Staging& in) {
    LayerTask c;
    c.op = task_op(n_.layers[i].op);
    c.layer = i;
    if (const auto& w = writer_[t]) {
      c.region[0] = planar_address(w->buf, w->base);
      c.region[1] = w->words;
    }
    c.region[4] = planar_address(in.buf, in.base);
    c.region[5] = in.words;
    layer_tasks_.push_back(std::move(c));
  }

  // One band's task: its input rows (loaded into the staging area, or read where they are),
  // its output rows (written to the staging area and stored, or where the tensor is; the
  // network's output also stored to the output area). Returns the band's buffers and bases:
  // {in buf, in base, out buf, out base}.
  // The rows are the engine's (g): an fc on the dense array sees each image as one row.
  // `last_tile`: the layer's last tile of output channels (the network's output is stored
  // once every channel of the band's rows is written).
  std::array<uint64_t, 4> band_task(size_t i, const RowBand& b, const BandPlan& plan,
                                    const ProgramTensor& x, const ProgramTensor& out,
                                    const BandGeometry& g, uint64_t in_row_words,
                                    uint64_t out_row_words, bool last_tile = true) {
    task_ = LayerTask{};
    task_.op = task_op(n_.layers[i].op);
    task_.layer = i;
    const uint64_t per = dma_words_per_buffer_word(d_.lanes());
    const uint64_t in_at = (static_cast<uint64_t>(b.image) * static_cast<uint64_t>(g.height) +
                            static_cast<uint64_t>(b.in_first)) *
                           in_row_words;
    const uint64_t in_words = static_cast<uint64_t>(b.in_rows) * in_row_words;
    std::array<uint64_t, 4> at{};
    if (plan.in) {
      at[0] = plan.in->buf, at[1] = plan.in->base;
      task_.load = *x.mem + in_at * per;
    } else {
      at[0] = x.buf, at[1] = x.base + in_at;
    }
    task_.region[0] = planar_address(static_cast<unsigned>(at[0]), at[1]);
    task_.region[1] = in_words;
    const uint64_t out_at = (static_cast<uint64_t>(b.image) * static_cast<uint64_t>(g.out_height) +
                             static_cast<uint64_t>(b.out_first)) *
                            out_row_words;
    if (plan.out) {
      at[2] = plan.out->buf, at[3] = plan.out->base;
      task_.store = *out.mem + out_at * per;
    } else {
      at[2] = out.buf, at[3] = out.base + out_at;
      if (last_tile && i + 1 == n_.layers.size() && output_at_) {
        task_.store = *output_at_ + out_at * per;
      }
    }
    task_.region[4] = planar_address(static_cast<unsigned>(at[2]), at[3]);
    task_.region[5] = static_cast<uint64_t>(b.out_rows) * out_row_words;
    return at;
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

  // A task that is the whole layer (or a tile of its output channels): with the DMA, the
  // network's input loaded before it when it reads that (its one reader), the network's
  // output stored after the layer's last when it is the last layer.
  void single_task(size_t i, const ProgramTensor& x, size_t input_tensor, bool last = true) {
    task_.layer = i;
    if (input_tensor == 0 && input_at_ && !x.mem && !input_loaded_) {
      task_.load = *input_at_;
      input_loaded_ = true;
    }
    if (last && i + 1 == n_.layers.size() && output_at_) task_.store = *output_at_;
    layer_tasks_.push_back(std::move(task_));
  }

  // With the DMA, the last layer's output also goes to memory: to the output area, or where
  // the tensor already is in memory.
  void output_area(size_t i, const ProgramTensor& out) {
    if (!dma_ || i + 1 != n_.layers.size()) return;
    output_at_ = out.mem ? *out.mem : take_data(out.words(d_.lanes()));
  }

  // Layer i over input x (tensor `input`) in row bands (regs: the whole layer's registers).
  void neural_bands(size_t i, const ProgramTensor& x, size_t input, const ProgramTensor& out,
                    const AguLayer& r, ProgramLayer& pl, bool last_tile) {
    const BandGeometry g{static_cast<int>(r.height), static_cast<int>(r.kernel_h),
                         static_cast<int>(r.stride_y), static_cast<int>(r.pad_top),
                         static_cast<int>(r.out_height())};
    const uint64_t in_row = static_cast<uint64_t>(r.width) * r.channel_words(d_.lanes());
    const uint64_t out_row = r.out_row_stride;
    const BandPlan plan = plan_bands(i, x, out, g, in_row, out_row, true);
    if (plan.in) claim(i, input, *plan.in);
    const uint64_t channel = r.out_base - out.base;  // a tile's first output word of a pixel
    for (const RowBand& b : row_bands(g, plan.rows, x.n)) {
      auto at = band_task(i, b, plan, x, out, g, in_row, out_row, last_tile);
      at[3] += channel;
      AguLayer s = r;
      s.batch = 1;
      s.height = static_cast<unsigned>(b.in_rows);
      s.pad_top = static_cast<unsigned>(b.pad_top);
      s.pad_bottom = static_cast<unsigned>(b.pad_bottom);
      s.in_buf = static_cast<unsigned>(at[0]), s.in_base = at[1];
      s.out_buf = static_cast<unsigned>(at[2]), s.out_base = at[3];
      if (const std::string why = agu_refusal(d_.seq.agu, s); !why.empty()) {
        throw error(i, fmt::format("the sequencer cannot run its band of output rows {} to {}: {}",
                                   b.out_first, b.out_first + b.out_rows - 1, why));
      }
      const uint32_t base =
          npu_csr::kSequencerWindow + sequencer_csr::kAguWindow + agu_csr::kGroupOffset +
          static_cast<uint32_t>((neural_ + neural_group_) % 2) * agu_csr::kGroupStride;
      for (const agu_csr::Write& w : agu_csr::layer_writes(s)) apb_write(base + w.offset, w.value);
      ++neural_;
      ++pl.tasks;
      layer_tasks_.push_back(std::move(task_));
    }
    free_staging(plan);
    if (plan.out) writer_[i + 1] = plan.out;
  }

  // Planar layer i over input x (and y, add's second input) in row bands (t: the whole
  // layer's task).
  void planar_bands(size_t i, const ProgramTensor& x, const std::optional<ProgramTensor>& y,
                    const ProgramTensor& out, const PlanarTask& t, ProgramLayer& pl) {
    const net::Layer& l = n_.layers[i];
    if (l.op == net::Op::kReduceSum || l.op == net::Op::kReduceMax) {
      throw error(i, fmt::format("its {} is in system memory (it does not fit a buffer), and a "
                                 "reduction does not run in row bands",
                                 x.mem ? "input" : "output"));
    }
    if (y && y->mem) {
      throw error(i,
                  "its second input is in system memory (it does not fit a buffer): the DMA "
                  "loads a band's first input only");
    }
    const bool pool = l.op == net::Op::kMaxPool || l.op == net::Op::kAvgPool;
    const BandGeometry g{static_cast<int>(t.height), pool ? static_cast<int>(t.kernel_h) : 1,
                         pool ? static_cast<int>(t.stride_y) : 1,
                         pool ? static_cast<int>(t.pad_top) : 0, static_cast<int>(t.out_height())};
    const BandPlan plan = plan_bands(i, x, out, g, t.in_row_stride, t.out_row_stride, false);
    if (plan.in) claim(i, l.inputs[0], *plan.in);
    pl.tasks = 0;
    for (const RowBand& b : row_bands(g, plan.rows, x.n)) {
      const auto at = band_task(i, b, plan, x, out, g, t.in_row_stride, t.out_row_stride);
      PlanarTask s = t;
      s.batch = 1;
      s.height = static_cast<unsigned>(b.in_rows);
      s.pad_top = static_cast<unsigned>(b.pad_top);
      s.pad_bottom = static_cast<unsigned>(b.pad_bottom);
      s.a_base = planar_address(static_cast<unsigned>(at[0]), at[1]);
      s.out_base = planar_address(static_cast<unsigned>(at[2]), at[3]);
      if (y) {  // add: 1 x 1, the same rows of the second input
        const uint64_t from = (static_cast<uint64_t>(b.image) * static_cast<uint64_t>(y->h) +
                               static_cast<uint64_t>(b.in_first)) *
                              t.in_row_stride;
        s.b_base = planar_address(y->buf, y->base + from);
        task_.region[2] = s.b_base;
        task_.region[3] = static_cast<uint64_t>(b.in_rows) * t.in_row_stride;
      }
      if (const std::string why = planar_refusal(d_.planar, s); !why.empty()) {
        throw error(i, fmt::format("the planar engine cannot run its band of output rows {} to "
                                   "{}: {}",
                                   b.out_first, b.out_first + b.out_rows - 1, why));
      }
      const uint32_t base =
          npu_csr::kPlanarWindow + planar_csr::kGroupOffset +
          static_cast<uint32_t>((planar_ + planar_group_) % 2) * planar_csr::kGroupStride;
      for (const planar_csr::Write& w : planar_csr::task_writes(s)) {
        apb_write(base + w.offset, w.value);
      }
      ++planar_;
      ++pl.tasks;
      layer_tasks_.push_back(std::move(task_));
    }
    free_staging(plan);
    if (plan.out) writer_[i + 1] = plan.out;
  }

  void neural(size_t i) {
    const net::Layer& l = n_.layers[i];
    ProgramTensor x = at_[l.inputs[0]];
    const unsigned lanes = d_.lanes(), tiles = d_.seq.tiles();
    const bool fc = l.op == net::Op::kFc;
    reference::ConvLayer c = l.conv;
    bool banded = false;
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
    const bool each = !tasks_ || dma_weights_;  // this layer's weights are loaded for it alone
    if (each) weight_rows_ = param_groups_ = 0;
    if (dma_weights_ && l.vq.vector_length != 0) {
      throw error(i,
                  "it is loaded as codebook indices (vq:) by the host before the list starts, "
                  "but this network's weights go through the DMA layer by layer "
                  "(--weights-by-dma, or the store does not hold every layer's at once); "
                  "sequence it by the host (--sequencing host)");
    }
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
      while (each && tile_filters + step < k && fits(tile_filters + step)) tile_filters += step;
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
        if (!each) {
          throw CompileError(
              fmt::format("layer {}: {}; sequenced by the host (--sequencing host){} it would run "
                          "in tiles of output channels",
                          l.name, what, dma_ ? "" : ", or with the DMA (without --host-io),"),
              static_cast<int>(i), dma_);
        }
        throw error(
            i, what + fmt::format(", nor do {} filters, the smallest tile", std::min(step, k)));
      }
    }
    reference::Tensor shape;
    shape.n = batch_, shape.h = x.h, shape.w = x.w, shape.c = x.c;
    ProgramTensor out;
    ProgramLayer pl;
    pl.name = l.name;
    pl.op = l.op;
    pl.neural = true;
    pl.tasks = 0;  // counted as they are made
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
      where.in_buf = x.mem ? 0 : x.buf, where.out_buf = 1 - where.in_buf;
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
        place(i, out, x.mem ? 0 : 1 - x.buf, x.mem.has_value());
        banded = x.mem || out.mem;
        if (banded) {
          if (out.mem && tile_filters < k) {
            throw error(i,
                        "its output is in system memory (it does not fit a buffer) and its "
                        "filters run in tiles of output channels: a band stores every "
                        "channel of its rows");
          }
          input_to_memory(x, l.inputs[0]);
        }
        output_area(i, out);
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
        if (dma_weights_) {
          load_rows(i, DmaTarget::kWeights, weight_rows_, low.weight_rows);
        } else {
          for (size_t r = 0; r < low.weight_rows.size(); ++r) {
            host_write(HostTarget::kWeights, weight_rows_ + r, low.weight_rows[r]);
          }
        }
        pl.weight_bits += low.weight_rows.size() * (low.regs.dataflow == Dataflow::kZeroSkip
                                                        ? uint64_t{d_.seq.store_row_bytes()} * 8
                                                        : uint64_t{tiles} * lanes * 8);
      }
      std::vector<std::vector<uint8_t>> groups;
      for (const auto& g : low.params) groups.push_back(param_group_bytes(d_.seq, g));
      if (dma_weights_) {
        load_rows(i, DmaTarget::kParams, param_groups_, groups);
      } else {
        for (size_t g = 0; g < groups.size(); ++g) {
          host_write(HostTarget::kParams, param_groups_ + g, std::move(groups[g]));
        }
      }
      if (banded) {
        neural_bands(i, x, l.inputs[0], out, low.regs, pl, k0 + kk == k);
      } else {
        if (tasks_) {  // a tile's task (the layer's when it has one tile)
          task_ = LayerTask{};
          task_.op = task_op(l.op);
        }
        const uint32_t base =
            npu_csr::kSequencerWindow + sequencer_csr::kAguWindow + agu_csr::kGroupOffset +
            static_cast<uint32_t>((neural_ + neural_group_) % 2) * agu_csr::kGroupStride;
        for (const agu_csr::Write& w : agu_csr::layer_writes(low.regs))
          apb_write(base + w.offset, w.value);
        ++neural_;
        if (tasks_) {
          region(0, x);
          region(4, out);
          single_task(i, x, l.inputs[0], k0 + kk == k);
          ++pl.tasks;
        }
      }
      pl.weight_rows += low.weight_rows.size();
      if (tasks_) {
        if (!dma_weights_) {  // every layer's written first, layer after layer
          weight_rows_ += low.weight_rows.size();
          param_groups_ += low.params.size();
        }
      } else if (k0 + kk < k) {  // the next tile's weights wait for this one
        ProgramStep w;
        w.kind = ProgramStep::Kind::kWaitSeqDone;
        w.count = neural_;
        p_.steps.push_back(std::move(w));
      }
    }
    if (pl.tasks == 0) pl.tasks = 1;  // sequenced by the host
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
    ProgramTensor x = at_[l.inputs[0]];
    const unsigned lanes = d_.lanes();
    const PlanarOp op = planar_op(l.op);
    if (!d_.planar.generates(op)) {
      throw error(i, fmt::format("{} is not generated by this design's planar engine "
                                 "(planar.modes)",
                                 planar_op_name(op)));
    }
    PlanarTask t;
    t.op = op;
    t.height = static_cast<unsigned>(x.h), t.width = static_cast<unsigned>(x.w);
    t.channels = static_cast<unsigned>(x.c), t.batch = static_cast<unsigned>(batch_);
    t.in_pixel_stride = t.channel_words(lanes);
    t.in_row_stride = t.in_pixel_stride * t.width;
    t.in_image_stride = t.in_row_stride * t.height;
    t.a_base = planar_address(x.buf, x.base);
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
        t.b_base = planar_address(y.buf, y.base);
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
    place(i, out, x.mem ? 0 : 1 - x.buf, true);
    const bool banded =
        x.mem || out.mem || (l.op == net::Op::kAdd && l.inputs.size() > 1 && at_[l.inputs[1]].mem);
    if (banded) input_to_memory(x, l.inputs[0]);
    output_area(i, out);
    t.out_base = planar_address(out.buf, out.base);
    t.out_pixel_stride = (static_cast<uint64_t>(out.c) + lanes - 1) / lanes;
    t.out_row_stride = t.out_pixel_stride * t.out_width();
    t.out_image_stride = t.out_row_stride * t.out_height();

    if (tasks_ && !dma_weights_ && !gains.empty()) {
      if (gain_layer_) {
        throw CompileError(
            fmt::format("layer {}: a second gain_bias layer (after {}): the planar gain table "
                        "holds one layer's gains, written before the task unit starts; "
                        "sequence this network by the host{}",
                        l.name, n_.layers[*gain_layer_].name,
                        dma_ ? "" : ", or load the gains through the DMA (without --host-io)"),
            static_cast<int>(i), dma_);
      }
      gain_layer_ = i;
    }
    // The gain table: a row of L channels a write (or a load of the rows by the DMA).
    std::vector<std::vector<uint8_t>> gain_rows;
    for (unsigned row = 0; row * lanes < gains.size(); ++row) {
      std::vector<uint8_t> data(host_bytes_, 0);
      for (unsigned ln = 0; ln < lanes && row * lanes + ln < gains.size(); ++ln) {
        const PlanarGain& g = gains[row * lanes + ln];
        put_bits(data, gain_bias_lsb(lanes, ln), 32, static_cast<uint32_t>(g.bias));
        put_bits(data, gain_multiplier_lsb(lanes, ln), 32, static_cast<uint32_t>(g.multiplier));
        put_bits(data, gain_shift_lsb(lanes, ln), PlanarParams::kShiftBits,
                 static_cast<uint32_t>(g.shift) & ((1U << PlanarParams::kShiftBits) - 1));
      }
      gain_rows.push_back(std::move(data));
    }
    if (dma_weights_) {
      load_rows(i, DmaTarget::kGains, 0, gain_rows);
    } else {
      for (size_t row = 0; row < gain_rows.size(); ++row) {
        host_write(HostTarget::kPlanarGains, row, std::move(gain_rows[row]));
      }
    }
    ProgramLayer pl;
    pl.name = l.name;
    pl.op = l.op;
    pl.neural = false;
    pl.out = out;
    pl.mapping_bound = planar_beats(d_.planar, t);
    const bool add = l.op == net::Op::kAdd;
    const ProgramTensor y = at_[l.inputs.size() > 1 ? l.inputs[1] : l.inputs[0]];
    if (banded) {
      planar_bands(i, x, add ? std::optional<ProgramTensor>(y) : std::nullopt, out, t, pl);
    } else {
      task_ = LayerTask{};
      task_.op = task_op(l.op);
      region(0, x);
      if (add) region(2, y);
      region(4, out);
      const uint32_t base =
          npu_csr::kPlanarWindow + planar_csr::kGroupOffset +
          static_cast<uint32_t>((planar_ + planar_group_) % 2) * planar_csr::kGroupStride;
      for (const planar_csr::Write& w : planar_csr::task_writes(t))
        apb_write(base + w.offset, w.value);
      ++planar_;
      if (tasks_) single_task(i, x, l.inputs[0]);
    }
    wait_and_mark(ProgramStep::Kind::kWaitPlanarDone, planar_, i);
    p_.layers.push_back(std::move(pl));
    at_[i + 1] = out;
  }

  // Task-region field r (and r + 1: its words) for tensor t, in planar-engine addresses.
  void region(unsigned r, const ProgramTensor& t) {
    task_.region[r] = planar_address(t.buf, t.base);
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
      m.push_back(static_cast<uint32_t>(i & 0xffffU) | (1U << td::kTaskSwitchBit) |
                  (t.load ? 1U << td::kInMemoryBit : 0U) |
                  (t.store ? 1U << td::kOutMemoryBit : 0U));
      m.push_back(0);  // the length, below
      m.push_back(0);  // the DMA's pointers, below
      m.push_back(0);
      m.push_back((7U << td::kGroupCountShift) | td::kRegOp);
      m.push_back(static_cast<uint32_t>(t.op));
      for (const uint64_t v : t.region) m.push_back(static_cast<uint32_t>(v));
      if (t.dma_target != DmaTarget::kBuffers) {  // a load of rows
        m.push_back((3U << td::kGroupCountShift) | td::kRegDmaTarget);
        m.push_back(static_cast<uint32_t>(t.dma_target));
        m.push_back(static_cast<uint32_t>(t.dma_row));
        m.push_back(static_cast<uint32_t>(t.dma_rows));
      }
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
        throw error(t.layer,
                    fmt::format("its descriptor has {} words, above {}", length, td::kMaxWords));
      }
      m[first + 1] = static_cast<uint32_t>(length);
    }
    // The data area after the descriptors: the input, the tensors kept in memory, the
    // output (a buffer word ceil(L / 4) memory words); the DMA's pointers into it.
    const uint64_t data = m.size();
    auto place_data = [&](std::optional<uint64_t>& at) {
      if (at) *at += data;
    };
    for (size_t i = 0; i < layer_tasks_.size(); ++i) {
      const LayerTask& t = layer_tasks_[i];
      if (t.load) m[p_.descriptors[i] + 2] = static_cast<uint32_t>(data + *t.load);
      if (t.store) m[p_.descriptors[i] + 3] = static_cast<uint32_t>(data + *t.store);
    }
    p_.input_at = input_at_;
    p_.output_at = output_at_;
    place_data(p_.input_at);
    place_data(p_.output_at);
    place_data(p_.input.mem);
    for (ProgramLayer& l : p_.layers) place_data(l.out.mem);
    m.insert(m.end(), data_.begin(), data_.end());
    if (m.size() > tp.memory_words) {
      throw CompileError(
          fmt::format("the descriptors ({} words for {} tasks) and the data the DMA moves ({} "
                      "words: the input, the output and the tensors kept in memory) do not fit "
                      "the system memory the task unit addresses ({} words; "
                      "tasks.memory_words)",
                      data, layer_tasks_.size(), data_.size(), tp.memory_words),
          static_cast<int>(layer_tasks_.back().layer));
    }
    for (ProgramStep& s : npu_driver_steps(0, 0, layer_tasks_.size())) {
      p_.steps.push_back(std::move(s));
    }
  }

  const NpuDesign& d_;
  const net::Network& n_;
  int batch_;
  bool tasks_;
  bool pack_;         ///< pack the input for its reader when it pays
  bool dma_;          ///< the input and output through memory and the DMA
  bool bands_;        ///< a tensor above a buffer stays in memory, its layers run in row bands
  bool dma_weights_;  ///< weights, parameters and gains loaded by the DMA before each layer
  bool zero_skip_;    ///< layers may run on the zero-skipping array
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
  unsigned neural_group_, planar_group_;         ///< each engine's group of its first task
  std::vector<uint32_t> data_;  ///< the data area: the input, weight rows, tensors, the output
  std::optional<uint64_t> input_at_, output_at_;  ///< data-area words of the input and output
  bool input_loaded_ = false;                     ///< the input reader's first task loads it
  std::vector<std::optional<Staging>> writer_;    ///< per tensor in memory: the staging area
                                                  ///< its writer's bands stored it from
};

}  // namespace

Program compile_network(const NpuDesign& d, const net::Network& network, int batch,
                        const CompileOptions& options) {
  try {
    return Compiler(d, network, batch, options).run();
  } catch (const CompileError& e) {
    // The store, the post table or the gain table does not hold every layer's at once: the
    // DMA loads each layer's just before it.
    if (!e.store_full || options.weights_by_dma) throw;
    CompileOptions by_dma = options;
    by_dma.weights_by_dma = true;
    return Compiler(d, network, batch, by_dma).run();
  }
}

}  // namespace npugen::golden
