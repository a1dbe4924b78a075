// Writes random valid configurations (blocks/random_config.hpp) for the test suite and for
// hunting corners by hand:
//
//   random_configs --count N --seed S --out DIR [--full]
//
// DIR/rand_S_I.yaml for I = 0..N-1, the same files for the same seed on every platform;
// one line per file names the blocks it enables. --full draws over the schema's whole
// ranges instead of sizes that co-simulate in seconds.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <random>

#include "blocks/block.hpp"
#include "blocks/random_config.hpp"
#include "util/output_tree.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Write random valid npugen configurations"};
  unsigned count = 10;
  uint64_t seed = 1;
  std::string out;
  bool full = false;
  app.add_option("--count", count, "Configurations to write")->capture_default_str();
  app.add_option("--seed", seed, "Seed of the draw")->capture_default_str();
  app.add_option("--out", out, "Output folder")->required();
  app.add_flag("--full", full, "The schema's whole ranges (designs may be large)");
  CLI11_PARSE(app, argc, argv);

  std::filesystem::create_directories(out);
  std::mt19937_64 rng(seed);
  unsigned rejected = 0;
  for (unsigned i = 0; i < count; ++i) {
    const std::string name = fmt::format("rand_{}_{}", seed, i);
    const auto drawn = npugen::blocks::random_config(rng, name, {!full});
    rejected += static_cast<unsigned>(drawn.rejections.size());
    for (const auto& why : drawn.rejections) std::printf("redrawn: %s\n", why.c_str());
    const auto path = std::filesystem::path(out) / (name + ".yaml");
    npugen::util::write_file_atomically(
        path,
        fmt::format("# npugen random configuration: seed {}, draw {}\n{}", seed, i, drawn.yaml));
    const auto config = *npugen::blocks::load_config_text(drawn.yaml, path.string()).config;
    std::string blocks;
    for (const auto* b : npugen::blocks::generated(config)) blocks += fmt::format(" {}", b->name());
    std::printf("%s:%s\n", path.c_str(), blocks.c_str());
  }
  std::printf("%u configuration(s), %u draw(s) the validator refused and were redrawn\n", count,
              rejected);
  return 0;
}
