#include "config/config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "blocks/block.hpp"
#include "blocks/pe_array/pe_array.hpp"

namespace fs = std::filesystem;
using npugen::blocks::load_config;
using npugen::blocks::load_config_text;

namespace {

struct Expectation {
  int line;
  std::string key;  // "-" for none
  std::string text;
};

std::vector<Expectation> expectations(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::vector<Expectation> out;
  static const std::regex kExpect(R"(^# expect: (\d+) (\S+) (.+)$)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, kExpect)) {
      out.push_back({std::stoi(m[1]), m[2], m[3]});
    }
  }
  return out;
}

// The corpus: tests/bad_configs (the configuration as a whole) and every block's
// tests/<block>/bad_configs.
std::vector<fs::path> bad_configs() {
  std::vector<fs::path> out;
  for (const auto& folder : fs::directory_iterator(fs::path(NPUGEN_SOURCE_DIR) / "tests")) {
    const fs::path corpus =
        folder.path().filename() == "bad_configs" ? folder.path() : folder.path() / "bad_configs";
    if (!fs::is_directory(corpus)) continue;
    for (const auto& entry : fs::directory_iterator(corpus)) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every bad config is rejected with the line, key and problem", "[config]") {
  int files = 0;
  for (const fs::path& path : bad_configs()) {
    const fs::directory_entry entry(path);
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    const auto expected = expectations(entry.path());
    INFO("file " << entry.path().string());
    REQUIRE_FALSE(expected.empty());
    const auto result = load_config(entry.path());
    CHECK_FALSE(result.config.has_value());
    std::string all;
    for (const auto& d : result.diagnostics) all += d.format() + "\n";
    INFO("diagnostics:\n" << all);
    for (const auto& e : expected) {
      bool found = false;
      for (const auto& d : result.diagnostics) {
        const std::string text = d.format();
        found = found || (d.line == e.line && (e.key == "-" || d.key_path == e.key) &&
                          text.find(e.text) != std::string::npos &&
                          text.rfind(entry.path().string(), 0) == 0);
      }
      INFO("expected line " << e.line << ", key " << e.key << ", text: " << e.text);
      CHECK(found);
    }
  }
  CHECK(files >= 25);
}

TEST_CASE("diagnostics carry file:line:column and the key path", "[config]") {
  const auto r = load_config_text("pe_array:\n  tiles: 3\n  lanes: -1\n", "mem.yaml");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].format() ==
        "mem.yaml:3:10: error: pe_array.lanes: -1 is out of range: expected an integer from 1 "
        "to 1024");
}

TEST_CASE("a missing file is an error naming it", "[config]") {
  const auto r = load_config("/nonexistent/npugen.yaml");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].format() == "/nonexistent/npugen.yaml: error: no such file");
}

TEST_CASE("defaults are filled in and the hash follows the resolved values", "[config]") {
  const auto a = load_config_text("pe_array: {tiles: 2, lanes: 3}\n", "a.yaml");
  REQUIRE(a.config);
  CHECK(npugen::blocks::pe_array::params(*a.config).weight_width == 8);
  CHECK(npugen::blocks::pe_array::params(*a.config).acc_width == 32);
  CHECK(a.config->design.name == "npu");
  // Spelling a default out does not change the design, so not the hash either.
  const auto b = load_config_text(
      "pe_array: {tiles: 2, lanes: 3, weight: {width: 8}}\ndesign: {module_prefix: npu}\n",
      "b.yaml");
  REQUIRE(b.config);
  CHECK(npugen::config::config_hash(*a.config) == npugen::config::config_hash(*b.config));
  const auto c = load_config_text("pe_array: {tiles: 2, lanes: 4}\n", "c.yaml");
  REQUIRE(c.config);
  CHECK(npugen::config::config_hash(*a.config) != npugen::config::config_hash(*c.config));
}

