#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "npugen/golden/network/network.hpp"
#include "npugen/golden/vq/encode.hpp"

namespace npugen::golden::net {

void make_vq_layer(Layer& layer, int channels, unsigned vector_length, unsigned codewords) {
  const unsigned m = vector_length;
  if (m == 0 || (m & (m - 1)) != 0 || channels <= 0 || channels % static_cast<int>(m) != 0) {
    throw std::invalid_argument(fmt::format(
        "vectors of {} weights along {} input channels: the vector length must be a power of "
        "two dividing the channels",
        m, channels));
  }
  if (codewords < 2) {
    throw std::invalid_argument(fmt::format(
        "{} codewords: at least 2 (vector 0 is the zero vector, the others are trained)",
        codewords));
  }
  std::vector<int8_t>& w = layer.conv.weights;
  const size_t count = w.size() / m;
  std::vector<double> vectors(w.begin(), w.end());
  VqTrainOptions options;
  options.vector_length = m;
  options.rows = codewords - 1;
  options.format = WeightFormat{WeightKind::kInt, 8};
  options.seed = 1;
  const VqCodebook trained = vq_train(vectors, options);
  std::vector<int8_t> book(size_t{codewords} * m, 0);  // vector 0: zeros
  for (size_t i = 0; i < trained.codebook.size(); ++i) {
    book[m + i] = static_cast<int8_t>(static_cast<uint8_t>(trained.codebook[i] & 0xffU));
  }
  for (size_t v = 0; v < count; ++v) {
    int64_t best = std::numeric_limits<int64_t>::max();
    unsigned pick = 0;
    for (unsigned c = 0; c < codewords; ++c) {
      int64_t d = 0;
      for (unsigned j = 0; j < m; ++j) {
        const int64_t e = int64_t{w[v * m + j]} - book[size_t{c} * m + j];
        d += e * e;
      }
      if (d < best) best = d, pick = c;
    }
    std::copy_n(&book[size_t{pick} * m], m, &w[v * m]);
  }
  layer.vq.vector_length = m;
  layer.vq.codebook = std::move(book);
}

}  // namespace npugen::golden::net
