// Wall time, as npugen bench measures it.
#pragma once

#include <chrono>

namespace npugen::util {

/// Seconds since `start` (a steady_clock reading).
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace npugen::util
