#include "npugen/golden/pe_array/dense_reference.hpp"

#include <stdexcept>

namespace npugen::golden::reference {
namespace {

// Interprets a raw bit pattern as the integer it encodes, exactly.
__int128 decode(uint32_t raw, Format f) {
  const unsigned __int128 modulus = static_cast<unsigned __int128>(1) << f.width;
  const unsigned __int128 bits = static_cast<unsigned __int128>(raw) % modulus;
  if (f.is_signed && bits >= modulus / 2) {
    return static_cast<__int128>(bits) - static_cast<__int128>(modulus);
  }
  return static_cast<__int128>(bits);
}

}  // namespace

std::vector<uint64_t> dense_dot_products(const std::vector<uint32_t>& weights,
                                         const std::vector<uint32_t>& acts, unsigned tiles,
                                         unsigned steps, unsigned lanes, Format weight, Format act,
                                         unsigned acc_width) {
  if (weights.size() != static_cast<size_t>(tiles) * steps * lanes ||
      acts.size() != static_cast<size_t>(steps) * lanes) {
    throw std::invalid_argument("dense_dot_products: tensor sizes do not match T, C, L");
  }
  if (acc_width == 0 || acc_width > 64) {
    throw std::invalid_argument("dense_dot_products: accumulator width must be 1..64");
  }
  std::vector<uint64_t> out(tiles);
  const __int128 modulus = static_cast<__int128>(1) << acc_width;
  for (unsigned t = 0; t < tiles; ++t) {
    __int128 exact = 0;  // |sum| < 2^64 * 2^32 steps*lanes: fits in 128 bits
    for (unsigned c = 0; c < steps; ++c) {
      for (unsigned l = 0; l < lanes; ++l) {
        exact += decode(weights[(static_cast<size_t>(t) * steps + c) * lanes + l], weight) *
                 decode(acts[static_cast<size_t>(c) * lanes + l], act);
      }
    }
    __int128 reduced = exact % modulus;  // C++ remainder keeps the sign of exact
    if (reduced < 0) reduced += modulus;
    out[t] = static_cast<uint64_t>(reduced);
  }
  return out;
}

}  // namespace npugen::golden::reference
