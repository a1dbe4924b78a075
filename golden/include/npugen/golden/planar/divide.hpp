// The planar engine's average: a pooling window's sum divided by the count of
// its valid positions, rounded as TFLite's int8 average pooling rounds (half away from
// zero):
//
//   avg(s, n) = sign(s) x floor((|s| + floor(n / 2)) / n)
//
// computed without a divider: the numerator |s| + floor(n / 2) times a reciprocal
// R(n) = ceil(2^k / n), shifted right by k. One k serves every count up to the engine's
// largest window; it is chosen so that the product is the exact floor for every numerator
// an int8 window can reach (|s| <= 128 n). The plain reference (planar/reference.hpp)
// divides; a unit test compares the two for every count and every reachable sum.
#pragma once

#include <cstdint>
#include <vector>

namespace npugen::golden {

struct PoolDivider {
  unsigned shift = 0;                ///< k
  std::vector<uint64_t> reciprocal;  ///< R(n) at index n (index 0 unused)

  /// The dividers for window counts 1 to max_count.
  static PoolDivider for_counts(unsigned max_count);
  /// Bits of a reciprocal (the multiplier's width in the hardware).
  [[nodiscard]] unsigned reciprocal_bits() const;
  /// avg(sum, count) as the hardware forms it; count is 1 to max_count, |sum| <= 128 count.
  [[nodiscard]] int32_t divide(int32_t sum, unsigned count) const;
};

}  // namespace npugen::golden
