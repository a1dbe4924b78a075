#include "util/output_tree.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace npugen::util {
namespace {

constexpr const char* kTempTag = ".npugen-tmp-";

void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out)
    throw OutputError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
}

bool holds_exactly(const fs::path& dir, const FileMap& files,
                   const std::vector<std::string>& keep) {
  std::error_code ec;
  size_t seen = 0;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string rel = fs::relative(it->path(), dir).generic_string();
    if (it->is_directory()) {
      for (const auto& k : keep) {
        if (rel == k) it.disable_recursion_pending();
      }
      continue;
    }
    const auto want = files.find(rel);
    if (want == files.end()) return false;
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str() != want->second) return false;
    ++seen;
  }
  return !ec && seen == files.size();
}

// Leftovers of runs that were killed: temporary folders whose process is gone.
void remove_stale_temporaries(const fs::path& dir) {
  std::error_code ec;
  const std::string prefix = fmt::format(".{}{}", dir.filename().string(), kTempTag);
  for (const auto& entry : fs::directory_iterator(dir.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const pid_t pid = static_cast<pid_t>(std::strtol(name.c_str() + prefix.size(), nullptr, 10));
    if (pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)) continue;
    fs::remove_all(entry.path(), ec);
  }
}

}  // namespace

void write_file_atomically(const fs::path& path, const std::string& content) {
  const fs::path parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) {
    throw OutputError(fmt::format("{}: cannot write: the folder {} does not exist", path.string(),
                                  parent.string()));
  }
  const fs::path temp =
      parent / fmt::format(".{}{}{}", path.filename().string(), kTempTag, getpid());
  try {
    write_file(temp, content);
  } catch (const OutputError&) {
    fs::remove(temp, ec);
    throw;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    fs::remove(temp, ec);
    throw OutputError(fmt::format("{}: cannot write: {}", path.string(), why));
  }
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw OutputError(fmt::format("{}: cannot read: {}", path.string(), std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

WriteOutcome write_tree_atomically(const fs::path& dir_in, const FileMap& files,
                                   const std::string& marker,
                                   const std::vector<std::string>& keep) {
  const fs::path dir = fs::absolute(dir_in).lexically_normal();
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (exists) {
    if (!fs::is_directory(dir, ec)) {
      throw OutputError(fmt::format("{}: exists and is not a folder", dir.string()));
    }
    if (!fs::is_empty(dir, ec) && !fs::exists(dir / marker, ec)) {
      throw OutputError(fmt::format(
          "{}: exists and is not an npugen output folder (no {}); refusing to replace it",
          dir.string(), marker));
    }
    if (holds_exactly(dir, files, keep)) return WriteOutcome::kUnchanged;
  } else {
    fs::create_directories(dir.parent_path(), ec);
    if (ec)
      throw OutputError(
          fmt::format("{}: cannot create: {}", dir.parent_path().string(), ec.message()));
  }
  remove_stale_temporaries(dir);

  const fs::path temp =
      dir.parent_path() / fmt::format(".{}{}{}", dir.filename().string(), kTempTag, getpid());
  fs::remove_all(temp, ec);
  try {
    fs::create_directory(temp);
    for (const auto& [rel, content] : files) write_file(temp / rel, content);
  } catch (const std::exception& e) {
    fs::remove_all(temp, ec);
    throw OutputError(e.what());
  }

  if (!exists) {
    if (::rename(temp.c_str(), dir.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      fs::remove_all(temp, ec);
      throw OutputError(fmt::format("{}: cannot create: {}", dir.string(), why));
    }
    return WriteOutcome::kCreated;
  }
  // Build caches move into the new folder before the exchange.
  for (const auto& k : keep) {
    if (fs::exists(dir / k, ec)) {
      fs::create_directories((temp / k).parent_path(), ec);
      fs::rename(dir / k, temp / k, ec);
    }
  }
  if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) != 0) {
    const std::string why = std::strerror(errno);
    for (const auto& k : keep) fs::rename(temp / k, dir / k, ec);
    fs::remove_all(temp, ec);
    throw OutputError(fmt::format("{}: cannot replace: {}", dir.string(), why));
  }
  fs::remove_all(temp, ec);  // now the old content
  return WriteOutcome::kReplaced;
}

}  // namespace npugen::util
