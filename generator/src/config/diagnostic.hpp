// A located message about a configuration file: file:line:column, key path, text.
#pragma once

#include <string>
#include <vector>

namespace npugen::config {

struct Diagnostic {
  std::string file;
  int line = 0;          ///< 1-based; 0 when the message concerns the whole file
  int column = 0;        ///< 1-based; 0 when unknown
  std::string key_path;  ///< dotted path such as pe_array.weight.width; empty for the file
  std::string message;

  /// "file:line:col: error: key.path: message" (the form compilers and editors jump to).
  [[nodiscard]] std::string format() const;
};

using Diagnostics = std::vector<Diagnostic>;

/// Closest candidate by edit distance, or empty when none is close enough to suggest.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace npugen::config