TEST_CASE("every shipped config is valid", "[config]") {
  for (const auto& entry : fs::directory_iterator(fs::path(NPUGEN_SOURCE_DIR) / "configs")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    const auto r = load_config(entry.path());
    std::string all;
    for (const auto& d : r.diagnostics) all += d.format() + "\n";
    INFO(all);
    CHECK(r.config.has_value());
  }
}

TEST_CASE("the schema documents every key it reads, with rules", "[config]") {
  const auto schema = npugen::blocks::describe_schema();
  std::vector<std::string> paths;
  for (const auto& e : schema.entries) paths.push_back(e.path);
  for (const char* key : {"design.name",
                          "pe_array.tiles",
                          "pe_array.lanes",
                          "pe_array.weight.width",
                          "pe_array.activation.signed",
                          "pe_array.accumulator.width",
                          "pe_array.adder_tree.pipeline_stages",
                          "zs.levels",
                          "zs.levels[].lookahead",
                          "zs.levels[].lookaside",
                          "zs.act_rows_per_cycle",
                          "vq.rows",
                          "vq.row_weights",
                          "vq.copies",
                          "vq.min_vector_length",
                          "vq.weight_format",
                          "vq.memory",
                          "tasks.entries",
                          "tasks.queues",
                          "tasks.buffer_words",
                          "sim.seed"}) {
    CHECK(std::find(paths.begin(), paths.end(), key) != paths.end());
  }
  // Rules of the core and of blocks, each documented once.
  for (const char* key : {"pe_array.tiles", "zs.levels[1].lookaside", "vq.min_vector_length"}) {
    INFO(key);
    CHECK(std::count_if(schema.rules.begin(), schema.rules.end(), [&](const std::string& r) {
            return r.find(key) != std::string::npos;
          }) >= 1);
  }
  CHECK(std::set<std::string>(schema.rules.begin(), schema.rules.end()).size() ==
        schema.rules.size());
  for (const auto& e : schema.entries) {
    INFO(e.path);
    CHECK_FALSE(e.doc.empty());
  }
}

TEST_CASE("did-you-mean picks the closest known key", "[config]") {
  using npugen::config::did_you_mean;
  CHECK(did_you_mean("tilse", {"tiles", "lanes", "weight"}) == "tiles");
  CHECK(did_you_mean("acumulator", {"accumulator", "adder_tree"}) == "accumulator");
  CHECK(did_you_mean("zzzzzz", {"tiles", "lanes"}).empty());
}

namespace {

std::string all_diagnostics(const npugen::config::LoadResult& r) {
  std::string all;
  for (const auto& d : r.diagnostics) all += d.format() + "\n";
  return all;
}

// Every section with an `enabled` key, set to `on`, over keys that break its rules across
// keys (the kernel's and the window's fit to the input cannot break with the padding's rule,
// bad configs pin them).
std::string rules_broken(bool on) {
  const std::string e = on ? "true" : "false";
  return "pe_array: {tiles: 3, lanes: 2}\n"
         "zs: {enabled: " +
         e +
         ", levels: [{lookahead: 1, lookaside: 3}, "
         "{lookahead: 1, lookaside: 4}], act_rows_per_cycle: 5}\n"
         "vq: {enabled: " +
         e +
         ", row_weights: 4, min_vector_length: 8}\n"
         "agu: {enabled: " +
         e +
         ", max_kernel: 3, max_pad: 3, dataflows: [fc], mec_window: 8}\n"
         "post: {enabled: " +
         e +
         ", lanes: 2}\n"
         "planar: {enabled: " +
         e +
         ", max_window: 3, max_pad: 3, max_height: 65535, "
         "max_width: 65535, max_channels: 4096}\n"
         "sequencer: {enabled: " +
         e +
         ", cache_rows: 1}\n"
         "npu: {enabled: " +
         e + "}\n";
}

}  // namespace

