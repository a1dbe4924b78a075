// Bit counts, defined once for the golden model, the generator and the testbench.
#pragma once

#include <cstdint>

namespace npugen::golden {

/// The smallest k with 2^k >= n: the bits that hold the values 0 .. n-1 (0 for n <= 1),
/// and log2 n for a power of two.
constexpr unsigned ceil_log2(uint64_t n) {
  unsigned k = 0;
  while (k < 64 && (uint64_t{1} << k) < n) ++k;
  return k;
}

/// Bits of a field holding 0 .. values-1; at least 1, so that every port has a width.
constexpr unsigned field_bits(uint64_t values) {
  const unsigned k = ceil_log2(values);
  return k == 0 ? 1 : k;
}

constexpr bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace npugen::golden
