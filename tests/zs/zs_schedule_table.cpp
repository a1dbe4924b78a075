// Executed steps of npugen's zero-skipping preprocessing against the dense cycles and
// the lower bound, on uniform and structured sparsity, for several level settings; how
// much each level contributes. Prints a Markdown table (docs/zs.md shows it).
//
//   zs_schedule_table [--tiles T] [--rows C] [--lanes L] [--seed S]
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "npugen/golden/zs/schedule.hpp"

using namespace npugen::golden;

namespace {

HierTensor make(const std::string& pattern, unsigned tiles, unsigned rows, unsigned lanes,
                std::mt19937_64& rng) {
  HierTensor w{{lanes, tiles}, rows, std::vector<int64_t>(size_t{tiles} * rows * lanes, 0)};
  auto chance = [&](double p) { return static_cast<double>(rng() >> 11) * 0x1.0p-53 < p; };
  std::vector<double> tile(tiles, 1), lane(lanes, 1), row(rows, 1);
  double density = 1;
  if (pattern == "uniform 50%") density = 0.5;
  if (pattern == "uniform 75%") density = 0.25;
  if (pattern == "uniform 90%") density = 0.1;
  if (pattern == "pruned lanes") {
    density = 0.5;
    for (unsigned l = 0; l < lanes; ++l) lane[l] = l % 2 ? 0 : 1;  // half the lanes pruned
  }
  if (pattern == "uneven tiles") {
    for (unsigned t = 0; t < tiles; ++t) tile[t] = t % 4 == 0 ? 0.9 : 0.1;
  }
  if (pattern == "clustered empty rows") {
    density = 0.5;
    for (unsigned c = 0; c < rows; ++c) row[c] = (c / 8) % 2 ? 0 : 1;  // runs of 8 empty rows
  }
  for (unsigned t = 0; t < tiles; ++t) {
    for (unsigned c = 0; c < rows; ++c) {
      for (unsigned l = 0; l < lanes; ++l) {
        if (chance(density * tile[t] * row[c] * lane[l])) {
          w.values[(size_t{t} * rows + c) * lanes + l] = 1 + static_cast<int64_t>(rng() % 127);
        }
      }
    }
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned tiles = 16, rows = 256, lanes = 16;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string f = argv[i];
    const unsigned v = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
    if (f == "--tiles")
      tiles = v;
    else if (f == "--rows")
      rows = v;
    else if (f == "--lanes")
      lanes = v;
    else if (f == "--seed")
      seed = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", f.c_str());
      return 2;
    }
  }
  struct Setting {
    const char* name;
    std::vector<SkipDepth> levels;
  };
  const std::vector<Setting> settings = {{"intra (1,1) only", {{1, 1}, {0, 0}}},
                                         {"inter (1,1) only", {{0, 0}, {1, 1}}},
                                         {"intra (1,1) + inter (1,1)", {{1, 1}, {1, 1}}},
                                         {"intra (2,2) + inter (2,2)", {{2, 2}, {2, 2}}}};
  const std::vector<std::string> patterns = {"uniform 50%",  "uniform 75%",
                                             "uniform 90%",  "pruned lanes",
                                             "uneven tiles", "clustered empty rows"};
  std::printf(
      "%u tiles x %u rows x %u lanes, seed %llu; S0 = steps after the intra-tile level "
      "alone.\n\n",
      tiles, rows, lanes, static_cast<unsigned long long>(seed));
  std::printf(
      "| pattern | levels | dense C | S0 | steps S | lower bound | S / bound | C / S | "
      "removed by intra | removed by inter |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  int failures = 0;
  for (const auto& pattern : patterns) {
    std::mt19937_64 rng(seed);
    const HierTensor w = make(pattern, tiles, rows, lanes, rng);
    for (const auto& s : settings) {
      auto levels = s.levels;
      ScheduleStats stats;
      const HierSchedule schedule = preprocess(w, levels, &stats);
      if (!check_schedule(w, levels, schedule).empty()) ++failures;
      const LowerBound lb = lower_bound(w, levels);
      const uint64_t s0 = stats.steps_after_level[0];
      std::printf("| %s | %s | %u | %llu | %llu | %llu | %.3f | %.3f | %llu | %llu |\n",
                  pattern.c_str(), s.name, rows, static_cast<unsigned long long>(s0),
                  static_cast<unsigned long long>(stats.steps),
                  static_cast<unsigned long long>(lb.value),
                  lb.value ? static_cast<double>(stats.steps) / lb.value : 0.0,
                  stats.steps ? static_cast<double>(rows) / stats.steps : 0.0,
                  static_cast<unsigned long long>(rows - s0),
                  static_cast<unsigned long long>(s0 - stats.steps));
    }
  }
  if (failures) std::printf("\n%d schedule(s) broke the contract\n", failures);
  return failures ? 1 : 0;
}
