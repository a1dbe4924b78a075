#include "config/random_config.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <vector>

#include "config/config.hpp"

namespace npugen::config {
namespace {

// Draws from raw 64-bit Mersenne Twister output, so a seed gives the same configurations
// on every platform.
class Draw {
 public:
  explicit Draw(std::mt19937_64& rng) : rng_(rng) {}

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
};

int ceil_log2(int64_t n) {
  int bits = 0;
  while ((int64_t{1} << bits) < n) ++bits;
  return bits;
}

// Every key of a section is written most of the time; left out, its default is used.
class Mapping {
 public:
  Mapping(Draw& draw, YAML::Node node) : draw_(draw), node_(std::move(node)) {}
  template <typename T>
  void set(const char* key, const T& value) {
    if (draw_.chance(88)) node_[key] = value;
  }
  template <typename T>
  void always(const char* key, const T& value) {
    node_[key] = value;
  }
  YAML::Node node() const { return node_; }

 private:
  Draw& draw_;
  YAML::Node node_;
};

struct Format {
  int width;
  bool is_signed;
};

Format draw_format(Draw& d, Mapping parent, const char* key) {
  const Format f{static_cast<int>(d.chance(35) ? 8 : d.corner(2, 32)), d.chance(70)};
  YAML::Node node(YAML::NodeType::Map);
  Mapping m(d, node);
  m.always("width", f.width);
  m.always("signed", f.is_signed);
  parent.always(key, node);
  return f;
}

void draw_pe_array(Draw& d, YAML::Node root, const RandomConfigOptions& o) {
  YAML::Node pe(YAML::NodeType::Map);
  Mapping m(d, pe);
  const int64_t max_multipliers = o.small ? 64 : 65536;
  const int64_t tiles = d.size(1, o.small ? 16 : 1024);
  const int64_t lanes = d.size(1, std::min<int64_t>(o.small ? 16 : 1024, max_multipliers / tiles));
  m.always("tiles", tiles);
  m.always("lanes", lanes);
  // An unsigned format is written in full (its default is signed).
  const Format w = draw_format(d, m, "weight");
  const Format a = draw_format(d, m, "activation");
  const int product = w.width + a.width;
  const int exact = std::min(64, product + ceil_log2(lanes));
  YAML::Node acc(YAML::NodeType::Map);
  acc["width"] =
      d.pick(std::vector<int>{product, exact, 64, static_cast<int>(d.range(product, 64))});
  // Left out, the accumulator is 32 bits: too narrow for wider products.
  if (product > 32) {
    m.always("accumulator", acc);
  } else {
    m.set("accumulator", acc);
  }
  YAML::Node tree(YAML::NodeType::Map);
  tree["pipeline_stages"] = d.range(0, ceil_log2(lanes) + 1);
  m.set("adder_tree", tree);

  if (d.chance(50)) {
    YAML::Node zs(YAML::NodeType::Map);
    Mapping z(d, zs);
    z.always("enabled", d.chance(80));
    YAML::Node levels(YAML::NodeType::Sequence);
    const int count = d.chance(80) ? 2 : 1;
    int window = 1;
    for (int i = 0; i < count; ++i) {
      YAML::Node level(YAML::NodeType::Map);
      Mapping l(d, level);
      const bool enabled = d.chance(80);
      l.always("enabled", enabled);
      const int64_t ahead = d.corner(0, o.small ? 3 : 4);
      // Lookaside reaches lanes (level 0) or tiles (level 1) of this array only.
      const int64_t aside_limit =
          i == 0 ? std::min<int64_t>(4, lanes - 1) : std::min<int64_t>(16, tiles - 1);
      const int64_t aside = aside_limit <= 0 ? 0 : d.corner(0, aside_limit);
      l.always("lookahead", ahead);
      l.always("lookaside", aside);
      if (enabled) window += static_cast<int>(ahead);
      levels.push_back(level);
    }
    z.always("levels", levels);
    z.always("act_rows_per_cycle", d.range(1, window));
    z.set("max_rows", d.chance(20) ? d.range(1, 3) : d.size(1, o.small ? 1024 : 1 << 20));
    const int64_t depth_limit = o.small && tiles * lanes > 8 ? 8 : 64;
    z.set("step_buffer_depth", d.corner(1, depth_limit));
    m.always("zero_skip", zs);
  }
  root["pe_array"] = pe;
}

void draw_vq(Draw& d, YAML::Node root, const RandomConfigOptions& o) {
  if (d.chance(20)) return;  // absent: not generated
  YAML::Node vq(YAML::NodeType::Map);
  Mapping m(d, vq);
  m.always("enabled", d.chance(75));
  static const std::vector<std::string> kFormats = {"int8",  "int2",  "int3",   "int16",  "int32",
                                                    "uint4", "uint8", "uint12", "uint32", "fp16",
                                                    "bf16",  "int5",  "uint2"};
  const std::string format = d.pick(kFormats);
  const int width = format == "fp16" || format == "bf16"
                        ? 16
                        : std::stoi(format.substr(format[0] == 'u' ? 4 : 3));
  const int64_t row_weights = d.power_of_two(0, 5);
  const int64_t copies = d.corner(1, 16);
  // Codebook bits in all copies: rows x M x width x P.
  const int64_t budget = o.small ? int64_t{1} << 16 : int64_t{1} << 40;
  int64_t rows = d.power_of_two(1, 16);
  while (rows > 2 && rows * row_weights * width * copies > budget) rows /= 2;
  m.always("rows", rows);
  m.always("row_weights", row_weights);
  m.always("copies", copies);
  m.always("min_vector_length", int64_t{1} << d.range(0, ceil_log2(row_weights)));
  m.always("weight_format", format);
  m.set("memory", d.chance(60) ? "ram" : "flops");
  root["vq"] = vq;
}

void draw_tasks(Draw& d, YAML::Node root, const RandomConfigOptions& o) {
  if (d.chance(20)) return;
  YAML::Node t(YAML::NodeType::Map);
  Mapping m(d, t);
  m.always("enabled", d.chance(75));
  m.set("entries", d.chance(20) ? d.range(33, 64) : d.size(1, 32));
  m.set("queues", d.corner(1, 8));
  m.set("neural_engines", d.corner(1, 8));
  m.set("planar_engines", d.corner(1, 8));
  m.set("config_queue_depth", d.corner(1, 16));
  m.set("buffer_words", d.chance(30) ? d.range(16, 4096) : d.size(16, int64_t{1} << 28));
  m.set("memory_words", d.size(64, o.small ? int64_t{1} << 20 : int64_t{1} << 30));
  m.set("memory_latency", d.chance(70) ? d.range(1, 8) : d.corner(1, 64));
  m.set("cycle_bits", d.corner(8, 32));
  m.set("planar_words_per_cycle", d.size(1, 1024));
  root["tasks"] = t;
}

void draw_sim(Draw& d, YAML::Node root, const RandomConfigOptions& o) {
  YAML::Node sim(YAML::NodeType::Map);
  Mapping m(d, sim);
  m.set("cycles", o.small ? d.range(1000, 6000) : d.size(1, 4'000'000'000));
  m.set("seed", d.range(0, 4'294'967'295));
  m.set("valid_probability", d.pick(std::vector<double>{0.01, 0.25, 0.5, 0.9, 1.0}));
  m.set("max_dot_length", d.size(1, o.small ? 256 : 65536));
  root["sim"] = sim;
}

std::string draw(std::mt19937_64& rng, const std::string& name, const RandomConfigOptions& o) {
  Draw d(rng);
  YAML::Node root(YAML::NodeType::Map);
  YAML::Node design(YAML::NodeType::Map);
  design["name"] = name;
  if (d.chance(60))
    design["module_prefix"] = d.chance(50) ? name : fmt::format("r{}", d.below(1000));
  if (d.chance(80))
    design["clock_mhz"] = d.pick(std::vector<double>{1, 100, 137.5, 200, 1000, 5000});
  root["design"] = design;
  draw_pe_array(d, root, o);
  draw_vq(d, root, o);
  draw_tasks(d, root, o);
  draw_sim(d, root, o);
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace

RandomConfig random_config(std::mt19937_64& rng, const std::string& name,
                           const RandomConfigOptions& options) {
  RandomConfig result;
  while (true) {
    result.yaml = draw(rng, name, options);
    const LoadResult loaded = load_config_text(result.yaml, name + ".yaml");
    if (loaded.config) return result;
    result.rejections.push_back(loaded.diagnostics.front().format());
  }
}

}  // namespace npugen::config
