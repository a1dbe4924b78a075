#include "npugen/golden/sequencer/lowering.hpp"

#include <algorithm>
#include <stdexcept>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/zs/schedule.hpp"

namespace npugen::golden {

std::vector<std::vector<uint8_t>> tensor_words(const reference::Tensor& t, unsigned lanes) {
  const unsigned words = (static_cast<unsigned>(t.c) + lanes - 1) / lanes;
  const size_t pixels = static_cast<size_t>(t.n) * t.h * t.w;
  std::vector<std::vector<uint8_t>> out(pixels * words, std::vector<uint8_t>(lanes, 0));
  for (size_t px = 0; px < pixels; ++px) {
    for (int ch = 0; ch < t.c; ++ch) {
      out[px * words + static_cast<unsigned>(ch) / lanes][static_cast<unsigned>(ch) % lanes] =
          static_cast<uint8_t>(t.data[px * static_cast<size_t>(t.c) + static_cast<size_t>(ch)]);
    }
  }
  return out;
}

std::vector<uint8_t> param_group_bytes(const SequencerDesign& d,
                                       const std::vector<PostChannel>& group) {
  std::vector<uint8_t> out((d.mem_data_bits() + 7) / 8, 0);
  const unsigned p = d.post.lanes;
  for (unsigned l = 0; l < p; ++l) {
    put_bits(out, param_bias_lsb(p, l), 32, static_cast<uint32_t>(group[l].bias));
    put_bits(out, param_multiplier_lsb(p, l), 32, static_cast<uint32_t>(group[l].multiplier));
    put_bits(out, param_shift_lsb(p, l), PostParams::kShiftBits,
             static_cast<uint32_t>(group[l].shift) & ((1U << PostParams::kShiftBits) - 1));
  }
  return out;
}

namespace {

// The dense rows of each filter block become its preprocessed steps (store rows).
void zero_skip_rows(const SequencerDesign& d, LoweredLayer& out, unsigned k) {
  if (!d.zs) throw std::invalid_argument("zero_skip needs the zero-skipping array (zs)");
  const ZeroSkipParams& zp = *d.zs;
  const unsigned tiles = d.tiles(), lanes = d.lanes();
  const uint64_t rows = out.dense_rows;
  if (rows > d.zs_slot_rows()) {
    throw std::invalid_argument(
        "a pixel window of " + std::to_string(rows) +
        " words exceeds a staging slot, zs.max_rows / 3 = " + std::to_string(d.zs_slot_rows()));
  }
  const ControlLayout layout = ControlLayout::of(zp);
  const unsigned blocks = (k + tiles - 1) / tiles;
  std::vector<std::vector<uint8_t>> steps;
  for (unsigned kb = 0; kb < blocks; ++kb) {
    HierTensor t;
    t.extents = {lanes, tiles};
    t.rows = static_cast<unsigned>(rows);
    t.values.assign(size_t{tiles} * rows * lanes, 0);
    for (unsigned tile = 0; tile < tiles; ++tile) {
      for (uint64_t r = 0; r < rows; ++r) {
        for (unsigned l = 0; l < lanes; ++l) {
          t.values[(tile * rows + r) * lanes + l] =
              static_cast<int8_t>(out.weight_rows[kb * rows + r][size_t{tile} * lanes + l]);
        }
      }
    }
    const HierSchedule s = preprocess(t, zp.levels());
    const auto problems = check_schedule(t, zp.levels(), s);
    if (!problems.empty()) {
      throw std::logic_error("zero-skip preprocessing broke its contract: " + problems.front());
    }
    const unsigned filters = std::min(tiles, k - kb * tiles);
    const auto stream = step_stream(zp, s);
    for (size_t i = 0; i < stream.size(); ++i) {
      std::vector<uint8_t> row(d.store_row_bytes(), 0);
      for (size_t w = 0; w < stream[i].weights.size(); ++w) {
        row[w] = static_cast<uint8_t>(stream[i].weights[w]);
      }
      const auto ctrl = pack_control(layout, stream[i].control);
      for (unsigned b = 0; b < layout.width(); ++b) {
        put_bits(row, d.zs_ctrl_lsb() + b, 1, (ctrl[b / 32] >> (b % 32)) & 1U);
      }
      put_bits(row, d.zs_filters_lsb(), d.agu.filters_bits(), filters);
      put_bits(row, d.zs_end_bit(), 1, kb + 1 == blocks && i + 1 == stream.size() ? 1 : 0);
      steps.push_back(std::move(row));
    }
  }
  out.weight_rows = std::move(steps);
  out.regs.filters = std::min(k, tiles);
}

}  // namespace

LoweredLayer lower_layer(const SequencerDesign& d, Dataflow flow, const reference::Tensor& in,
                         const reference::ConvLayer& l, const LayerPlacement& at) {
  const unsigned tiles = d.tiles(), lanes = d.lanes(), p = d.post.lanes;
  const auto words_of = [&](unsigned c) { return (c + lanes - 1) / lanes; };
  const unsigned in_words = words_of(static_cast<unsigned>(in.c));
  const auto k = static_cast<unsigned>(l.filters);
  LoweredLayer out;
  AguLayer& r = out.regs;
  // The layer as the array sees it: a convolution, or a 1 x 1 one over the flattened input
  // (channels: every word of the image, lanes beyond C included).
  const bool flat = flow == Dataflow::kFc || flow == Dataflow::kFcBatch;
  const unsigned h = flat ? 1 : static_cast<unsigned>(in.h);
  const unsigned w = flat ? 1 : static_cast<unsigned>(in.w);
  const unsigned cw = flat ? static_cast<unsigned>(in.h * in.w) * in_words : in_words;
  const unsigned c = flat ? cw * lanes : static_cast<unsigned>(in.c);
  const unsigned kh = flat ? 1 : static_cast<unsigned>(l.kernel_h);
  const unsigned kw = flat ? 1 : static_cast<unsigned>(l.kernel_w);
  if (flat && (l.kernel_h != in.h || l.kernel_w != in.w || l.stride_y != 1 || l.stride_x != 1 ||
               l.pad_top + l.pad_bottom + l.pad_left + l.pad_right != 0)) {
    // A fully connected layer: weights [K][H*W*C] given as a kernel over the whole input.
    throw std::invalid_argument("a fully connected layer's kernel covers its whole input");
  }
  r = AguLayer::dense(
      d.agu, h, w, c, static_cast<unsigned>(in.n), k, kh, kw,
      flat ? 1 : static_cast<unsigned>(l.stride_y), flat ? 1 : static_cast<unsigned>(l.stride_x),
      flat ? 0 : static_cast<unsigned>(l.pad_top), flat ? 0 : static_cast<unsigned>(l.pad_bottom),
      flat ? 0 : static_cast<unsigned>(l.pad_left), flat ? 0 : static_cast<unsigned>(l.pad_right),
      at.in_base, at.wgt_base, at.out_base);
  r.in_pixel_stride = in_words;
  r.in_row_stride = in_words * static_cast<unsigned>(in.w);
  r.in_image_stride = in_words * static_cast<unsigned>(in.w * in.h);
  r.dataflow = flow;
  r.in_buf = at.in_buf, r.out_buf = at.out_buf;
  r.pad_value = l.input_zero_point;
  r.param_base = at.param_base;
  const Requant& first = l.output.front();
  r.zero_point = first.zero_point, r.act_min = first.act_min, r.act_max = first.act_max;
  for (const Requant& q : l.output) {
    if (q.zero_point != first.zero_point || q.act_min != first.act_min ||
        q.act_max != first.act_max) {
      throw std::invalid_argument("the output zero point and clamp differ between channels");
    }
  }

  // Weights: filter f, kernel position (y, x), channel ch of the layer; in the flattened
  // case (y, x) is the input pixel and the lanes beyond C stay 0.
  const unsigned blocks = (k + tiles - 1) / tiles;
  const size_t rows_per_block = size_t{kh} * kw * cw;
  out.weight_rows.assign(blocks * rows_per_block, std::vector<uint8_t>(size_t{tiles} * lanes, 0));
  std::vector<int64_t> sums(k, 0);
  for (unsigned f = 0; f < k; ++f) {
    for (int y = 0; y < l.kernel_h; ++y) {
      for (int x = 0; x < l.kernel_w; ++x) {
        for (int ch = 0; ch < in.c; ++ch) {
          const int8_t wv =
              l.weights[((static_cast<size_t>(f) * l.kernel_h + y) * l.kernel_w + x) * in.c +
                        static_cast<size_t>(ch)];
          sums[f] += wv;
          const size_t pos = flat ? 0 : static_cast<size_t>(y) * kw + static_cast<size_t>(x);
          const size_t word = (flat ? (static_cast<size_t>(y) * in.w + x) * in_words : 0) +
                              static_cast<size_t>(ch) / lanes;
          const size_t row = (f / tiles) * rows_per_block + pos * cw + word;
          out.weight_rows[row][(f % tiles) * lanes + static_cast<size_t>(ch) % lanes] =
              static_cast<uint8_t>(wv);
        }
      }
    }
  }
  // The post unit's table: channel f in group f / P, lane f mod P.
  out.params.assign((k + p - 1) / p, std::vector<PostChannel>(p));
  for (unsigned f = 0; f < k; ++f) {
    PostChannel& ch = out.params[f / p][f % p];
    ch.bias = static_cast<int32_t>(l.bias[f] - int64_t{l.input_zero_point} * sums[f]);
    ch.multiplier = l.output[f].multiplier;
    ch.shift = l.output[f].shift;
  }
  reference::Tensor& o = out.out_shape;
  o.n = in.n;
  o.h = flat ? 1 : static_cast<int>(r.out_height());
  o.w = flat ? 1 : static_cast<int>(r.out_width());
  o.c = static_cast<int>(k);
  out.dense_rows = rows_per_block;
  if (flow == Dataflow::kZeroSkip) zero_skip_rows(d, out, k);
  return out;
}

}  // namespace npugen::golden
