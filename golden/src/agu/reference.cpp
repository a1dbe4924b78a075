#include "npugen/golden/agu/reference.hpp"

#include <algorithm>
#include <set>

namespace npugen::golden {
namespace {

uint64_t wrap(int64_t value, unsigned bits) {
  return static_cast<uint64_t>(value) & ((bits >= 64 ? 0 : uint64_t{1} << bits) - 1);
}

/// The fc_batch order: every image's feature words into its tile's cache, then for each
/// neuron z (filter block kb, neuron j of it) its weight words, broadcast.
std::vector<AddressSet> fc_batch_reference(const AguParams& p, const AguLayer& l, unsigned group) {
  std::vector<AddressSet> out;
  const int64_t cw = (l.channels + p.lanes - 1) / p.lanes;
  const int64_t blocks = (l.filters + p.tiles - 1) / p.tiles;
  const SetLayer layer = SetLayer::of(l);
  for (int64_t n = 0; n < l.batch; ++n) {
    for (int64_t cb = 0; cb < cw; ++cb) {
      AddressSet s;
      s.act_addr =
          wrap(static_cast<int64_t>(l.in_base) + n * static_cast<int64_t>(l.in_image_stride) + cb,
               p.act_addr_bits());
      s.wrow = wrap(static_cast<int64_t>(l.wgt_base) + cb, p.weight_addr_bits());
      s.first = cb == 0, s.last = cb == cw - 1;
      s.out_addr =
          wrap(static_cast<int64_t>(l.out_base) + n * static_cast<int64_t>(l.out_pixel_stride),
               p.act_addr_bits());
      s.filters = l.batch, s.tile = static_cast<unsigned>(n), s.load = true;
      s.layer_first = n == 0 && cb == 0;
      s.group = group, s.layer = layer;
      out.push_back(s);
    }
  }
  for (int64_t kb = 0; kb < blocks; ++kb) {
    const int64_t neurons = std::min<int64_t>(p.tiles, l.filters - kb * p.tiles);
    for (int64_t j = 0; j < neurons; ++j) {
      for (int64_t cb = 0; cb < cw; ++cb) {
        const int64_t z = kb * p.tiles + j;
        AddressSet s;
        s.act_addr =
            wrap(static_cast<int64_t>(l.in_base) + j * static_cast<int64_t>(l.in_image_stride) + cb,
                 p.act_addr_bits());
        s.wrow = wrap(static_cast<int64_t>(l.wgt_base) + kb * cw + cb, p.weight_addr_bits());
        s.first = cb == 0, s.last = cb == cw - 1;
        s.out_addr = wrap(static_cast<int64_t>(l.out_base) + z / p.lanes, p.act_addr_bits());
        s.out_lane = static_cast<unsigned>(z % p.lanes);
        s.filters = l.batch, s.tile = static_cast<unsigned>(j);
        s.block_first = j == 0 && cb == 0;
        s.block_last = kb == blocks - 1;
        s.group = group, s.layer = layer;
        out.push_back(s);
      }
    }
  }
  if (!out.empty()) out.back().layer_end = true;
  return out;
}

}  // namespace

std::vector<AddressSet> im2col_reference(const AguParams& p, const AguLayer& l, unsigned group) {
  if (l.dataflow == Dataflow::kFcBatch) return fc_batch_reference(p, l, group);
  std::vector<AddressSet> out;
  const int64_t oh_count = l.out_height(), ow_count = l.out_width();
  const int64_t cw = (l.channels + p.lanes - 1) / p.lanes;
  const int64_t blocks = (l.filters + p.tiles - 1) / p.tiles;
  const bool mec = l.order == Order::kMec;
  const SetLayer layer = SetLayer::of(l);
  // The output pixels in order: row by row (im2col) or column by column (MEC).
  std::vector<std::pair<int64_t, int64_t>> pixels;
  for (int64_t outer = 0; outer < (mec ? ow_count : oh_count); ++outer) {
    for (int64_t inner = 0; inner < (mec ? oh_count : ow_count); ++inner) {
      pixels.emplace_back(mec ? inner : outer, mec ? outer : inner);
    }
  }
  for (int64_t kb = 0; kb < blocks; ++kb) {
    for (int64_t n = 0; n < l.batch; ++n) {
      // MEC: the window is a ring of slots, one a set; a column starts at slot 0, and each
      // pixel below starts where the pixel above read its kernel row SY (the first row the
      // two share), or after the pixel above when they share none.
      int64_t slot = 0, shared_start = 0;
      for (const auto& [oh, ow] : pixels) {
        if (mec && oh == 0) slot = 0;
        if (mec && oh > 0 && l.stride_y < l.kernel_h) slot = shared_start;
        for (int64_t kh = 0; kh < l.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < l.kernel_w; ++kw) {
            for (int64_t cb = 0; cb < cw; ++cb) {
              const int64_t ih = oh * l.stride_y + kh - l.pad_top;
              const int64_t iw = ow * l.stride_x + kw - l.pad_left;
              AddressSet s;
              s.pad = ih < 0 || ih >= l.height || iw < 0 || iw >= l.width;
              if (!s.pad) {
                s.act_addr = wrap(static_cast<int64_t>(l.in_base) +
                                      n * static_cast<int64_t>(l.in_image_stride) +
                                      ih * static_cast<int64_t>(l.in_row_stride) +
                                      iw * static_cast<int64_t>(l.in_pixel_stride) + cb,
                                  p.act_addr_bits());
              }
              if (mec) {
                if (kh == l.stride_y && kw == 0 && cb == 0) shared_start = slot;
                s.win = static_cast<unsigned>(slot);
                s.reuse = oh > 0 && kh + l.stride_y < l.kernel_h;
                slot = (slot + 1) % p.mec_window;
              }
              s.wrow = wrap(static_cast<int64_t>(l.wgt_base) + kb * l.kernel_h * l.kernel_w * cw +
                                (kh * l.kernel_w + kw) * cw + cb,
                            p.weight_addr_bits());
              s.first = kh == 0 && kw == 0 && cb == 0;
              s.last = kh == l.kernel_h - 1 && kw == l.kernel_w - 1 && cb == cw - 1;
              // NHWC: filter f of pixel (n, oh, ow) is element f of the pixel's words; rows
              // OUT_ROW_STRIDE apart, images OH rows apart.
              const int64_t filter = kb * p.tiles;
              s.out_addr =
                  wrap(static_cast<int64_t>(l.out_base) +
                           (n * oh_count + oh) * static_cast<int64_t>(l.out_row_stride) +
                           ow * static_cast<int64_t>(l.out_pixel_stride) + filter / p.lanes,
                       p.act_addr_bits());
              s.out_lane = static_cast<unsigned>(filter % p.lanes);
              s.filters =
                  static_cast<unsigned>(std::min<int64_t>(p.tiles, l.filters - kb * p.tiles));
              s.layer_first =
                  kb == 0 && n == 0 && oh == 0 && ow == 0 && kh == 0 && kw == 0 && cb == 0;
              s.block_first = n == 0 && oh == 0 && ow == 0 && kh == 0 && kw == 0 && cb == 0;
              s.block_last = kb == blocks - 1;
              s.group = group;
              s.layer = layer;
              out.push_back(s);
            }
          }
        }
      }
    }
  }
  if (!out.empty()) out.back().layer_end = true;
  return out;
}

