// Reading and writing NumPy .npy files (format versions 1.0 to 3.0) of integers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace npugen::util {

/// A problem with a .npy file; the message names the problem (not the file).
struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An array in C order: integers widened to 64 bits (values), or, when floating point
/// is allowed and the file holds it, numbers as doubles (reals).
struct NpyArray {
  std::vector<size_t> shape;
  std::vector<int64_t> values;  ///< integer arrays
  std::vector<double> reals;    ///< floating-point arrays (float16, float32, float64)
  bool floating = false;
  std::string dtype;  ///< as written in the file, e.g. "<i4"
};

/// Parses .npy bytes holding signed or unsigned integers of 1, 2, 4 or 8 bytes (and, with
/// allow_float, IEEE floats of 2, 4 or 8 bytes), either byte order, C order. Throws
/// NpyError naming what is wrong.
NpyArray parse_npy(const std::string& bytes, bool allow_float = false);
/// Reads and parses a file; NpyError when it cannot be read or is not such an array.
NpyArray read_npy(const std::filesystem::path& file, bool allow_float = false);

/// Element types the writer knows. For kFloat16 and kFloat32 the values given are the
/// numbers' IEEE bit patterns.
enum class NpyType { kInt8, kUint8, kInt16, kUint16, kInt32, kUint32, kInt64, kFloat16, kFloat32 };

/// Serialises an array (version 1.0 header, little endian, C order). Deterministic.
std::string npy_bytes(NpyType type, const std::vector<size_t>& shape,
                      const std::vector<int64_t>& values);

}  // namespace npugen::util
