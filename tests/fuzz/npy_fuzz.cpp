// Fuzz target: the .npy reader. Whatever the bytes, parsing ends in an array whose values
// fill its shape exactly, or in NpyError (never another exception, a crash or a huge
// allocation: the claimed size is checked against the data first).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "util/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto a = npugen::util::parse_npy(bytes, /*allow_float=*/true);
    uint64_t count = 1;
    for (const size_t d : a.shape) count *= d;
    if ((a.floating ? a.reals.size() : a.values.size()) != count) std::abort();
    // Integer arrays written back (as int64, where NumPy could hold that shape) read back
    // the same.
    if (a.floating || !npugen::util::npy_data_bytes(a.shape, 8)) return 0;
    const auto again = npugen::util::parse_npy(
        npugen::util::npy_bytes(npugen::util::NpyType::kInt64, a.shape, a.values));
    if (again.values != a.values || again.shape != a.shape) std::abort();
  } catch (const npugen::util::NpyError&) {
  }
  return 0;
}
