#include "config/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace npugen::config {

std::string Diagnostic::format() const {
  std::string where = file;
  if (line > 0) where += fmt::format(":{}", line);
  if (line > 0 && column > 0) where += fmt::format(":{}", column);
  if (key_path.empty()) return fmt::format("{}: error: {}", where, message);
  return fmt::format("{}: error: {}: {}", where, key_path, message);
}

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

}  // namespace npugen::config
