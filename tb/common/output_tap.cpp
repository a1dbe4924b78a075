#include "common/output_tap.hpp"

#include <sys/types.h>

#include <string_view>
#include <utility>

namespace npugen::tb {
namespace {

ssize_t tee_write(void* cookie, const char* data, size_t size) {
  static_cast<OutputTap*>(cookie)->write(data, size);
  return static_cast<ssize_t>(size);
}

// Verilator's line for a failed assertion: "[<time>] %Error: <file>:<line>: Assertion failed
// in <scope>: <message>" (then "%Error: <file>:<line>: Verilog $stop", which says less).
constexpr std::string_view kError = "%Error: ";
constexpr std::string_view kAssertion = "Assertion failed in ";

}  // namespace

OutputTap::OutputTap() {
  cookie_io_functions_t io{};
  io.write = tee_write;
  std::FILE* tee = fopencookie(this, "w", io);
  if (tee == nullptr) return;
  std::fflush(stdout);
  std::setvbuf(tee, nullptr, _IOLBF, BUFSIZ);  // whole lines, in order with stderr
  original_ = stdout;
  tee_ = tee;
  stdout = tee_;
}

OutputTap::~OutputTap() {
  if (tee_ == nullptr) return;
  std::fflush(tee_);
  stdout = original_;
  std::fclose(tee_);
  std::fflush(stdout);
}

void OutputTap::write(const char* data, size_t size) {
  std::fwrite(data, 1, size, original_);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] != '\n') {
      line_ += data[i];
      continue;
    }
    const size_t error = line_.find(kError);
    if (assertion_.empty() && error != std::string::npos &&
        line_.find(kAssertion) != std::string::npos) {
      assertion_ = line_.substr(error + kError.size());
    }
    line_.clear();
  }
}

std::string OutputTap::take_assertion() {
  std::fflush(stdout);
  return std::exchange(assertion_, {});
}

}  // namespace npugen::tb
