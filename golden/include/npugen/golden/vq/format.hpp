// Weight formats of the dequantizer as numbers: integers of 2 to 32 bits, fp16 and bf16.
// Used by the encoder (rounding centroids into the format) and by the stimulus.
#pragma once

#include <cstdint>

#include "npugen/golden/vq/params.hpp"

namespace npugen::golden {

/// The value a bit pattern stands for (fp16/bf16: infinities and NaN as such).
double decode_weight(WeightFormat format, uint32_t bits);

/// The nearest value of the format (ties to even), as its bit pattern. Values beyond the
/// format's range saturate to its largest (or smallest) finite value; NaN is not allowed.
uint32_t encode_weight(WeightFormat format, double value);

/// Largest finite value of the format, and the smallest (most negative).
double format_max(WeightFormat format);
double format_min(WeightFormat format);

/// Mask of the format's bits.
constexpr uint32_t format_mask(WeightFormat format) {
  return format.width >= 32 ? ~uint32_t{0} : (uint32_t{1} << format.width) - 1;
}

}  // namespace npugen::golden
