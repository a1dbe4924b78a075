// lower (passes.hpp): every layer's engine registers as tasks for the task unit (or APB
// writes of the host), one a layer, a tile of output channels or a row band; the host's
// writes of weights, parameters and gains, or the DMA's loads of them; the program's layers.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>

#include "npugen/compiler/row_bands.hpp"
#include "npugen/golden/agu/params.hpp"
#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/planar/params.hpp"
#include "npugen/golden/tasks/params.hpp"
#include "npugen/golden/vq/params.hpp"
#include "passes.hpp"

namespace npugen::compiler {
namespace {

using golden::HostTarget;
using golden::ProgramLayer;
using golden::ProgramStep;
using golden::ProgramTensor;
namespace npu_csr = golden::npu_csr;

std::vector<uint8_t> resized(std::vector<uint8_t> bytes, size_t n) {
  bytes.resize(n, 0);
  return bytes;
}

class Lowering {
 public:
  Lowering(const Target& t, Graph& g) : t_(t), g_(g) {}

  void run() {
    for (const Node& node : g_.nodes) {
      if (node.info->neural) {
        neural(node);
      } else {
        planar(node);
      }
    }
  }

 private:
  void host_write(HostTarget target, uint64_t addr, std::vector<uint8_t> data) {
    ProgramStep s;
    s.kind = ProgramStep::Kind::kHostWrite;
    s.target = target;
    s.addr = addr;
    s.data = resized(std::move(data), t_.host_bytes);
    g_.steps.push_back(std::move(s));
  }
  void apb_write(uint32_t addr, uint32_t data) {
    if (t_.tasks) {  // into the layer's descriptor, as the engine's register
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
    g_.steps.push_back(std::move(s));
  }
  // An APB access of the host's own (weights are the host's to load, whatever the sequencing).
  void host_apb(ProgramStep::Kind kind, uint32_t addr, uint32_t data = 0) {
    ProgramStep s;
    s.kind = kind;
    s.apb_addr = addr, s.apb_data = data;
    g_.steps.push_back(std::move(s));
  }

  // A load task on layer i's engine: `rows` (each the host port's bytes for `target`) into
  // rows first.. of the target, from the data-area words `at` (allocate's), W_t words a row.
  void load_rows(size_t i, golden::DmaTarget target, uint64_t first,
                 const std::vector<std::vector<uint8_t>>& rows, std::optional<uint64_t> at) {
    if (rows.empty()) return;
    const unsigned w = t_.d.dma_rows().words(target);
    LayerTask task;
    task.op = op_info(t_.n.layers[i].op).task;
    task.layer = i;
    task.load = at.value();
    task.dma_target = target;
    task.dma_row = first;
    task.dma_rows = rows.size();
    uint64_t word = *at;
    for (const std::vector<uint8_t>& r : rows) {
      for (unsigned j = 0; j < w; ++j) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4 && size_t{j} * 4 + b < r.size(); ++b) {
          v |= uint32_t{r[size_t{j} * 4 + b]} << (8 * b);
        }
        g_.data.at(word++) = v;
      }
    }
    g_.tasks.push_back(std::move(task));
  }

