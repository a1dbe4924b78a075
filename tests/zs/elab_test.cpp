// The zero-skipping array's elaboration: a level switched off generates no logic.
#include <catch2/catch.hpp>

#include "blocks/block.hpp"
#include "elab/design.hpp"
#include "emit/design_emitter.hpp"

namespace {

npugen::util::FileMap zs_files(const std::string& levels) {
  const auto r = npugen::blocks::load_config_text(
      "pe_array: {tiles: 4, lanes: 4}\nzs: {enabled: true, act_rows_per_cycle: 1, levels: " +
          levels + "}\n",
      "zs.yaml");
  REQUIRE(r.config);
  return npugen::emit::emit_design(npugen::elab::elaborate(*r.config));
}

bool has(const npugen::util::FileMap& files, const std::string& path) {
  return files.find(path) != files.end();
}

}  // namespace

TEST_CASE("a zero-skipping level switched off generates no logic and no control bits", "[zs]") {
  const auto both = zs_files("[{lookahead: 1, lookaside: 1}, {lookahead: 1, lookaside: 1}]");
  CHECK(has(both, "rtl/npu_zs_lane_mux.sv"));
  CHECK(has(both, "rtl/npu_zs_prefetch_mux.sv"));
  CHECK(has(both, "rtl/npu_zs_result_demux.sv"));
  CHECK(has(both, "docs/control_word.md"));
  CHECK_FALSE(has(both, "sim/npu_pe_array_icarus_tb.sv"));  // the dense replay bench

  const auto intra = zs_files("[{lookahead: 1, lookaside: 1}, {enabled: false}]");
  CHECK(has(intra, "rtl/npu_zs_lane_mux.sv"));
  CHECK_FALSE(has(intra, "rtl/npu_zs_prefetch_mux.sv"));
  CHECK_FALSE(has(intra, "rtl/npu_zs_result_demux.sv"));
  CHECK(intra.at("docs/control_word.md").find("tile_offset") == std::string::npos);
  CHECK(intra.at("docs/control_word.md").find("dest[t]") == std::string::npos);

  const auto inter = zs_files("[{enabled: false}, {lookahead: 1, lookaside: 0}]");
  CHECK_FALSE(has(inter, "rtl/npu_zs_lane_mux.sv"));
  CHECK(has(inter, "rtl/npu_zs_prefetch_mux.sv"));
  CHECK_FALSE(has(inter, "rtl/npu_zs_result_demux.sv"));
  CHECK(inter.at("docs/control_word.md").find("lane_select") == std::string::npos);
  CHECK(inter.at("rtl/npu_zs_array.sv").find("u_lane_mux") == std::string::npos);
  CHECK(inter.at("rtl/npu_zs_array.sv").find("u_result_demux") == std::string::npos);

  // Both off: the window loader still skips rows empty in every tile; no mux, no demux.
  const auto off = zs_files("[{enabled: false}, {enabled: false}]");
  CHECK_FALSE(has(off, "rtl/npu_zs_lane_mux.sv"));
  CHECK_FALSE(has(off, "rtl/npu_zs_prefetch_mux.sv"));
  CHECK_FALSE(has(off, "rtl/npu_zs_result_demux.sv"));
}