ActivationTraffic activation_traffic(const AguParams& p, const AguLayer& l) {
  ActivationTraffic t;
  std::set<uint64_t> touched;
  const int64_t cw = (l.channels + p.lanes - 1) / p.lanes;
  for (int64_t n = 0; n < l.batch; ++n) {
    for (int64_t oh = 0; oh < l.out_height(); ++oh) {
      for (int64_t ow = 0; ow < l.out_width(); ++ow) {
        for (int64_t kh = 0; kh < l.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < l.kernel_w; ++kw) {
            for (int64_t cb = 0; cb < cw; ++cb) {
              ++t.materialised;
              const int64_t ih = oh * l.stride_y + kh - l.pad_top;
              const int64_t iw = ow * l.stride_x + kw - l.pad_left;
              if (ih < 0 || ih >= l.height || iw < 0 || iw >= l.width) continue;
              ++t.read;
              // MEC: the rows a pixel shares with the pixel above come from the window.
              if (!(oh > 0 && kh + l.stride_y < l.kernel_h)) ++t.mec_read;
              touched.insert(static_cast<uint64_t>(((n * l.height + ih) * l.width + iw) * cw + cb));
            }
          }
        }
      }
    }
  }
  t.touched = touched.size();
  return t;
}

}  // namespace npugen::golden