  // A VQ layer's rows through the VQ weight loader: the dequantizer's CTRL (VQ on, its
  // vector length) and BASE (0), the layer's codebook, each row as indices; then a read of
  // the dequantizer's STATUS, which waits until the loader has written the last row.
  // Returns the bits sent.
  uint64_t vq_rows(const golden::net::VqTable& vt, const std::vector<std::vector<uint8_t>>& rows,
                   uint64_t first) {
    namespace vq_csr = golden::vq_csr;
    const golden::VqParams& q = *t_.d.vq;
    const unsigned m = vt.vector_length, row_w = t_.d.seq.tiles() * t_.d.lanes();
    const unsigned ib = q.index_bits();
    const uint32_t vq = npu_csr::kVqWindow;
    host_apb(ProgramStep::Kind::kApbWrite, vq + vq_csr::kCtrl,
             (1U << vq_csr::kCtrlVqEnBit) | (golden::ceil_log2(m) << vq_csr::kCtrlVlenLsb));
    host_apb(ProgramStep::Kind::kApbWrite, vq + vq_csr::kBase, 0);
    const size_t weights = vt.codebook.size();
    const size_t book_rows = (weights + q.row_weights - 1) / q.row_weights;
    for (size_t r = 0; r < book_rows; ++r) {
      std::vector<uint8_t> data(q.row_weights, 0);
      for (unsigned j = 0; j < q.row_weights && r * q.row_weights + j < weights; ++j) {
        data[j] = static_cast<uint8_t>(vt.codebook[r * q.row_weights + j]);
      }
      host_write(HostTarget::kVqCodebook, r, std::move(data));
    }
    std::map<std::string, uint32_t> index;  // a vector's bytes -> its first index
    for (size_t v = 0; v * m < weights; ++v) {
      std::string key(m, '\0');
      for (unsigned j = 0; j < m; ++j) key[j] = static_cast<char>(vt.codebook[v * m + j]);
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
              "compile_network: a VQ layer's row holds a vector that is not in its codebook");
        }
        golden::put_bits(data, j * ib, ib, it->second);
      }
      host_write(HostTarget::kVqRow, first + r, std::move(data));
    }
    host_apb(ProgramStep::Kind::kApbRead, vq + vq_csr::kStatus);
    return uint64_t{book_rows} * q.row_weights * 8 + rows.size() * uint64_t{row_w / m} * ib;
  }

  void wait_and_mark(ProgramStep::Kind kind, uint64_t count, size_t i) {
    if (t_.tasks) return;  // the task unit runs the layers (encode)
    ProgramStep w;
    w.kind = kind;
    w.count = count;
    g_.steps.push_back(std::move(w));
    ProgramStep done;
    done.kind = ProgramStep::Kind::kLayerDone;
    done.layer = static_cast<unsigned>(i);
    g_.steps.push_back(std::move(done));
  }

  // Task-region field r (and r + 1: its words) for tensor x, in planar-engine addresses.
  void region(unsigned r, const ProgramTensor& x) {
    task_.region[r] = t_.planar_address(x.buf, x.base);
    task_.region[r + 1] = x.words(t_.d.lanes());
  }

  // A task that is the whole layer (or a tile of its output channels): with the DMA, the
  // network's input loaded before it when it reads that (its one reader), the network's
  // output stored after the layer's last when it is an output of the network.
  void single_task(size_t i, const ProgramTensor& x, size_t input_tensor, bool last = true) {
    task_.layer = i;
    if (input_tensor == 0 && g_.input_at && !x.mem && !input_loaded_) {
      task_.load = *g_.input_at;
      input_loaded_ = true;
    }
    if (last && g_.output_at[i]) task_.store = *g_.output_at[i];
    g_.tasks.push_back(std::move(task_));
  }

  // A load-only task on layer i's engine: `words` buffer words from the data-area word `from`
  // into staging area `area` (header bit 25, region 0, no engine writes: the command
  // processor loads at the descriptor's end and is done). An add's bands load their second
  // input's rows with it, before the band's task, which the engine runs after it.
  void load_rows_of(size_t i, const Staging& area, uint64_t from, uint64_t words) {
    LayerTask l;
    l.op = op_info(t_.n.layers[i].op).task;
    l.layer = i;
    l.region[0] = t_.planar_address(area.buf, area.base);
    l.region[1] = words;
    l.load = from;
    g_.tasks.push_back(std::move(l));
  }

  // Before the bands that load tensor x into `in`: a task with no engine writes (its engine
  // is done at once) whose output region is the staging area, so that it waits for older
  // tasks that still read or write those words, and whose input region is the staging area
  // of the tasks that stored x (on the other engine, possibly still storing), so that it
  // waits for them; the bands read the area it wrote, and wait for it.
  void claim(size_t i, size_t x, const Staging& in) {
    LayerTask c;
    c.op = op_info(t_.n.layers[i].op).task;
    c.layer = i;
    if (const auto& w = g_.writer[x]) {
      c.region[0] = t_.planar_address(w->buf, w->base);
      c.region[1] = w->words;
    }
    c.region[4] = t_.planar_address(in.buf, in.base);
    c.region[5] = in.words;
    g_.tasks.push_back(std::move(c));
  }

  // One band's task: its input rows (loaded into the staging area, or read where they are),
  // its output rows (written to the staging area and stored, or where the tensor is; the
  // network's output also stored to the output area). Returns the band's buffers and bases:
  // {in buf, in base, out buf, out base}.
  // The rows are the engine's (geo): an fc on the dense array sees each image as one row.
  // `last_tile`: the layer's last tile of output channels (the network's output is stored
  // once every channel of the band's rows is written). With tiles of columns, each a task of
  // the band: the first loads the band's rows, the last stores them (the engine runs its
  // tasks one after the other); the bases are the rows' first words, the tile's columns the
  // caller's.
  std::array<uint64_t, 4> band_task(size_t i, const RowBand& b, const BandPlan& plan,
                                    const ProgramTensor& x, const ProgramTensor& out,
                                    const BandGeometry& geo, uint64_t in_row_words,
                                    uint64_t out_row_words, bool last_tile, bool first_col,
                                    bool last_col) {
    task_ = LayerTask{};
    task_.op = op_info(t_.n.layers[i].op).task;
    task_.layer = i;
    const uint64_t per = golden::dma_words_per_buffer_word(t_.d.lanes());
    const uint64_t in_at = (static_cast<uint64_t>(b.image) * static_cast<uint64_t>(geo.height) +
                            static_cast<uint64_t>(b.in_first)) *
                           in_row_words;
    const uint64_t in_words = static_cast<uint64_t>(b.in_rows) * in_row_words;
    std::array<uint64_t, 4> at{};
    if (plan.in) {
      at[0] = plan.in->buf, at[1] = plan.in->base;
      if (first_col) task_.load = *x.mem + in_at * per;
    } else {
      at[0] = x.buf, at[1] = x.base + in_at;
    }
    task_.region[0] = t_.planar_address(static_cast<unsigned>(at[0]), at[1]);
    task_.region[1] = in_words;
    const uint64_t out_at =
        (static_cast<uint64_t>(b.image) * static_cast<uint64_t>(geo.out_height) +
         static_cast<uint64_t>(b.out_first)) *
        out_row_words;
    if (plan.out) {
      at[2] = plan.out->buf, at[3] = plan.out->base;
      if (last_col) task_.store = *out.mem + out_at * per;
    } else {
      at[2] = out.buf, at[3] = out.base + out_at;
      if (last_tile && last_col && g_.output_at[i]) {
        task_.store = *g_.output_at[i] + out_at * per;
      }
    }
    task_.region[4] = t_.planar_address(static_cast<unsigned>(at[2]), at[3]);
    task_.region[5] = static_cast<uint64_t>(b.out_rows) * out_row_words;
    return at;
  }

  uint32_t neural_group_base() const {
    namespace agu_csr = golden::agu_csr;
    return npu_csr::kSequencerWindow + golden::sequencer_csr::kAguWindow + agu_csr::kGroupOffset +
           static_cast<uint32_t>((neural_ + t_.neural_group) % 2) * agu_csr::kGroupStride;
  }
  uint32_t planar_group_base() const {
    namespace planar_csr = golden::planar_csr;
    return npu_csr::kPlanarWindow + planar_csr::kGroupOffset +
           static_cast<uint32_t>((planar_ + t_.planar_group) % 2) * planar_csr::kGroupStride;
  }

  // Layer i in bands of rows (and tiles of columns), over its tiles of output channels
  // (their registers `tiles`, placed): one tile, all its bands (the caller loops over tiles:
  // `last_tile`, the layer's last); or, over bands whose output is in system memory, every
  // tile of a band before the next band, so that the band's rows in the staging area hold
  // every channel when the last tile's task stores them. With weights by the DMA, each tile's
  // rows and parameters are loaded before its task in every band (`tile_loads`).
  void neural_bands(const Node& node, const std::vector<golden::AguLayer>& tiles, ProgramLayer& pl,
                    bool last_tile, const std::vector<std::function<void()>>& tile_loads = {}) {
    const size_t i = node.layer;
    const auto [geo, col_geo] = neural_geometry(tiles.front());
    const BandPlan& plan = node.plan;
    if (plan.in) claim(i, t_.n.layers[i].inputs[0], *plan.in);
    const std::vector<RowBand> cols = column_tiles(plan, col_geo);
    const size_t n = std::max<size_t>(cols.size(), 1);
    for (const RowBand& b : row_bands(geo, plan.rows, node.x.n)) {
      for (size_t c = 0; c < n; ++c) {
        for (size_t k = 0; k < tiles.size(); ++k) {
          if (!tile_loads.empty()) tile_loads[k]();
          const bool last = c + 1 == n && k + 1 == tiles.size();
          neural_band_task(node, tiles[k], b, cols, c, c == 0 && k == 0, last,
                           last_tile && k + 1 == tiles.size(), pl);
        }
      }
    }
  }

  // One task of a banded neural layer: band b's tile of columns c (of `cols`; none: the
  // whole width) with tile registers r; `first` loads the band's rows, `last` stores them.
  void neural_band_task(const Node& node, const golden::AguLayer& r, const RowBand& b,
                        const std::vector<RowBand>& cols, size_t c, bool first, bool last,
                        bool last_tile, ProgramLayer& pl) {
    const size_t i = node.layer;
    const BandGeometry geo = neural_geometry(r).first;
    const uint64_t in_row = static_cast<uint64_t>(r.width) * r.channel_words(t_.d.lanes());
    auto at = band_task(i, b, node.plan, node.x, node.out, geo, in_row, r.out_row_stride, last_tile,
                        first, last);
    at[3] += r.out_base - node.out.base;  // the tile's first output word of a pixel
    golden::AguLayer s = r;
    s.batch = 1;
    s.height = static_cast<unsigned>(b.in_rows);
    s.pad_top = static_cast<unsigned>(b.pad_top);
    s.pad_bottom = static_cast<unsigned>(b.pad_bottom);
    if (!cols.empty()) {  // its columns, in the band's rows as they are
      const RowBand& col = cols[c];
      s.width = static_cast<unsigned>(col.in_rows);
      s.pad_left = static_cast<unsigned>(col.pad_top);
      s.pad_right = static_cast<unsigned>(col.pad_bottom);
      at[1] += static_cast<uint64_t>(col.in_first) * r.in_pixel_stride;
      at[3] += static_cast<uint64_t>(col.out_first) * r.out_pixel_stride;
    }
    s.in_buf = static_cast<unsigned>(at[0]), s.in_base = at[1];
    s.out_buf = static_cast<unsigned>(at[2]), s.out_base = at[3];
    if (const std::string why = golden::agu_refusal(t_.d.seq.agu, s); !why.empty()) {
      throw t_.error(
          i, fmt::format("the sequencer cannot run its band of output rows {} to "
                         "{}{}: {}",
                         b.out_first, b.out_first + b.out_rows - 1, columns_text(cols, c), why));
    }
    const uint32_t base = neural_group_base();
    for (const golden::agu_csr::Write& w : golden::agu_csr::layer_writes(s)) {
      apb_write(base + w.offset, w.value);
    }
    ++neural_;
    ++pl.tasks;
    g_.tasks.push_back(std::move(task_));
  }

  // A layer's tiles of columns (plan.cols output columns each, along `geo`, its width's
  // geometry), or none when it runs at its own width.
  static std::vector<RowBand> column_tiles(const BandPlan& plan, const BandGeometry& geo) {
    return plan.cols == 0 ? std::vector<RowBand>{} : row_bands(geo, plan.cols, 1);
  }
  // A planar task's slices of channels (first channel, channels), each from a word: one, the
  // whole task, when its channels fit planar.max_channels.
  [[nodiscard]] std::vector<std::pair<unsigned, unsigned>> channel_slices(
      size_t i, const golden::PlanarTask& t) const {
    const unsigned most = t_.d.planar.max_channels, lanes = t_.d.lanes();
    if (t.channels <= most || !sliced_by_channels(t.op, t.axis)) return {{0U, t.channels}};
    const unsigned cap = most / lanes * lanes;
    if (cap == 0) {
      throw t_.error(i, fmt::format("its {} channels are above the planar engine's {} "
                                    "(planar.max_channels), below one word of {} lanes a slice",
                                    t.channels, most, lanes));
    }
    std::vector<std::pair<unsigned, unsigned>> out;
    for (unsigned c0 = 0; c0 < t.channels; c0 += cap) {
      out.emplace_back(c0, std::min(cap, t.channels - c0));
    }
    return out;
  }
  // Task `s` (of the whole channels) narrowed to a slice: its channels and its bases moved to
  // the slice's first word (the pixel strides stay the tensors').
  void narrow(golden::PlanarTask& s, const std::pair<unsigned, unsigned>& slice, bool add) const {
    if (slice.first == 0 && slice.second == s.channels) return;
    const uint64_t word = slice.first / t_.d.lanes();
    s.channels = slice.second;
    s.a_base += word, s.out_base += word;
    if (add) s.b_base += word;
  }
  static std::string columns_text(const std::vector<RowBand>& cols, size_t c) {
    return cols.empty() ? std::string()
                        : fmt::format(", columns {} to {}", cols[c].out_first,
                                      cols[c].out_first + cols[c].out_rows - 1);
  }

  // Planar layer i over input x (and y, add's second input) in row bands (t: the whole
  // layer's task).
  void planar_bands(const Node& node, const std::optional<ProgramTensor>& y,
                    const golden::PlanarTask& t, ProgramLayer& pl) {
    const size_t i = node.layer;
    const ProgramTensor& x = node.x;
    const ProgramTensor& out = node.out;
    const auto [geo, col_geo] = planar_geometry(t);
    const BandPlan& plan = node.plan;
    const std::vector<size_t>& inputs = t_.n.layers[i].inputs;
    if (plan.in) claim(i, inputs[0], *plan.in);
    if (plan.in2) claim(i, inputs.size() > 1 ? inputs[1] : inputs[0], *plan.in2);
    const uint64_t per = golden::dma_words_per_buffer_word(t_.d.lanes());
    pl.tasks = 0;
    const std::vector<RowBand> cols = column_tiles(plan, col_geo);
    const size_t n = std::max<size_t>(cols.size(), 1);
    const auto slices = channel_slices(i, t);
    for (const RowBand& b : row_bands(geo, plan.rows, x.n)) {
      for (size_t c = 0; c < n * slices.size(); ++c) {
        const auto& slice = slices[c % slices.size()];
        auto at = band_task(i, b, plan, x, out, geo, t.in_row_stride, t.out_row_stride, true,
                            c == 0, c + 1 == n * slices.size());
        golden::PlanarTask s = t;
        s.batch = 1;
        s.height = static_cast<unsigned>(b.in_rows);
        s.pad_top = static_cast<unsigned>(b.pad_top);
        s.pad_bottom = static_cast<unsigned>(b.pad_bottom);
        uint64_t col_in = 0;  // the tile's first input column's word in a row
        if (!cols.empty()) {
          const RowBand& col = cols[c / slices.size()];
          s.width = static_cast<unsigned>(col.in_rows);
          s.pad_left = static_cast<unsigned>(col.pad_top);
          s.pad_right = static_cast<unsigned>(col.pad_bottom);
          col_in = static_cast<uint64_t>(col.in_first) * t.in_pixel_stride;
          at[1] += col_in;
          at[3] += static_cast<uint64_t>(col.out_first) * t.out_pixel_stride;
        }
        s.a_base = t_.planar_address(static_cast<unsigned>(at[0]), at[1]);
        s.out_base = t_.planar_address(static_cast<unsigned>(at[2]), at[3]);
        if (y) {  // add: 1 x 1, the same rows (and columns) of the second input
          const uint64_t from = (static_cast<uint64_t>(b.image) * static_cast<uint64_t>(y->h) +
                                 static_cast<uint64_t>(b.in_first)) *
                                t.in_row_stride;
          const uint64_t words = static_cast<uint64_t>(b.in_rows) * t.in_row_stride;
          uint64_t at_y = t_.planar_address(y->buf, y->base + from);
          if (plan.in2) {  // in memory: its rows in their staging area, loaded first (below)
            at_y = t_.planar_address(plan.in2->buf, plan.in2->base);
            if (c == 0) load_rows_of(i, *plan.in2, *y->mem + from * per, words);
          }
          task_.region[2] = at_y;
          task_.region[3] = words;
          s.b_base = at_y + col_in;
        }
        narrow(s, slice, y.has_value());
        if (const std::string why = golden::planar_refusal(t_.d.planar, s); !why.empty()) {
          throw t_.error(i, fmt::format("the planar engine cannot run its band of output rows {} "
                                        "to {}{}: {}",
                                        b.out_first, b.out_first + b.out_rows - 1,
                                        columns_text(cols, c / slices.size()), why));
        }
        const uint32_t base = planar_group_base();
        for (const golden::planar_csr::Write& w : golden::planar_csr::task_writes(s)) {
          apb_write(base + w.offset, w.value);
        }
        ++planar_;
        ++pl.tasks;
        g_.tasks.push_back(std::move(task_));
      }
    }
  }

  void neural(const Node& node) {
    const size_t i = node.layer;
    const golden::net::Layer& l = t_.n.layers[i];
    const ProgramTensor& x = node.x;
    const ProgramTensor& out = node.out;
    const unsigned lanes = t_.d.lanes(), tiles = t_.d.seq.tiles();
    const uint64_t k = static_cast<uint64_t>(node.conv.filters);
    ProgramLayer pl;
    pl.name = l.name;
    pl.op = l.op;
    pl.neural = true;
    pl.tasks = 0;  // counted as they are made
    task_ = LayerTask{};
    task_.op = node.info->task;
    // An output in system memory in tiles of output channels: band after band, each band's
    // tiles in turn (neural_bands).
    const bool band_major = node.banded && out.mem && node.tiles.size() > 1;
    std::vector<golden::AguLayer> placed;           // band_major: every tile's registers
    std::vector<std::function<void()>> tile_loads;  // band_major with weights by the DMA
    for (const Tile& tile : node.tiles) {
      golden::LoweredLayer low = tile.low;
      golden::AguLayer& r = low.regs;
      r.in_buf = x.mem ? 0 : x.buf, r.out_buf = 1 - r.in_buf;
      r.in_base = x.base;
      r.wgt_base = tile.wgt_base;
      r.param_base = tile.param_base;
      r.out_base = out.base + tile.k0 / lanes;
      const bool last = tile.k0 + tile.kk == k;
      if (l.vq.vector_length != 0) {
        pl.weight_bits += vq_rows(l.vq, low.weight_rows, tile.wgt_base);
      } else {
        if (t_.dma_weights && !band_major) {
          load_rows(i, golden::DmaTarget::kWeights, tile.wgt_base, low.weight_rows,
                    tile.weights_at);
        } else if (!t_.dma_weights) {
          for (size_t row = 0; row < low.weight_rows.size(); ++row) {
            host_write(HostTarget::kWeights, tile.wgt_base + row, low.weight_rows[row]);
          }
        }
        pl.weight_bits += low.weight_rows.size() * (r.dataflow == golden::Dataflow::kZeroSkip
                                                        ? uint64_t{t_.d.seq.store_row_bytes()} * 8
                                                        : uint64_t{tiles} * lanes * 8);
      }
      std::vector<std::vector<uint8_t>> groups;
      for (const auto& grp : low.params) groups.push_back(golden::param_group_bytes(t_.d.seq, grp));
      if (t_.dma_weights && band_major) {  // loaded again before the tile's task in each band
        tile_loads.emplace_back([this, i, &tile, rows = low.weight_rows, groups] {
          load_rows(i, golden::DmaTarget::kWeights, tile.wgt_base, rows, tile.weights_at);
          load_rows(i, golden::DmaTarget::kParams, tile.param_base, groups, tile.params_at);
        });
      } else if (t_.dma_weights) {
        load_rows(i, golden::DmaTarget::kParams, tile.param_base, groups, tile.params_at);
      } else {
        for (size_t grp = 0; grp < groups.size(); ++grp) {
          host_write(HostTarget::kParams, tile.param_base + grp, std::move(groups[grp]));
        }
      }
      if (band_major) {
        placed.push_back(r);
      } else if (node.banded) {
        neural_bands(node, {r}, pl, last);
      } else {
        if (t_.tasks) {  // a tile's task (the layer's when it has one tile)
          task_ = LayerTask{};
          task_.op = node.info->task;
        }
        const uint32_t base = neural_group_base();
        for (const golden::agu_csr::Write& w : golden::agu_csr::layer_writes(r)) {
          apb_write(base + w.offset, w.value);
        }
        ++neural_;
        if (t_.tasks) {
          region(0, x);
          region(4, out);
          single_task(i, x, l.inputs[0], last);
          ++pl.tasks;
        }
      }
      pl.weight_rows += low.weight_rows.size();
      if (!t_.tasks && !last) {  // the next tile's weights wait for this one
        ProgramStep w;
        w.kind = ProgramStep::Kind::kWaitSeqDone;
        w.count = neural_;
        g_.steps.push_back(std::move(w));
      }
    }
    if (band_major) neural_bands(node, placed, pl, true, tile_loads);
    if (pl.tasks == 0) pl.tasks = 1;  // sequenced by the host
    wait_and_mark(ProgramStep::Kind::kWaitSeqDone, neural_, i);
    finish(node, pl);
  }

  void planar(const Node& node) {
    const size_t i = node.layer;
    const golden::net::Layer& l = t_.n.layers[i];
    const ProgramTensor& x = node.x;
    const ProgramTensor& out = node.out;
    const unsigned lanes = t_.d.lanes();
    golden::PlanarTask t = node.task;
    t.a_base = t_.planar_address(x.buf, x.base);
    t.out_base = t_.planar_address(out.buf, out.base);
    const bool add = node.info->op == golden::net::Op::kAdd;
    const ProgramTensor& y = g_.tensors[l.inputs.size() > 1 ? l.inputs[1] : l.inputs[0]];
    if (add) t.b_base = t_.planar_address(y.buf, y.base);
    // The gain table: a row of L channels a write (or a load of the rows by the DMA).
    std::vector<std::vector<uint8_t>> gain_rows;
    for (unsigned row = 0; row * lanes < node.gains.size(); ++row) {
      std::vector<uint8_t> data(t_.host_bytes, 0);
      for (unsigned ln = 0; ln < lanes && row * lanes + ln < node.gains.size(); ++ln) {
        const golden::PlanarGain& gn = node.gains[row * lanes + ln];
        golden::put_bits(data, golden::gain_bias_lsb(lanes, ln), 32,
                         static_cast<uint32_t>(gn.bias));
        golden::put_bits(data, golden::gain_multiplier_lsb(lanes, ln), 32,
                         static_cast<uint32_t>(gn.multiplier));
        golden::put_bits(
            data, golden::gain_shift_lsb(lanes, ln), golden::PlanarParams::kShiftBits,
            static_cast<uint32_t>(gn.shift) & ((1U << golden::PlanarParams::kShiftBits) - 1));
      }
      gain_rows.push_back(std::move(data));
    }
    if (t_.dma_weights) {
      load_rows(i, golden::DmaTarget::kGains, 0, gain_rows, node.gains_at);
    } else {
      for (size_t row = 0; row < gain_rows.size(); ++row) {
        host_write(HostTarget::kPlanarGains, row, std::move(gain_rows[row]));
      }
    }
    ProgramLayer pl;
    pl.name = l.name;
    pl.op = l.op;
    pl.neural = false;
    if (runs_as_copies(node.info->op)) {
      copies(node, t, pl);
    } else if (node.banded) {
      planar_bands(node, add ? std::optional<ProgramTensor>(y) : std::nullopt, t, pl);
    } else {
      // One task, or one a slice of its channels (each reads and writes its words of every
      // pixel; the regions are the tensors').
      const auto slices = channel_slices(i, t);
      for (size_t s = 0; s < slices.size(); ++s) {
        task_ = LayerTask{};
        task_.op = node.info->task;
        region(0, x);
        if (add) region(2, y);
        region(4, out);
        golden::PlanarTask part = t;
        narrow(part, slices[s], add);
        const uint32_t base = planar_group_base();
        for (const golden::planar_csr::Write& w : golden::planar_csr::task_writes(part)) {
          apb_write(base + w.offset, w.value);
        }
        ++planar_;
        if (t_.tasks) single_task(i, x, l.inputs[0], s + 1 == slices.size());
      }
      pl.tasks = slices.size();
    }
    wait_and_mark(ProgramStep::Kind::kWaitPlanarDone, planar_, i);
    finish(node, pl);
  }

  // A concat or a resize: its copies (copy_parts), a task each, in order. The host waits
  // for a register group before a third task (a write to an enabled group is refused).
  void copies(const Node& node, const golden::PlanarTask& t, ProgramLayer& pl) {
    const size_t i = node.layer;
    const golden::net::Layer& l = t_.n.layers[i];
    const auto parts = copy_parts(t_.n, i, t, t_.d.lanes());
    for (size_t k = 0; k < parts.size(); ++k) {
      // The input where it is when the layer runs (allocate's record; a later layer may move
      // the network's input to memory).
      const ProgramTensor& x = node.inputs.at(parts[k].input);
      task_ = LayerTask{};
      task_.op = node.info->task;
      region(0, x);
      region(4, node.out);
      golden::PlanarTask part = parts[k].task;
      part.a_base = t_.planar_address(x.buf, x.base);
      part.out_base = t.out_base + parts[k].out_offset;
      part.out_pixel_stride = parts[k].pixel_stride;
      part.out_row_stride = parts[k].row_stride;
      part.out_image_stride = parts[k].image_stride;
      if (!t_.tasks && k >= 2) {
        ProgramStep w;
        w.kind = ProgramStep::Kind::kWaitPlanarDone;
        w.count = planar_ - 1;
        g_.steps.push_back(std::move(w));
      }
      const uint32_t base = planar_group_base();
      for (const golden::planar_csr::Write& w : golden::planar_csr::task_writes(part)) {
        apb_write(base + w.offset, w.value);
      }
      ++planar_;
      if (t_.tasks) single_task(i, x, l.inputs[parts[k].input], k + 1 == parts.size());
    }
    pl.tasks = parts.size();
  }

  // The program's record of the layer: where its output is, its work and its bound.
  void finish(const Node& node, ProgramLayer& pl) {
    const golden::net::Layer& l = t_.n.layers[node.layer];
    std::vector<golden::net::Shape> in;
    for (const size_t x : l.inputs) in.push_back(t_.n.shape_of(x));
    pl.out = node.out;
    pl.macs = static_cast<uint64_t>(t_.batch) * node.info->macs(l, in);
    pl.mapping_bound = node.mapping_bound;
    pl.zs_steps = node.zs_steps;
    g_.layers.push_back(std::move(pl));
  }

  const Target& t_;
  Graph& g_;
  LayerTask task_;                    ///< the task being made
  uint64_t neural_ = 0, planar_ = 0;  ///< tasks programmed on each engine
  bool input_loaded_ = false;         ///< the input reader's first task loads it
};

}  // namespace

void lower(const Target& t, Graph& g) { Lowering(t, g).run(); }

}  // namespace npugen::compiler
