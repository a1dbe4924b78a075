// allocate (passes.hpp): every tensor placed in an activation buffer, or with row bands in
// system memory, in list order with live ranges; the staging areas of banded layers; the
// DMA's data area (the input, the loads of rows, the tensors kept in memory, the output).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "npugen/compiler/row_bands.hpp"
#include "passes.hpp"

namespace npugen::compiler {
namespace {

using golden::ProgramTensor;

const char* buffer_name(unsigned b) { return b == 0 ? "A" : "B"; }

std::string shape_text(const ProgramTensor& t) {
  return fmt::format("{}x{}x{}x{}", t.n, t.h, t.w, t.c);
}

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

class Allocator {
 public:
  Allocator(const Target& t, Graph& g) : t_(t), g_(g), buffers_(t.d.act_words(), t.tasks) {}

  void run() {
    const size_t tensors = g_.tensors.size();
    live_.assign(tensors, false);
    g_.writer.assign(tensors, std::nullopt);
    ProgramTensor& in = g_.tensors[0];
    const uint64_t words = in.words(t_.d.lanes());
    // The input goes through the DMA when one layer reads it (its descriptor loads it whole)
    // or when it does not fit buffer A (its readers' bands load it).
    // (legalize refused an input above buffer A without row bands.)
    if (words <= t_.d.act_words()) buffers_.take(0, 0, words);
    if (t_.dma && (g_.input_reader || words > t_.d.act_words())) g_.input_at = take_data(words);
    if (words > t_.d.act_words()) in.mem = g_.input_at;
    hold(0);
    for (Node& node : g_.nodes) {
      const golden::net::Layer& l = t_.n.layers[node.layer];
      if (node.info->neural) {
        neural(node);
      } else {
        planar(node);
      }
      // The inputs whose last reader this was, and an output nobody reads (but the network's
      // outputs, which stay to the end).
      for (const size_t x : l.inputs) {
        if (g_.last_use[x] == node.layer && !g_.is_output[x] && live_[x]) {
          if (!g_.tensors[x].mem) buffers_.free(g_.tensors[x].buf, g_.tensors[x].base);
          live_[x] = false;
        }
      }
      hold(node.layer + 1);
    }
  }

 private:
  // Tensor x has its space: held until its last reader has run, released at once when no
  // layer reads it (but the network's outputs).
  void hold(size_t x) {
    live_[x] = true;
    if (!g_.last_use[x] && !g_.is_output[x]) {
      if (!g_.tensors[x].mem) buffers_.free(g_.tensors[x].buf, g_.tensors[x].base);
      live_[x] = false;
    }
  }

  // `words` buffer words of the data area (data-area addresses until encode places it).
  uint64_t take_data(uint64_t words) {
    const uint64_t at = g_.data.size();
    g_.data.resize(at + words * golden::dma_words_per_buffer_word(t_.d.lanes()), 0);
    return at;
  }
  // `rows` rows of `target` loaded by the DMA (DmaRows::words(target) memory words each);
  // nothing for no rows.
  std::optional<uint64_t> take_rows(golden::DmaTarget target, uint64_t rows) {
    if (rows == 0) return std::nullopt;
    const uint64_t at = g_.data.size();
    g_.data.resize(at + rows * t_.d.dma_rows().words(target), 0);
    return at;
  }

  // Places layer i's output in buffer `buf`, or (planar, or over an input in memory) the
  // other one; with row bands, in system memory when it fits neither.
  void place(size_t i, ProgramTensor& out, unsigned buf, bool either) {
    const uint64_t words = out.words(t_.d.lanes());
    for (const unsigned b : {buf, 1 - buf}) {
      if (const auto base = buffers_.fit(b, words)) {
        out.buf = b, out.base = *base;
        buffers_.take(b, *base, words);
        return;
      }
      if (!either) break;
    }
    if (t_.bands) {
      out.mem = take_data(words);
      return;
    }
    std::string where = fmt::format("buffer {} ({} words, {} in use", buffer_name(buf),
                                    t_.d.act_words(), buffers_.used(buf));
    if (either) {
      where += fmt::format("; buffer {}: {} in use", buffer_name(1 - buf), buffers_.used(1 - buf));
    }
    throw t_.error(i, fmt::format("its output ({}, {} words) does not fit {}; agu.act_words){}",
                                  shape_text(out), words, where, t_.band_hint()));
  }

  // A banded layer's input that is the network's input, to be loaded whole by this layer's
  // descriptor, stays in memory instead: its bands load their rows.
  void input_to_memory(ProgramTensor& x, size_t tensor) {
    if (tensor != 0 || x.mem || !g_.input_at) return;
    buffers_.free(x.buf, x.base);
    x.mem = g_.input_at;
    g_.tensors[0].mem = g_.input_at;
  }

