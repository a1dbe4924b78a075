// Plain reference of a codebook lookup, written from the definition and sharing no code
// with the dequantizer model: it checks the model; the model checks the RTL.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace npugen::golden::reference {

/// The m weights index `index` stands for in the table whose first row is `base_row`.
/// The codebook is read as one flat list of weights (row r, weight j at r x M + j); a table
/// with vectors of length m starts at weight base_row x M and holds vector i at m
/// consecutive weights from base_row x M + i x m. nullopt when the vector does not lie
/// inside the codebook.
std::optional<std::vector<uint32_t>> vq_lookup(const std::vector<uint32_t>& flat_codebook,
                                               unsigned row_weights, unsigned base_row,
                                               unsigned vector_length, uint64_t index);

}  // namespace npugen::golden::reference
