// Row bands (docs/npu.md "Row bands"): a layer whose input or output does not fit a buffer
// keeps that tensor in system memory and runs one image at a time in bands of output rows,
// each band reading only the input rows its windows cover (the DMA loads them) and writing
// only its output rows (the DMA stores them). The geometry of the bands is here; the
// compiler (allocate.cpp) places their staging areas and writes their descriptors.
#pragma once

#include <vector>

namespace npugen::compiler {

/// A layer's rows: its input height, the window's height, stride and top padding, and its
/// output height (the bottom padding is whatever the last window reaches below the input).
struct BandGeometry {
  int height = 1;
  int kernel = 1;
  int stride = 1;
  int pad_top = 0;
  int out_height = 1;
};

/// One band: output rows out_first .. out_first + out_rows - 1 of image `image`, read from
/// input rows in_first .. in_first + in_rows - 1 with pad_top and pad_bottom rows of padding
/// around them, so that (in_rows + pad_top + pad_bottom - kernel) / stride + 1 = out_rows.
struct RowBand {
  int image = 0;
  int out_first = 0, out_rows = 0;
  int in_first = 0, in_rows = 0;
  int pad_top = 0, pad_bottom = 0;
  bool operator==(const RowBand&) const = default;
};

/// The bands of `images` images, each image's output rows in bands of `rows` (the last one
/// shorter). Throws std::invalid_argument when rows < 1 or a band's windows read no input
/// row (padding of a window's height or more).
std::vector<RowBand> row_bands(const BandGeometry& g, int rows, int images);

/// The most input rows one band of `rows` output rows reads (its staging area's rows).
int band_input_rows(const BandGeometry& g, int rows);

}  // namespace npugen::compiler
