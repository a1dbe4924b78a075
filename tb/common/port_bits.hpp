// Reading and writing bit fields of Verilator port values, whatever C++ type
// Verilator chose for the port's width (CData, SData, IData, QData or VlWide<N>).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <type_traits>

namespace npugen::tb {

template <typename Port>
inline void set_bits(Port& port, unsigned lsb, unsigned width, uint64_t value) {
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t mask = width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
    uint64_t v = static_cast<uint64_t>(port);
    v = (v & ~(mask << lsb)) | ((value & mask) << lsb);
    port = static_cast<Port>(v);
  } else {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned bit = lsb + i;
      const EData m = EData{1} << (bit % 32);
      if ((value >> i) & 1U) {
        port[bit / 32] |= m;
      } else {
        port[bit / 32] &= ~m;
      }
    }
  }
}

template <typename Port>
inline uint64_t get_bits(const Port& port, unsigned lsb, unsigned width) {
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
  if constexpr (std::is_integral_v<Port>) {
    return (static_cast<uint64_t>(port) >> lsb) & mask;
  } else {
    // Gather up to three 32-bit words covering the field, then shift.
    const unsigned word = lsb / 32;
    const unsigned shift = lsb % 32;
    constexpr unsigned kWords = sizeof(Port) / sizeof(EData);
    unsigned __int128 acc = 0;
    for (unsigned i = 0; i < 3 && word + i < kWords; ++i) {
      acc |= static_cast<unsigned __int128>(port[word + i]) << (32 * i);
    }
    return static_cast<uint64_t>(acc >> shift) & mask;
  }
}

/// Writes consecutive fields of equal width starting at bit 0 (fast path for wide ports).
template <typename Port>
inline void pack_fields(Port& port, const uint32_t* values, unsigned count, unsigned width) {
  if constexpr (std::is_integral_v<Port>) {
    uint64_t v = 0;
    const uint64_t mask = (uint64_t{1} << width) - 1;
    for (unsigned i = 0; i < count; ++i) v |= (values[i] & mask) << (i * width);
    port = static_cast<Port>(v);
  } else {
    constexpr unsigned kWords = sizeof(Port) / sizeof(EData);
    unsigned __int128 buffer = 0;
    unsigned filled = 0;
    unsigned word = 0;
    const uint64_t mask = width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
    for (unsigned i = 0; i < count; ++i) {
      buffer |= static_cast<unsigned __int128>(values[i] & mask) << filled;
      filled += width;
      while (filled >= 32) {
        port[word++] = static_cast<EData>(buffer);
        buffer >>= 32;
        filled -= 32;
      }
    }
    while (word < kWords) {
      port[word++] = static_cast<EData>(buffer);
      buffer >>= 32;
    }
  }
}

}  // namespace npugen::tb
