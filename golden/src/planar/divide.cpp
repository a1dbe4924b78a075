#include "npugen/golden/planar/divide.hpp"

#include <stdexcept>

#include "npugen/golden/common/bits.hpp"

namespace npugen::golden {

PoolDivider PoolDivider::for_counts(unsigned max_count) {
  if (max_count == 0) throw std::invalid_argument("a pooling window has at least one position");
  // floor(x R / 2^k) = floor(x / n) for 0 <= x <= X when 2^k >= X n (R n - 2^k < n, so
  // the error x (R n - 2^k) / (n 2^k) stays below 1/n). X: 128 n + n / 2 at the largest n.
  const uint64_t largest = uint64_t{128} * max_count + max_count / 2;
  PoolDivider d;
  d.shift = ceil_log2(largest * max_count);
  d.reciprocal.assign(max_count + 1, 0);
  for (unsigned n = 1; n <= max_count; ++n) {
    d.reciprocal[n] = ((uint64_t{1} << d.shift) + n - 1) / n;
  }
  return d;
}

unsigned PoolDivider::reciprocal_bits() const {
  // R(1) = 2^k is the largest.
  return field_bits((uint64_t{1} << shift) + 1);
}

int32_t PoolDivider::divide(int32_t sum, unsigned count) const {
  if (count == 0 || count >= reciprocal.size()) {
    throw std::out_of_range("a window count beyond the divider's table");
  }
  const uint64_t magnitude = sum < 0 ? uint64_t(-int64_t{sum}) : uint64_t(sum);
  const uint64_t quotient = ((magnitude + count / 2) * reciprocal[count]) >> shift;
  return sum < 0 ? -static_cast<int32_t>(quotient) : static_cast<int32_t>(quotient);
}

}  // namespace npugen::golden