  // With the DMA, a network output also goes to memory: to its output area, or where the
  // tensor already is in memory.
  void output_area(size_t i, const ProgramTensor& out) {
    if (!t_.dma || !g_.is_output[i + 1]) return;
    g_.output_at[i] = out.mem ? *out.mem : take_data(out.words(t_.d.lanes()));
  }

  ProgramTensor output_of(const Node& node) const {
    const golden::net::Shape& s = t_.n.layers[node.layer].out;
    ProgramTensor out;
    out.n = t_.batch, out.h = s.h, out.w = s.w, out.c = s.c;
    return out;
  }

  void neural(Node& node) {
    const size_t i = node.layer;
    const golden::net::Layer& l = t_.n.layers[i];
    ProgramTensor x = g_.tensors[l.inputs[0]];
    ProgramTensor out = output_of(node);
    place(i, out, x.mem ? 0 : 1 - x.buf, x.mem.has_value());
    const golden::AguLayer& r = node.tiles.front().low.regs;
    const golden::AguParams& agu = t_.d.seq.agu;
    node.banded = x.mem || out.mem || t_.beyond(r.height, r.width, agu.max_height, agu.max_width);
    if (node.banded) input_to_memory(x, l.inputs[0]);
    output_area(i, out);
    if (t_.dma_weights) {
      for (Tile& tile : node.tiles) {
        tile.weights_at = take_rows(golden::DmaTarget::kWeights, tile.low.weight_rows.size());
        tile.params_at = take_rows(golden::DmaTarget::kParams, tile.low.params.size());
      }
    }
    if (node.banded) {
      const auto [geo, cols] = neural_geometry(r);
      node.plan = plan_bands(i, x, out, geo, uint64_t{r.width} * r.channel_words(t_.d.lanes()),
                             r.out_row_stride, true, agu.max_height, "agu.max_height");
      node.plan.cols = column_tiles(i, cols, agu.max_width, "agu.max_width");
      if (node.plan.out) g_.writer[i + 1] = node.plan.out;
    }
    node.x = x;
    node.out = out;
    g_.tensors[i + 1] = out;
  }

  void planar(Node& node) {
    const size_t i = node.layer;
    const golden::net::Layer& l = t_.n.layers[i];
    const unsigned lanes = t_.d.lanes();
    ProgramTensor x = g_.tensors[l.inputs[0]];
    ProgramTensor out = output_of(node);
    place(i, out, x.mem ? 0 : 1 - x.buf, true);
    const bool add = node.info->op == golden::net::Op::kAdd;
    golden::PlanarTask& t = node.task;
    const golden::PlanarParams& pp = t_.d.planar;
    node.banded = x.mem || out.mem || (add && l.inputs.size() > 1 && g_.tensors[l.inputs[1]].mem) ||
                  t_.beyond(t.height, t.width, pp.max_height, pp.max_width);
    if (runs_as_copies(node.info->op)) {  // concat, resize: copies run whole, in the buffers
      for (const size_t y : l.inputs) {
        if (g_.tensors[y].mem) {
          throw t_.error(i, fmt::format("its input {} is kept in system memory (above a "
                                        "buffer): a {} of tensors in memory is not mapped yet",
                                        y == 0 ? std::string("(the network's input)")
                                               : t_.n.layers[y - 1].name,
                                        golden::net::op_name(l.op)));
        }
      }
      if (out.mem) {
        throw t_.error(
            i, fmt::format("its output ({}, {} words) fits neither buffer beside the "
                           "tensors in use (agu.act_words {} each: A {}, B {} in use), "
                           "so it would be kept in system memory: a {} into system "
                           "memory is not mapped yet",
                           shape_text(out), out.words(lanes), t_.d.act_words(), buffers_.used(0),
                           buffers_.used(1), golden::net::op_name(l.op)));
      }
      node.banded = false;
    }
    if (node.banded) input_to_memory(x, l.inputs[0]);
    output_area(i, out);
    t.out_pixel_stride = (static_cast<uint64_t>(out.c) + lanes - 1) / lanes;
    t.out_row_stride = t.out_pixel_stride * t.out_width();
    t.out_image_stride = t.out_row_stride * t.out_height();
    if (t_.dma_weights) {
      node.gains_at = take_rows(golden::DmaTarget::kGains, (node.gains.size() + lanes - 1) / lanes);
    }
    if (node.banded) {
      const auto [geo, cols] = planar_geometry(t);
      const ProgramTensor& y = g_.tensors[l.inputs.size() > 1 ? l.inputs[1] : l.inputs[0]];
      node.plan = plan_bands(i, x, out, geo, t.in_row_stride, t.out_row_stride, false,
                             pp.max_height, "planar.max_height", add && y.mem ? &y : nullptr);
      node.plan.cols = column_tiles(i, cols, pp.max_width, "planar.max_width");
      if (node.plan.out) g_.writer[i + 1] = node.plan.out;
    }
    node.x = x;
    for (const size_t y : l.inputs) node.inputs.push_back(y == l.inputs[0] ? x : g_.tensors[y]);
    node.out = out;
    g_.tensors[i + 1] = out;
  }

