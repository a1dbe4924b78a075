// A generated folder held in memory (relative path -> content), written atomically.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace npugen::util {

using FileMap = std::map<std::string, std::string>;

enum class WriteOutcome { kCreated, kReplaced, kUnchanged };

/// Raised when the output folder cannot be written; the previous content is intact.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Makes `dir` hold exactly `files`, atomically: the new folder is written beside it
/// and exchanged with the old one in one rename, so a failed or killed run leaves
/// either the old or the new folder complete. Nothing is written when `dir` already
/// holds exactly these files. Subfolders named in `keep` (build caches) are carried
/// over from the old folder. `dir` must be absent, empty, or an earlier output (it
/// holds `marker`), so that no unrelated folder is ever replaced.
WriteOutcome write_tree_atomically(const std::filesystem::path& dir, const FileMap& files,
                                   const std::string& marker, const std::vector<std::string>& keep);

/// Writes one file atomically: a temporary file beside it, renamed over it. A failed or
/// killed run leaves the old file (or none) in place.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

/// Reads a whole file; throws OutputError when it cannot.
std::string read_file(const std::filesystem::path& path);

}  // namespace npugen::util
