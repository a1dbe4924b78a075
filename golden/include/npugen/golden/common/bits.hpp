// Bit counts, defined once for the golden model, the generator and the testbench.
#pragma once

#include <cstdint>
#include <vector>

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

/// Bits lsb .. lsb + width - 1 of little-endian bytes (0 beyond them): a port's or a host
/// transfer's data as the golden models and the compiler see it.
inline uint64_t get_bits(const std::vector<uint8_t>& bytes, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    if (bit / 8 < bytes.size() && ((bytes[bit / 8] >> (bit % 8)) & 1U) != 0) v |= uint64_t{1} << i;
  }
  return v;
}
/// Sets the bits of v's low `width` bits that are 1 at lsb onwards (the field starts at 0).
inline void put_bits(std::vector<uint8_t>& bytes, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; ++i) {
    if ((v >> i) & 1U) bytes[(lsb + i) / 8] |= static_cast<uint8_t>(1U << ((lsb + i) % 8));
  }
}

}  // namespace npugen::golden
