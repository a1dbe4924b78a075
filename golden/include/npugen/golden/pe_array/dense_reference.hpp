// Plain reference: a dense matrix product written from the definition, sharing no
// code with the optimised golden model. It checks the golden model; the golden
// model checks the RTL.
#pragma once

#include <cstdint>
#include <vector>

namespace npugen::golden::reference {

/// Operand format of the reference: width in bits and signedness.
struct Format {
  unsigned width;
  bool is_signed;
};

/// out[t] = sum_c sum_l W[t][c][l] * A[c][l], computed exactly and then reduced to
/// an acc_width-bit two's complement (or unsigned) value, returned as its raw bits.
/// W is indexed [(t * C + c) * L + l], A is indexed [c * L + l]; both hold raw bit patterns.
std::vector<uint64_t> dense_dot_products(const std::vector<uint32_t>& weights,
                                         const std::vector<uint32_t>& acts, unsigned tiles,
                                         unsigned steps, unsigned lanes, Format weight, Format act,
                                         unsigned acc_width);

}  // namespace npugen::golden::reference
