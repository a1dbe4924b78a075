#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "elab/design.hpp"
#include "emit/design_emitter.hpp"

using npugen::elab::spread_registers;

TEST_CASE("pipeline registers are spread evenly and the last closes the tree", "[elab]") {
  CHECK(spread_registers(0, 4) == std::vector<bool>{false, false, false, false});
  CHECK(spread_registers(1, 4) == std::vector<bool>{false, false, false, true});
  CHECK(spread_registers(2, 4) == std::vector<bool>{false, true, false, true});
  CHECK(spread_registers(4, 4) == std::vector<bool>{true, true, true, true});
  CHECK(spread_registers(1, 1) == std::vector<bool>{true});
  CHECK_THROWS(spread_registers(5, 4));
}

TEST_CASE("the adder tree grows one bit a level and halves its nodes", "[elab]") {
  const auto r = npugen::config::load_config_text(
      "pe_array: {tiles: 3, lanes: 5, weight: {width: 6}, activation: {width: 7, signed: "
      "false}, accumulator: {width: 20}, adder_tree: {pipeline_stages: 2}}\n",
      "t.yaml");
  REQUIRE(r.config);
  const auto d = npugen::elab::elaborate(*r.config);
  const auto& pe = d.pe_array;
  CHECK(pe.product_signed);
  CHECK(pe.product_width == 13);
  REQUIRE(pe.levels.size() == 4);  // 5 -> 3 -> 2 -> 1
  CHECK(pe.levels[1].nodes == 3);
  CHECK(pe.levels[2].nodes == 2);
  CHECK(pe.levels[3].nodes == 1);
  CHECK(pe.sum_width == 16);
  CHECK(pe.latency == 3);
  int registered = 0;
  for (const auto& l : pe.levels) registered += l.registered ? 1 : 0;
  CHECK(registered == 2);
  CHECK(pe.levels.back().registered);
  CHECK(d.top == "npu_pe_array");
}

namespace {

npugen::util::FileMap zero_skip_files(const std::string& levels) {
  const auto r = npugen::config::load_config_text(
      "pe_array: {tiles: 4, lanes: 4, zero_skip: {enabled: true, act_rows_per_cycle: 1, "
      "levels: " +
          levels + "}}\n",
      "zs.yaml");
  REQUIRE(r.config);
  return npugen::emit::emit_design(npugen::elab::elaborate(*r.config));
}

bool has(const npugen::util::FileMap& files, const std::string& path) {
  return files.find(path) != files.end();
}

}  // namespace

TEST_CASE("a zero-skipping level switched off generates no logic and no control bits",
          "[elab][zero_skip]") {
  const auto both = zero_skip_files("[{lookahead: 1, lookaside: 1}, {lookahead: 1, lookaside: 1}]");
  CHECK(has(both, "rtl/npu_lane_mux.sv"));
  CHECK(has(both, "rtl/npu_prefetch_mux.sv"));
  CHECK(has(both, "rtl/npu_result_demux.sv"));
  CHECK(has(both, "docs/control_word.md"));
  CHECK_FALSE(has(both, "sim/npu_pe_array_icarus_tb.sv"));  // the dense replay bench

  const auto intra = zero_skip_files("[{lookahead: 1, lookaside: 1}, {enabled: false}]");
  CHECK(has(intra, "rtl/npu_lane_mux.sv"));
  CHECK_FALSE(has(intra, "rtl/npu_prefetch_mux.sv"));
  CHECK_FALSE(has(intra, "rtl/npu_result_demux.sv"));
  CHECK(intra.at("docs/control_word.md").find("tile_offset") == std::string::npos);
  CHECK(intra.at("docs/control_word.md").find("dest[t]") == std::string::npos);

  const auto inter = zero_skip_files("[{enabled: false}, {lookahead: 1, lookaside: 0}]");
  CHECK_FALSE(has(inter, "rtl/npu_lane_mux.sv"));
  CHECK(has(inter, "rtl/npu_prefetch_mux.sv"));
  CHECK_FALSE(has(inter, "rtl/npu_result_demux.sv"));
  CHECK(inter.at("docs/control_word.md").find("lane_select") == std::string::npos);
  CHECK(inter.at("rtl/npu_pe_array.sv").find("u_lane_mux") == std::string::npos);
  CHECK(inter.at("rtl/npu_pe_array.sv").find("u_result_demux") == std::string::npos);

  // Both off: the sequencer still skips rows empty in every tile; no mux, no demux.
  const auto off = zero_skip_files("[{enabled: false}, {enabled: false}]");
  CHECK_FALSE(has(off, "rtl/npu_lane_mux.sv"));
  CHECK_FALSE(has(off, "rtl/npu_prefetch_mux.sv"));
  CHECK_FALSE(has(off, "rtl/npu_result_demux.sv"));
}
