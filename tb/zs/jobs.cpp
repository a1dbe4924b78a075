#include "zs/jobs.hpp"

#include <algorithm>
#include <stdexcept>

namespace npugen::tb {

const std::vector<std::string>& zs_patterns() {
  // "corners" first, so that every run has one: a dense job in which every lane of every
  // tile multiplies the same corner of both ranges (most negative x most negative, largest x
  // largest, mixed), the only stimulus that shows a wrong sign extension of the tree's sum.
  static const std::vector<std::string> kPatterns = {
      "corners",      "sparsity 0",   "sparsity 0.5",         "sparsity 0.9", "sparsity 1.0",
      "pruned lanes", "uneven tiles", "clustered empty rows", "sparsity 0.75"};
  return kPatterns;
}

ZsJobSource::ZsJobSource(const golden::ZeroSkipParams& params, unsigned max_rows, uint64_t seed)
    : p_(params), max_rows_(max_rows), rng_(seed) {}

int64_t ZsJobSource::value() {
  const unsigned w = p_.array.weight_width;
  const uint64_t raw = rng_() & (w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1);
  int64_t v = static_cast<int64_t>(raw);
  if (p_.array.weight_signed && ((raw >> (w - 1)) & 1U)) v -= int64_t{1} << w;
  return v == 0 ? 1 : v;
}

ZsJob ZsJobSource::next() {
  const unsigned tiles = p_.array.tiles;
  const unsigned lanes = p_.array.lanes;
  ZsJob job;
  job.pattern = zs_patterns()[count_++ % zs_patterns().size()];
  const unsigned rows = 1 + static_cast<unsigned>(below(max_rows_));
  job.weights = golden::HierTensor{{lanes, tiles}, rows, {}};
  job.weights.values.assign(size_t{tiles} * rows * lanes, 0);
  auto at = [&](unsigned t, unsigned c, unsigned l) -> int64_t& {
    return job.weights.values[(size_t{t} * rows + c) * lanes + l];
  };
  // Density of each tile, lane and row for the pattern.
  std::vector<double> tile_density(tiles, 1.0), lane_density(lanes, 1.0), row_density(rows, 1.0);
  double density = 1.0;
  const std::string& pat = job.pattern;
  if (pat == "sparsity 0") density = 1.0;
  if (pat == "sparsity 0.5") density = 0.5;
  if (pat == "sparsity 0.9") density = 0.1;
  if (pat == "sparsity 1.0") density = 0.0;
  if (pat == "sparsity 0.75") density = 0.25;
  if (pat == "pruned lanes") {
    density = 0.7;
    for (auto& d : lane_density) d = chance(0.5) ? 0.0 : 1.0;
  }
  if (pat == "uneven tiles") {
    for (auto& d : tile_density) d = std::vector<double>{0.0, 0.05, 0.3, 0.9, 1.0}[below(5)];
  }
  if (pat == "clustered empty rows") {
    density = 0.6;
    for (unsigned c = 0; c < rows;) {
      const unsigned run = 1 + static_cast<unsigned>(below(6));
      const bool empty = chance(0.5);
      for (unsigned k = 0; k < run && c < rows; ++k, ++c) row_density[c] = empty ? 0.0 : 1.0;
    }
  }
  for (unsigned t = 0; t < tiles; ++t) {
    for (unsigned c = 0; c < rows; ++c) {
      for (unsigned l = 0; l < lanes; ++l) {
        if (chance(density * tile_density[t] * lane_density[l] * row_density[c])) {
          at(t, c, l) = value();
        }
      }
    }
  }
  job.acts.resize(size_t{rows} * lanes);
  const uint32_t amask =
      p_.array.act_width >= 32 ? ~uint32_t{0} : (uint32_t{1} << p_.array.act_width) - 1;
  for (auto& a : job.acts) a = static_cast<uint32_t>(rng_()) & amask;
  if (pat == "corners") {
    // Corner k of the job: weight and activation each the format's low or high end (a zero
    // weight, the low end of an unsigned format, is replaced by the high end: zeros are
    // skipped, not multiplied).
    const unsigned k = corners_++ % 4;
    const auto end = [](unsigned width, bool is_signed, bool high) -> int64_t {
      if (!is_signed) return high ? (int64_t{1} << width) - 1 : 0;
      return high ? (int64_t{1} << (width - 1)) - 1 : -(int64_t{1} << (width - 1));
    };
    int64_t w = end(p_.array.weight_width, p_.array.weight_signed, k & 1U);
    if (w == 0) w = end(p_.array.weight_width, false, true);
    const int64_t a = end(p_.array.act_width, p_.array.act_signed, ((k >> 1) ^ k) & 1U);
    std::fill(job.weights.values.begin(), job.weights.values.end(), w);
    std::fill(job.acts.begin(), job.acts.end(), static_cast<uint32_t>(a) & amask);
  }
  const auto levels = p_.levels();
  const golden::HierSchedule s = golden::preprocess(job.weights, levels);
  const auto problems = golden::check_schedule(job.weights, levels, s);
  if (!problems.empty()) {
    throw std::logic_error("preprocessing broke the contract (" + job.pattern +
                           "): " + problems.front());
  }
  job.schedule_steps = s.steps();
  job.steps = golden::step_stream(p_, s);
  return job;
}

}  // namespace npugen::tb
