// Reading the files npugen is given (configurations, weights, task lists, networks,
// descriptors). Only regular files are read: a named pipe would block forever and a
// directory or device is never what the user meant, so they are refused, named for what
// they are, without waiting on them.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace npugen::util {

/// A file that cannot be read; the message names the problem (not the file), e.g.
/// "no such file" or "is a named pipe (FIFO), not a regular file".
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads a whole regular file. Never blocks on a FIFO or a device.
std::string read_input_file(const std::filesystem::path& file);

/// Throws InputError unless `file` is an existing, readable regular file (for paths
/// handed on to another program).
void require_regular_file(const std::filesystem::path& file);

}  // namespace npugen::util
