#include "npugen/golden/vq/reference.hpp"

namespace npugen::golden::reference {

std::optional<std::vector<uint32_t>> vq_lookup(const std::vector<uint32_t>& flat_codebook,
                                               unsigned row_weights, unsigned base_row,
                                               unsigned vector_length, uint64_t index) {
  const uint64_t first = uint64_t{base_row} * row_weights + index * vector_length;
  if (first + vector_length > flat_codebook.size()) return std::nullopt;
  std::vector<uint32_t> out;
  for (uint64_t i = first; i < first + vector_length; ++i) out.push_back(flat_codebook[i]);
  return out;
}

}  // namespace npugen::golden::reference
