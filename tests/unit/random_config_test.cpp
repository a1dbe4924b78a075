// The sampler of random valid configurations covers the whole schema: every key of the
// schema is drawn, with more than one value, and every draw passes the validator.
#include "blocks/random_config.hpp"

#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>

#include "blocks/block.hpp"
#include "config/config.hpp"

using namespace npugen::config;
using npugen::blocks::random_config;
using npugen::blocks::RandomConfig;

namespace {

// Leaf key paths and their values, with list elements as key[] (the schema's notation).
void collect(const YAML::Node& node, const std::string& path,
             std::map<std::string, std::set<std::string>>& out) {
  if (node.IsMap()) {
    for (const auto& kv : node) {
      const std::string key = kv.first.Scalar();
      collect(kv.second, path.empty() ? key : path + "." + key, out);
    }
  } else if (node.IsSequence()) {
    for (const auto& element : node) collect(element, path + "[]", out);
  } else {
    out[path].insert(node.Scalar());
  }
}

}  // namespace

TEST_CASE("random configurations cover every key of the schema and all are valid",
          "[random_config]") {
  std::mt19937_64 rng(7);
  std::map<std::string, std::set<std::string>> seen;
  size_t rejected = 0;
  std::set<std::string> hashes;
  for (int i = 0; i < 300; ++i) {
    const RandomConfig drawn = random_config(rng, "r");
    rejected += drawn.rejections.size();
    for (const auto& why : drawn.rejections) WARN("redrawn: " << why);
    const LoadResult loaded = npugen::blocks::load_config_text(drawn.yaml, "r.yaml");
    REQUIRE(loaded.config);
    hashes.insert(config_hash(*loaded.config));
    collect(YAML::Load(drawn.yaml), "", seen);
  }
  CHECK(rejected == 0);
  CHECK(hashes.size() == 300);
  for (const auto& entry : npugen::blocks::describe_schema().entries) {
    if (entry.type == "mapping" || entry.type == "list") continue;
    INFO(entry.path);
    REQUIRE(seen.count(entry.path) == 1);
    // Every key takes several values (design.name is the one given).
    if (entry.path != "design.name") CHECK(seen[entry.path].size() >= 2);
    if (entry.type == "boolean") CHECK(seen[entry.path] == std::set<std::string>{"false", "true"});
  }
}

TEST_CASE("the same seed draws the same configurations", "[random_config]") {
  std::mt19937_64 a(11), b(11);
  for (int i = 0; i < 20; ++i) CHECK(random_config(a, "x").yaml == random_config(b, "x").yaml);
}
