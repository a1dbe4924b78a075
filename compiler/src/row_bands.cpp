#include "npugen/compiler/row_bands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace npugen::compiler {

std::vector<RowBand> row_bands(const BandGeometry& g, int rows, int images) {
  if (rows < 1 || g.height < 1 || g.kernel < 1 || g.stride < 1 || g.out_height < 1) {
    throw std::invalid_argument(fmt::format(
        "row_bands: bands of {} rows over {} input rows, window {} stride {}, {} output rows", rows,
        g.height, g.kernel, g.stride, g.out_height));
  }
  std::vector<RowBand> out;
  for (int n = 0; n < images; ++n) {
    for (int first = 0; first < g.out_height; first += rows) {
      RowBand b;
      b.image = n;
      b.out_first = first;
      b.out_rows = std::min(rows, g.out_height - first);
      // The rows the band's windows cover, padding included: [top, bottom).
      const int top = first * g.stride - g.pad_top;
      const int bottom = (first + b.out_rows - 1) * g.stride - g.pad_top + g.kernel;
      b.in_first = std::max(top, 0);
      const int end = std::min(bottom, g.height);
      if (end <= b.in_first) {
        throw std::invalid_argument(
            fmt::format("output rows {} to {} read padding only (window {}, top padding {})", first,
                        first + b.out_rows - 1, g.kernel, g.pad_top));
      }
      b.in_rows = end - b.in_first;
      b.pad_top = b.in_first - top;
      b.pad_bottom = bottom - end;
      out.push_back(b);
    }
  }
  return out;
}

int band_input_rows(const BandGeometry& g, int rows) {
  int most = 0;
  for (const RowBand& b : row_bands(g, rows, 1)) most = std::max(most, b.in_rows);
  return most;
}

}  // namespace npugen::compiler
