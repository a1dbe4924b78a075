// The page around npugen's HTML reports: self-contained (inline CSS, inline SVG, no script,
// no network), so that a report opens the same from a CI artefact, a mail or a laptop.
#pragma once

#include <filesystem>
#include <string>

namespace npugen::report {

/// A whole HTML5 document: `title` in the head and as the first heading, `body` after it.
std::string html_page(const std::string& title, const std::string& body);

/// What marks a report folder.
inline constexpr const char* kReportMarker = ".npugen-report";

/// Writes `html` as `dir`/index.html, atomically; `dir` must be new, empty or an earlier
/// report folder (it holds kReportMarker).
void write_report_page(const std::filesystem::path& dir, const std::string& html);

}  // namespace npugen::report
