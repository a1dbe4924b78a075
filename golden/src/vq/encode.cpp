#include "npugen/golden/vq/encode.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "npugen/golden/vq/format.hpp"

namespace npugen::golden {
namespace {

double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Squared distances from x (m values) to every centroid; centroids are stored
// transposed (dimension j of centroid c at t[j * k + c]) so this loop vectorises.
void distances(const float* x, const std::vector<float>& t, unsigned m, unsigned k, float* out) {
  std::fill(out, out + k, 0.0F);
  for (unsigned j = 0; j < m; ++j) {
    const float xj = x[j];
    const float* row = &t[size_t{j} * k];
    for (unsigned c = 0; c < k; ++c) {
      const float d = xj - row[c];
      out[c] += d * d;
    }
  }
}

unsigned argmin(const float* d, unsigned k) {
  unsigned best = 0;
  for (unsigned c = 1; c < k; ++c) {
    if (d[c] < d[best]) best = c;
  }
  return best;
}

std::vector<float> transpose(const std::vector<double>& centroids, unsigned m, unsigned k) {
  std::vector<float> t(size_t{m} * k);
  for (unsigned c = 0; c < k; ++c) {
    for (unsigned j = 0; j < m; ++j)
      t[size_t{j} * k + c] = static_cast<float>(centroids[c * m + j]);
  }
  return t;
}

// k-means++: the first centroid uniformly, each next one with probability proportional to
// the squared distance to the nearest centroid chosen so far.
std::vector<double> seed_centroids(const std::vector<float>& x, size_t n, unsigned m, unsigned k,
                                   std::mt19937_64& rng) {
  std::vector<double> centroids(size_t{k} * m);
  std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
  size_t pick = rng() % n;
  for (unsigned c = 0; c < k; ++c) {
    for (unsigned j = 0; j < m; ++j) centroids[size_t{c} * m + j] = x[pick * m + j];
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
      double d = 0;
      for (unsigned j = 0; j < m; ++j) {
        const double e = static_cast<double>(x[i * m + j]) - centroids[size_t{c} * m + j];
        d += e * e;
      }
      nearest[i] = std::min(nearest[i], d);
      total += nearest[i];
    }
    if (c + 1 == k) break;
    if (total <= 0) {  // fewer distinct vectors than rows: repeat some
      pick = rng() % n;
      continue;
    }
    const double target = uniform(rng) * total;
    double run = 0;
    pick = n - 1;
    for (size_t i = 0; i < n; ++i) {
      run += nearest[i];
      if (run > target && nearest[i] > 0) {
        pick = i;
        break;
      }
    }
  }
  return centroids;
}

}  // namespace

VqCodebook vq_train(const std::vector<double>& vectors, const VqTrainOptions& o) {
  const unsigned m = o.vector_length;
  const unsigned k = o.rows;
  if (m == 0 || k == 0 || vectors.empty() || vectors.size() % m != 0) {
    throw std::invalid_argument("vq_train: the values are not a whole number of vectors");
  }
  const size_t n = vectors.size() / m;
  std::vector<float> x(vectors.begin(), vectors.end());
  std::mt19937_64 rng(o.seed);
  std::vector<double> centroids = seed_centroids(x, n, m, k, rng);

  VqCodebook result;
  result.indices.assign(n, 0);
  std::vector<float> dist(k);
  std::vector<double> sums(size_t{k} * m);
  std::vector<size_t> counts(k);
  for (unsigned iter = 0; iter < o.max_iterations; ++iter) {
    const std::vector<float> t = transpose(centroids, m, k);
    size_t moved = 0;
    std::fill(sums.begin(), sums.end(), 0.0);
    std::fill(counts.begin(), counts.end(), 0);
    for (size_t i = 0; i < n; ++i) {
      distances(&x[i * m], t, m, k, dist.data());
      const unsigned c = argmin(dist.data(), k);
      if (iter == 0 || c != result.indices[i]) ++moved;
      result.indices[i] = c;
      ++counts[c];
      for (unsigned j = 0; j < m; ++j) sums[size_t{c} * m + j] += vectors[i * m + j];
    }
    result.iterations = iter + 1;
    if (moved == 0) {
      result.converged = true;
      break;
    }
    for (unsigned c = 0; c < k; ++c) {
      if (counts[c] == 0) continue;  // an empty cluster keeps its centroid
      for (unsigned j = 0; j < m; ++j) {
        centroids[size_t{c} * m + j] = sums[size_t{c} * m + j] / static_cast<double>(counts[c]);
      }
    }
  }

  // Round into the format, then assign every vector to its nearest stored codeword.
  result.codebook.resize(centroids.size());
  std::vector<double> stored(centroids.size());
  for (size_t i = 0; i < centroids.size(); ++i) {
    result.codebook[i] = encode_weight(o.format, centroids[i]);
    stored[i] = decode_weight(o.format, result.codebook[i]);
  }
  const std::vector<float> t = transpose(stored, m, k);
  for (size_t i = 0; i < n; ++i) {
    distances(&x[i * m], t, m, k, dist.data());
    result.indices[i] = argmin(dist.data(), k);
  }
  return result;
}

std::vector<double> vq_reconstruct(const std::vector<uint32_t>& codebook, unsigned m,
                                   WeightFormat format, const std::vector<uint32_t>& indices) {
  std::vector<double> out;
  out.reserve(indices.size() * m);
  for (uint32_t index : indices) {
    for (unsigned j = 0; j < m; ++j) {
      out.push_back(decode_weight(format, codebook.at(size_t{index} * m + j)));
    }
  }
  return out;
}

QuantError quantization_error(const std::vector<double>& a, const std::vector<double>& b) {
  double signal = 0;
  double noise = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    signal += a[i] * a[i];
    noise += (a[i] - b[i]) * (a[i] - b[i]);
  }
  QuantError e;
  e.mse = a.empty() ? 0 : noise / static_cast<double>(a.size());
  e.sqnr_db =
      noise == 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(signal / noise);
  return e;
}

std::vector<double> scalar_quantize(const std::vector<double>& values, unsigned bits) {
  double peak = 0;
  for (double v : values) peak = std::max(peak, std::fabs(v));
  std::vector<double> best(values.size(), 0.0);
  if (peak == 0) return best;
  const double lo = -std::ldexp(1.0, static_cast<int>(bits) - 1);
  const double hi = std::ldexp(1.0, static_cast<int>(bits) - 1) - 1;
  double best_noise = std::numeric_limits<double>::infinity();
  std::vector<double> q(values.size());
  for (int step = 1; step <= 100; ++step) {
    const double clip = peak * step / 100.0;
    const double scale = clip / std::max(hi, 1.0);
    double noise = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      q[i] = std::clamp(std::nearbyint(values[i] / scale), lo, hi) * scale;
      noise += (values[i] - q[i]) * (values[i] - q[i]);
    }
    if (noise < best_noise) {
      best_noise = noise;
      best.swap(q);
      q.resize(values.size());
    }
  }
  return best;
}

}  // namespace npugen::golden
