#include "config/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace npugen::config {

std::string Diagnostic::format() const {
  if (omitted > 0) {
    return fmt::format("{}: error: {} more error(s) not shown (the first {} are above)", file,
                       omitted, kShownDiagnostics);
  }
  std::string where = file;
  if (line > 0) where += fmt::format(":{}", line);
  if (line > 0 && column > 0) where += fmt::format(":{}", column);
  if (key_path.empty()) return fmt::format("{}: error: {}", where, message);
  return fmt::format("{}: error: {}: {}", where, key_path, message);
}

void report(Diagnostics& out, Diagnostic d) {
  if (out.size() < kShownDiagnostics) {
    out.push_back(std::move(d));
  } else if (out.back().omitted > 0) {
    ++out.back().omitted;
  } else {
    out.push_back(Diagnostic{d.file, 0, 0, "", "", 1});
  }
}

size_t error_count(const Diagnostics& diagnostics) {
  size_t n = 0;
  for (const auto& d : diagnostics) n += d.omitted > 0 ? d.omitted : 1;
  return n;
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
    // The distance is at least the difference in length: skip what cannot be close (and
    // never spend word.size() x candidate.size() steps on a huge word).
    const size_t gap = word.size() > candidate.size() ? word.size() - candidate.size()
                                                      : candidate.size() - word.size();
    if (gap >= best_distance) continue;
    const size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

}  // namespace npugen::config