  // The output columns of a tile of columns of layer i (geometry `cols` along its width):
  // the most whose input columns the engine's width register (`max_cols`, `key`) takes; 0
  // when the layer's width fits (one tile, its own registers).
  int column_tiles(size_t i, const BandGeometry& cols, unsigned max_cols, const char* key) const {
    if (cols.height <= static_cast<int>(max_cols)) return 0;
    int n = 0;
    while (n < cols.out_height && band_input_rows(cols, n + 1) <= static_cast<int>(max_cols)) ++n;
    if (n == 0) {
      throw t_.error(i, fmt::format("a tile of one output column reads {} input columns, above "
                                    "{} ({})",
                                    band_input_rows(cols, 1), max_cols, key));
    }
    return n;
  }

  // The band height and staging areas of layer i (input x, output out): the tallest bands
  // whose staging areas fit, over the buffers the engine may use (the sequencer reads one
  // buffer and writes the other).
  BandPlan plan_bands(size_t i, const ProgramTensor& x, const ProgramTensor& out,
                      const BandGeometry& geo, uint64_t in_row_words, uint64_t out_row_words,
                      bool neural, unsigned max_rows, const char* rows_key,
                      const ProgramTensor* y = nullptr) {
    // The most output rows whose input rows the engine's height register takes.
    int engine_rows = 0;
    while (engine_rows < geo.out_height &&
           band_input_rows(geo, engine_rows + 1) <= static_cast<int>(max_rows)) {
      ++engine_rows;
    }
    if (engine_rows == 0) {
      throw t_.error(i, fmt::format("a band of one output row reads {} input rows, above {} "
                                    "({})",
                                    band_input_rows(geo, 1), max_rows, rows_key));
    }
    BandPlan best;
    for (const unsigned bin : {0U, 1U}) {
      for (const unsigned bout : {0U, 1U}) {
        if ((!x.mem && bin != 0) || (!out.mem && bout != 0)) continue;  // no staging: once
        const unsigned reads = x.mem ? bin : x.buf, writes = out.mem ? bout : out.buf;
        if (neural && reads == writes) continue;
        auto areas = [&](int rows) -> std::optional<BandPlan> {
          BandPlan p;
          p.rows = rows;
          const uint64_t win = x.mem ? band_input_rows(geo, rows) * in_row_words : 0;
          const uint64_t wout = out.mem ? static_cast<uint64_t>(rows) * out_row_words : 0;
          if (x.mem && out.mem && bin == bout) {
            const auto at = buffers_.fit(bin, win + wout);
            if (!at) return std::nullopt;
            p.in = Staging{bin, *at, win};
            p.out = Staging{bout, *at + win, wout};
          } else {
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
          }
          if (y != nullptr) {  // an add's second input in memory: its rows beside the others
            Buffers trial = buffers_;
            for (const auto& a : {p.in, p.out}) {
              if (a) trial.take(a->buf, a->base, a->words);
            }
            const uint64_t wy = band_input_rows(geo, rows) * in_row_words;
            for (const unsigned b : {1U - bin, bin}) {
              if (const auto at = trial.fit(b, wy)) {
                p.in2 = Staging{b, *at, wy};
                break;
              }
            }
            if (!p.in2) return std::nullopt;
          }
          return p;
        };
        int lo = 0, hi = engine_rows;  // the most rows that fit: in [lo, hi]
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
      throw t_.error(
          i, fmt::format("its {} is in system memory (it does not fit a buffer), and the staging "
                         "area of a band of one output row ({} input rows of {} words, {} output "
                         "words) does not fit the buffers beside the tensors in use (A: {} of {} "
                         "words, B: {}; agu.act_words)",
                         x.mem && out.mem ? "input and output"
                         : x.mem          ? "input"
                         : out.mem        ? "output"
                                          : "second input",
                         x.mem || y != nullptr ? band_input_rows(geo, 1) : 0, in_row_words,
                         out.mem ? out_row_words : 0, buffers_.used(0), t_.d.act_words(),
                         buffers_.used(1)));
    }
    // The areas are the layer's while its bands run, then free for the layers after it (the
    // task unit orders a later writer of those words after the bands); next fit resumes after
    // them.
    for (const auto& a : {best.in, best.out, best.in2}) {
      if (a) buffers_.take(a->buf, a->base, a->words);
    }
    for (const auto& a : {best.in, best.out, best.in2}) {
      if (a) buffers_.free(a->buf, a->base);
    }
    return best;
  }

  const Target& t_;
  Graph& g_;
  Buffers buffers_;
  std::vector<bool> live_;  ///< per tensor: its space is held
};

}  // namespace

void allocate(const Target& t, Graph& g) { Allocator(t, g).run(); }

}  // namespace npugen::compiler
