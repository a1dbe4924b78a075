// Verilator prints a failed RTL assertion's message (its $error text) on stdout and keeps
// only a flag; the driver wants the message for its report and JSON summary. An OutputTap
// puts a tee in front of stdout while it lives: everything still reaches the original
// stdout, in order, and the first assertion line printed since the last take is kept.
// Depends on no design.
#pragma once

#include <cstdio>
#include <string>

namespace npugen::tb {

class OutputTap {
 public:
  /// Installs the tee as stdout (glibc's stdout is assignable); if it cannot, stdout stays
  /// as it was and no message is ever kept.
  OutputTap();
  ~OutputTap();
  OutputTap(const OutputTap&) = delete;
  OutputTap& operator=(const OutputTap&) = delete;

  /// The first "Assertion failed" line Verilator printed since the last call, from its
  /// file name on ("<file>.sv:<line>: Assertion failed in <scope>: <message>"); empty
  /// when none. Forgets it.
  std::string take_assertion();

  /// Called with what is written to the tee (the cookie's write function).
  void write(const char* data, size_t size);

 private:
  std::FILE* original_ = nullptr;
  std::FILE* tee_ = nullptr;
  std::string line_;       ///< the line being written
  std::string assertion_;  ///< the first assertion line not yet taken
};

}  // namespace npugen::tb
