// Codebook training for the dequantizer: k-means with k-means++ seeding over
// weight vectors, the centroids rounded into the weight format, and every vector assigned
// to its nearest stored codeword. Deterministic for a given seed (raw std::mt19937_64
// output, no library distributions).
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/vq/params.hpp"

namespace npugen::golden {

struct VqTrainOptions {
  unsigned vector_length = 4;  ///< m
  unsigned rows = 256;         ///< N codewords
  WeightFormat format;         ///< of the stored codebook
  uint64_t seed = 1;
  unsigned max_iterations = 25;  ///< Lloyd iterations at most
};

struct VqCodebook {
  std::vector<uint32_t> codebook;  ///< N x m bit patterns in `format`
  std::vector<uint32_t> indices;   ///< one per vector
  unsigned iterations = 0;         ///< Lloyd iterations run
  bool converged = false;          ///< stopped because nothing moved (not the cap)
};

/// Trains a codebook on `vectors` (count x m values, vector v at [v*m, v*m + m)).
VqCodebook vq_train(const std::vector<double>& vectors, const VqTrainOptions& options);

/// The values the indices stand for: count x m.
std::vector<double> vq_reconstruct(const std::vector<uint32_t>& codebook, unsigned vector_length,
                                   WeightFormat format, const std::vector<uint32_t>& indices);

struct QuantError {
  double mse = 0;      ///< mean squared error per weight
  double sqnr_db = 0;  ///< 10 log10(sum x^2 / sum (x - y)^2); +inf when exact
};
QuantError quantization_error(const std::vector<double>& original,
                              const std::vector<double>& reconstructed);

/// Plain scalar quantization to `bits`-bit signed integers with one scale for the whole
/// tensor (the clipping range that minimises the squared error, searched on a grid), the
/// comparison point for VQ at the same bits per weight.
std::vector<double> scalar_quantize(const std::vector<double>& values, unsigned bits);

}  // namespace npugen::golden
