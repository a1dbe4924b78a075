// Operands as the multipliers see them: raw bit patterns extended to 64 bits.
#pragma once

#include <cstdint>

namespace npugen::golden {

/// Sign- or zero-extends a raw `width`-bit operand to 64 bits. Products of extended
/// operands wrap modulo 2^64, which is exact modulo 2^acc_width for every acc_width <= 64.
inline uint64_t extend_operand(uint32_t raw, unsigned width, bool is_signed) {
  const unsigned shift = 64 - width;
  const uint64_t high = static_cast<uint64_t>(raw) << shift;
  return is_signed ? static_cast<uint64_t>(static_cast<int64_t>(high) >> shift) : high >> shift;
}

}  // namespace npugen::golden
