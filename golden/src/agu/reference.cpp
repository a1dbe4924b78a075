#include "npugen/golden/agu/reference.hpp"

#include <set>

namespace npugen::golden {
namespace {

uint64_t wrap(int64_t value, unsigned bits) {
  return static_cast<uint64_t>(value) & ((bits >= 64 ? 0 : uint64_t{1} << bits) - 1);
}

}  // namespace

std::vector<AddressSet> im2col_reference(const AguParams& p, const AguLayer& l, unsigned group) {
  std::vector<AddressSet> out;
  const int64_t oh_count = l.out_height(), ow_count = l.out_width();
  const int64_t cw = (l.channels + p.lanes - 1) / p.lanes;
  const int64_t blocks = (l.filters + p.tiles - 1) / p.tiles;
  for (int64_t kb = 0; kb < blocks; ++kb) {
    for (int64_t n = 0; n < l.batch; ++n) {
      for (int64_t oh = 0; oh < oh_count; ++oh) {
        for (int64_t ow = 0; ow < ow_count; ++ow) {
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
                s.wrow = wrap(static_cast<int64_t>(l.wgt_base) + kb * l.kernel_h * l.kernel_w * cw +
                                  (kh * l.kernel_w + kw) * cw + cb,
                              p.weight_addr_bits());
                s.first = kh == 0 && kw == 0 && cb == 0;
                s.last = kh == l.kernel_h - 1 && kw == l.kernel_w - 1 && cb == cw - 1;
                s.out_addr = wrap(static_cast<int64_t>(l.out_base) +
                                      ((n * oh_count + oh) * ow_count + ow) *
                                          static_cast<int64_t>(l.out_pixel_stride) +
                                      kb * p.tiles,
                                  p.out_addr_bits());
                s.filters =
                    static_cast<unsigned>(std::min<int64_t>(p.tiles, l.filters - kb * p.tiles));
                s.group = group;
                out.push_back(s);
              }
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
