#include "util/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace npugen::util {
namespace {

std::string open_problem(int error) {
  switch (error) {
    case ENOENT:
      return "no such file";
    case ENOTDIR:
      return "no such file (a folder on its path is a file)";
    case EACCES:
      return "cannot be read: permission denied";
    default:
      return std::string("cannot be read: ") + std::strerror(error);
  }
}

// What a file that is not a regular file is, as the message says it.
std::string kind_problem(mode_t mode) {
  const char* kind = S_ISDIR(mode)    ? "a directory"
                     : S_ISFIFO(mode) ? "a named pipe (FIFO)"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "not an ordinary file";
  return std::string("is ") + kind + ", not a regular file";
}

// Opens without blocking (O_NONBLOCK: opening a FIFO for reading would otherwise wait
// for a writer) and checks the kind on the open descriptor, so nothing can be swapped in
// between the check and the read.
class Descriptor {
 public:
  explicit Descriptor(const std::filesystem::path& file)
      : fd_(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)) {
    if (fd_ < 0) throw InputError(open_problem(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw InputError(open_problem(errno));
    if (!S_ISREG(st.st_mode)) throw InputError(kind_problem(st.st_mode));
    size_ = static_cast<size_t>(st.st_size);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] size_t size() const { return size_; }

 private:
  int fd_;
  size_t size_ = 0;
};

}  // namespace

std::string read_input_file(const std::filesystem::path& file) {
  const Descriptor d(file);
  std::string text;
  text.reserve(d.size());
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(d.fd(), buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(std::string("cannot be read: ") + std::strerror(errno));
    }
    text.append(buffer, static_cast<size_t>(n));
  }
  return text;
}

void require_regular_file(const std::filesystem::path& file) { const Descriptor d(file); }

}  // namespace npugen::util
