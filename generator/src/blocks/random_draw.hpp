// What blocks draw random valid configurations with: raw 64-bit Mersenne Twister output
// only (no library distributions), so a seed gives the same configurations everywhere.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace npugen::blocks {

class RandomDraw {
 public:
  RandomDraw(std::mt19937_64& rng, bool small) : rng_(rng), small_(small) {}

  /// Sizes that co-simulate in seconds (at most 64 multipliers, codebooks of at most 2^16
  /// bits, memories of at most 2^20 words, short simulations); false: the whole schema.
  [[nodiscard]] bool small() const { return small_; }
  uint64_t below(uint64_t n) { return rng_() % n; }
  /// True with probability percent / 100.
  bool chance(unsigned percent) { return below(100) < percent; }
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
  }
  /// The ends of [lo, hi] a quarter of the time each, otherwise anything in between.
  int64_t corner(int64_t lo, int64_t hi) {
    const uint64_t r = below(4);
    return r == 0 ? lo : r == 1 ? hi : range(lo, hi);
  }
  /// Sizes favour 1, the powers of two and the odd sizes between them.
  int64_t size(int64_t lo, int64_t hi) {
    if (chance(40)) {
      std::vector<int64_t> powers;
      for (int64_t p = 1; p <= hi; p *= 2) {
        if (p >= lo) powers.push_back(p);
      }
      if (!powers.empty()) return powers[below(powers.size())];
    }
    // Log-uniform: as many small sizes as large ones.
    int bits = 0;
    while ((int64_t{1} << (bits + 1)) <= hi) ++bits;
    const int64_t top =
        std::min<int64_t>(hi, (int64_t{2} << below(static_cast<uint64_t>(bits) + 1)) - 1);
    return range(lo, std::max(lo, top));
  }
  int64_t power_of_two(int lo_log2, int hi_log2) { return int64_t{1} << range(lo_log2, hi_log2); }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }

 private:
  std::mt19937_64& rng_;
  bool small_;
};

/// A section being drawn: most keys are written, some left out so their defaults are used.
class DrawnSection {
 public:
  DrawnSection(RandomDraw& draw, YAML::Node node) : draw_(draw), node_(std::move(node)) {}
  template <typename T>
  void set(const char* key, const T& value) {
    if (draw_.chance(88)) node_[key] = value;
  }
  template <typename T>
  void always(const char* key, const T& value) {
    node_[key] = value;
  }

 private:
  RandomDraw& draw_;
  YAML::Node node_;
};

}  // namespace npugen::blocks
