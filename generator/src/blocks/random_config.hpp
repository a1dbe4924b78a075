// Random valid configurations over the whole schema: every key drawn from its range, the
// corners favoured (1, powers of two and odd sizes, the narrowest and widest formats,
// levels and blocks switched on and off), each draw checked by the real validator. Used
// to find the corners a fixed set of example configurations misses: whatever `npugen
// check` accepts must generate lint-clean RTL and pass every block's co-simulation.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace npugen::blocks {

struct RandomConfigOptions {
  /// Keep sizes small enough that every block verilates and co-simulates in seconds
  /// (at most 64 multipliers, codebooks of at most 2^16 bits, memories of at most 2^20
  /// words, short simulations). Off: the schema's full ranges, but for sim.cycles (1,000 to
  /// 200,000: a budget every co-simulation reaches its checks in).
  bool small = true;
};

struct RandomConfig {
  std::string yaml;  ///< a configuration that load_config_text accepts
  /// The first message of each draw the validator refused before this one (a sampler in
  /// step with the schema's rules has none).
  std::vector<std::string> rejections;
};

/// One configuration named `name`. Deterministic for the generator's state (raw
/// std::mt19937_64 output only, no library distributions).
RandomConfig random_config(std::mt19937_64& rng, const std::string& name,
                           const RandomConfigOptions& options = {});

}  // namespace npugen::blocks
