// Reading and writing NumPy .npy files (format versions 1.0 to 3.0) of integers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
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
/// Reads and parses a regular file; NpyError when it cannot be read (missing, a directory,
/// a named pipe, ...) or is not such an array.
NpyArray read_npy(const std::filesystem::path& file, bool allow_float = false);

/// Bytes of data an array of this shape and item size holds, or nothing when the shape is
/// impossible: NumPy's rule, the product of the nonzero dimensions times the item size
/// fits a signed 64-bit size (checked at every multiplication).
std::optional<uint64_t> npy_data_bytes(const std::vector<size_t>& shape, size_t item_size);

/// Element types the writer knows. For kFloat16 and kFloat32 the values given are the
/// numbers' IEEE bit patterns.
enum class NpyType { kInt8, kUint8, kInt16, kUint16, kInt32, kUint32, kInt64, kFloat16, kFloat32 };

/// Serialises an array (version 1.0 header, little endian, C order). Deterministic.
/// Throws std::invalid_argument when `values` does not hold exactly the shape's elements.
std::string npy_bytes(NpyType type, const std::vector<size_t>& shape,
                      const std::vector<int64_t>& values);

}  // namespace npugen::util
