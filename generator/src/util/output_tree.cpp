#include "util/output_tree.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

namespace fs = std::filesystem;

namespace npugen::util {
namespace {

constexpr const char* kTempTag = ".npugen-tmp-";
/// A temporary younger than this whose lock is free may be one a live run has just made
/// and not yet locked.
constexpr auto kCreationGrace = std::chrono::seconds(60);

// The lock a run holds on its temporary (folder or file) until it is renamed into place or
// removed. The kernel drops it when the process dies, however it dies, so a temporary
// whose lock is free belongs to no running npugen.
class TempLock {
 public:
  TempLock() = default;
  explicit TempLock(int fd) : fd_(fd) {
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  TempLock(const TempLock&) = delete;
  TempLock& operator=(const TempLock&) = delete;
  ~TempLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// Whether a temporary left beside an output may be removed: nobody holds its lock, and
// it is not a live run's temporary in the instant between its creation and its locking.
bool is_stale(const fs::path& temp, pid_t pid) {
  const int fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
  ::close(fd);
  if (locked) return false;
  const bool alive = pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
  if (!alive) return true;
  // The PID is in use (perhaps by another process now): stale once past the grace time.
  std::error_code ec;
  const auto written = fs::last_write_time(temp, ec);
  return !ec && fs::file_time_type::clock::now() - written > kCreationGrace;
}

// Leftovers of runs that were killed: temporaries named after `target` that no running
// npugen holds.
void remove_stale_temporaries(const fs::path& target) {
  std::error_code ec;
  const std::string prefix = fmt::format(".{}{}", target.filename().string(), kTempTag);
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const pid_t pid = static_cast<pid_t>(std::strtol(name.c_str() + prefix.size(), nullptr, 10));
    if (pid == getpid()) continue;
    if (is_stale(entry.path(), pid)) fs::remove_all(entry.path(), ec);
  }
}

void write_all(int fd, const std::string& content, const fs::path& path) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw OutputError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
    }
    done += static_cast<size_t>(n);
  }
}

void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw OutputError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
  }
  try {
    write_all(fd, content, path);
  } catch (const OutputError&) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) {
    throw OutputError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
  }
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

// What is at a path that is not what an output needs, as a message says it.
std::string kind_of(fs::file_type t) {
  switch (t) {
    case fs::file_type::regular:
      return "a file";
    case fs::file_type::directory:
      return "a folder";
    case fs::file_type::fifo:
      return "a named pipe (FIFO)";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not an ordinary file";
  }
}

// The folder an output is written in (created when missing, unless `create` is false): the
// nearest existing folder on its way must be a writable folder.
void check_parent(const fs::path& parent, bool create) {
  std::error_code ec;
  fs::path at = parent;
  while (true) {
    const fs::file_status st = fs::status(at, ec);
    if (fs::exists(st)) {
      if (!fs::is_directory(st)) {
        throw OutputError(fmt::format("cannot be created: {} is {}, not a folder", at.string(),
                                      kind_of(st.type())));
      }
      break;
    }
    if (!create) {
      throw OutputError(fmt::format("the folder {} does not exist", parent.string()));
    }
    if (!at.has_relative_path()) break;
    at = at.parent_path();
  }
  if (::access(at.c_str(), W_OK | X_OK) != 0) {
    throw OutputError(
        fmt::format("cannot be written: the folder {}: {}", at.string(), std::strerror(errno)));
  }
}

}  // namespace

void check_output_folder(const fs::path& given, const std::string& marker) {
  if (given.empty()) throw OutputError("an empty path names no folder");
  fs::path dir = fs::absolute(given).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // out/ is out
  if (!dir.has_relative_path()) throw OutputError("is the root folder");
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) {
      throw OutputError(fmt::format("exists and is {}, not a folder", kind_of(st.type())));
    }
    if (!marker.empty() && !fs::is_empty(dir, ec) && !fs::exists(dir / marker, ec)) {
      throw OutputError(fmt::format(
          "exists and is not an npugen output folder (no {}); refusing to replace it", marker));
    }
  }
  check_parent(dir.parent_path(), true);
}

void check_output_file(const fs::path& given, const fs::path& made) {
  if (given.empty()) throw OutputError("an empty path names no file");
  const fs::path file = fs::absolute(given).lexically_normal();
  if (!file.has_filename()) throw OutputError("names a folder, not a file");
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    throw OutputError(fmt::format("is {}, not a regular file", kind_of(st.type())));
  }
  bool within = false;
  if (!made.empty()) {
    const fs::path m = fs::absolute(made).lexically_normal();
    const fs::path rel =
        file.parent_path().lexically_relative(m.has_filename() ? m : m.parent_path());
    within = rel == ".";
  }
  check_parent(file.parent_path(), within);
}

void write_file_atomically(const fs::path& path, const std::string& content) {
  const fs::path parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  std::error_code ec;
  try {
    check_output_file(path);  // never renamed over a named pipe, a device or a folder
  } catch (const OutputError& e) {
    throw OutputError(fmt::format("{}: cannot write: {}", path.string(), e.what()));
  }
  remove_stale_temporaries(path);
  const fs::path temp =
      parent / fmt::format(".{}{}{}", path.filename().string(), kTempTag, getpid());
  fs::remove(temp, ec);
  const TempLock lock(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  try {
    if (lock.fd() < 0) {
      throw OutputError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
    }
    write_all(lock.fd(), content, path);
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
  try {
    check_output_folder(dir_in, marker);
  } catch (const OutputError& e) {
    throw OutputError(fmt::format("{}: {}", dir_in.string(), e.what()));
  }
  fs::path dir = fs::absolute(dir_in).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
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
    remove_stale_temporaries(dir);
    if (holds_exactly(dir, files, keep)) return WriteOutcome::kUnchanged;
  } else {
    fs::create_directories(dir.parent_path(), ec);
    if (ec)
      throw OutputError(
          fmt::format("{}: cannot create: {}", dir.parent_path().string(), ec.message()));
    remove_stale_temporaries(dir);
  }

  const fs::path temp =
      dir.parent_path() / fmt::format(".{}{}{}", dir.filename().string(), kTempTag, getpid());
  fs::remove_all(temp, ec);
  std::optional<TempLock> lock;  // held until the folder is in place or removed
  try {
    fs::create_directory(temp);
    lock.emplace(::open(temp.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
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
