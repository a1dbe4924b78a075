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

/// Refuses now, before any work, an output folder that write_tree_atomically would refuse
/// or fail on later: an empty path, the root folder, something other than a folder there (a
/// file, a named pipe, a device), a folder that is neither empty nor an earlier output (holds
/// no `marker`; an empty `marker` accepts any folder, as for a cache), or a path that cannot
/// be created (a file on its way, a folder that cannot be written). The message names the
/// problem, not the path.
void check_output_folder(const std::filesystem::path& dir, const std::string& marker);

/// The same for a file written whole (write_file_atomically, or by a program npugen runs):
/// an empty path, a folder or anything but a regular file there, a folder that does not
/// exist or cannot be written. The folder is never created; only a file in `made`, a folder
/// the command makes before it writes the file (the design folder), may be in one that does
/// not exist yet.
void check_output_file(const std::filesystem::path& file, const std::filesystem::path& made = {});

/// Writes one file atomically: a temporary file beside it, renamed over it. A failed or
/// killed run leaves the old file (or none) in place.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

/// Reads a whole file; throws OutputError when it cannot.
std::string read_file(const std::filesystem::path& path);

}  // namespace npugen::util