TEST_CASE("a disabled section's keys are checked one by one, its rules only when enabled",
          "[config]") {
  // Disabled: every rule broken above is quiet.
  const auto off = load_config_text(rules_broken(false), "off.yaml");
  INFO(all_diagnostics(off));
  CHECK(off.config.has_value());
  // Enabled: each section's rules speak.
  const auto on = load_config_text(rules_broken(true), "on.yaml");
  const std::string all = all_diagnostics(on);
  INFO(all);
  CHECK_FALSE(on.config.has_value());
  for (const char* key :
       {"zs.levels[0].lookaside", "zs.levels[1].lookaside", "zs.act_rows_per_cycle",
        "vq.min_vector_length", "agu.max_pad", "agu.mec_window", "post.lanes", "planar.max_pad",
        "planar.max_channels", "planar.max_width", "sequencer.enabled", "npu.enabled"}) {
    INFO(key);
    CHECK(all.find(fmt::format(": error: {}: ", key)) != std::string::npos);
  }
  // A disabled section's key out of range, of the wrong type or unknown is still an error.
  for (const char* text :
       {"agu: {enabled: false, max_kernel: 99}",
        "planar: {enabled: false, modes: [max_pool, bogus]}", "vq: {enabled: false, rows: 12}",
        "zs: {enabled: false, max_rows: x}", "post: {lanes: 2, typo: 1}"}) {
    INFO(text);
    const auto r = load_config_text(std::string("pe_array: {tiles: 2, lanes: 2}\n") + text + "\n",
                                    "disabled.yaml");
    CHECK(r.diagnostics.size() == 1);
  }
  // A level switched off is not checked either (its lookaside counts 0).
  CHECK(load_config_text("pe_array: {tiles: 2, lanes: 2}\nzs: {enabled: true, levels: "
                         "[{enabled: false, lookaside: 4}], act_rows_per_cycle: 1}\n",
                         "level.yaml")
            .config.has_value());
}

TEST_CASE("a rule is not checked over a refused key (no message about its default)", "[config]") {
  // tasks.buffer_words out of range: its own message, and no NPU rule over its default.
  const auto npu = load_config(fs::path(NPUGEN_SOURCE_DIR) / "tests" / "npu" / "bad_configs" /
                               "buffer_words_out_of_range.yaml");
  INFO(all_diagnostics(npu));
  REQUIRE(npu.diagnostics.size() == 1);
  CHECK(npu.diagnostics[0].key_path == "tasks.buffer_words");
  // An accumulator width that is not a number: no rule about a 32-bit accumulator.
  const auto acc = load_config_text(
      "pe_array: {tiles: 2, lanes: 2, weight: {width: 24}, activation: {width: 16}, "
      "accumulator: {width: wide}}\n",
      "acc.yaml");
  INFO(all_diagnostics(acc));
  CHECK(acc.diagnostics.size() == 1);
  // An unknown dataflow is refused; the MEC rule does not read the list without it.
  const auto flows = load_config_text(
      "pe_array: {tiles: 2, lanes: 2}\nagu: {enabled: true, dataflows: [convv], mec_window: 8}\n",
      "flows.yaml");
  INFO(all_diagnostics(flows));
  CHECK(flows.diagnostics.size() == 1);
  // A vq row of 3 weights is refused (not a power of two); no rule compares vectors with it.
  const auto vq = load_config_text(
      "pe_array: {tiles: 2, lanes: 2}\nvq: {enabled: true, row_weights: 3, min_vector_length: 4}\n",
      "vq.yaml");
  INFO(all_diagnostics(vq));
  CHECK(vq.diagnostics.size() == 1);
  // A refused section holds its keys: a scalar zs levels list refuses the levels' rules.
  const auto levels = load_config_text(
      "pe_array: {tiles: 2, lanes: 2}\nzs: {enabled: true, levels: 3, act_rows_per_cycle: 3}\n",
      "levels.yaml");
  INFO(all_diagnostics(levels));
  CHECK(levels.diagnostics.size() == 1);
}
