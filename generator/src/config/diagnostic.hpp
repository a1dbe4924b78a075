// A located message about a configuration file: file:line:column, key path, text.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace npugen::config {

struct Diagnostic {
  std::string file;
  int line = 0;          ///< 1-based; 0 when the message concerns the whole file
  int column = 0;        ///< 1-based; 0 when unknown
  std::string key_path;  ///< dotted path such as pe_array.weight.width; empty for the file
  std::string message;
  /// Above 0: this is the closing line that stands for that many errors not shown.
  size_t omitted = 0;

  /// "file:line:col: error: key.path: message" (the form compilers and editors jump to).
  [[nodiscard]] std::string format() const;
};

using Diagnostics = std::vector<Diagnostic>;

/// At most this many diagnostics are kept; the others are counted in one closing line, so
/// that a file of a million bad keys costs neither quadratic time nor a flood of output.
inline constexpr size_t kShownDiagnostics = 50;

/// Appends `d`, or, once kShownDiagnostics are kept, counts it in the closing line.
void report(Diagnostics& out, Diagnostic d);

/// Errors in all, those the closing line counts included.
size_t error_count(const Diagnostics& diagnostics);

/// Closest candidate by edit distance, or empty when none is close enough to suggest.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace npugen::config
