// The dense PE array's elaboration: pipeline registers and the adder tree's shape.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "blocks/block.hpp"
#include "blocks/pe_array/pe_array.hpp"
#include "elab/design.hpp"

using npugen::blocks::pe_array::spread_registers;

TEST_CASE("pipeline registers are spread evenly and the last closes the tree", "[pe_array]") {
  CHECK(spread_registers(0, 4) == std::vector<bool>{false, false, false, false});
  CHECK(spread_registers(1, 4) == std::vector<bool>{false, false, false, true});
  CHECK(spread_registers(2, 4) == std::vector<bool>{false, true, false, true});
  CHECK(spread_registers(4, 4) == std::vector<bool>{true, true, true, true});
  CHECK(spread_registers(1, 1) == std::vector<bool>{true});
  CHECK_THROWS(spread_registers(5, 4));
}

TEST_CASE("the adder tree grows one bit a level and halves its nodes", "[pe_array]") {
  const auto r = npugen::blocks::load_config_text(
      "pe_array: {tiles: 3, lanes: 5, weight: {width: 6}, activation: {width: 7, signed: "
      "false}, accumulator: {width: 20}, adder_tree: {pipeline_stages: 2}}\n",
      "t.yaml");
  REQUIRE(r.config);
  const auto d = npugen::elab::elaborate(*r.config);
  const auto* dense = d.find<npugen::blocks::pe_array::Design>();
  REQUIRE(dense != nullptr);
  const auto& pe = dense->array;
  CHECK(pe.params.acc_signed());
  CHECK(pe.product_width == 13);
  REQUIRE(pe.levels.size() == 4);  // 5 -> 3 -> 2 -> 1
  CHECK(pe.levels[1].nodes == 3);
  CHECK(pe.levels[2].nodes == 2);
  CHECK(pe.levels[3].nodes == 1);
  CHECK(pe.sum_width == 16);
  CHECK(pe.params.latency() == 3);
  int registered = 0;
  for (const auto& l : pe.levels) registered += l.registered ? 1 : 0;
  CHECK(registered == 2);
  CHECK(pe.levels.back().registered);
  CHECK(d.top == "npu_pe_array");
  CHECK(pe.tile_module == "npu_pe_array_tile");
  CHECK(pe.tree_module == "npu_pe_array_adder_tree");
}

TEST_CASE("the largest depth registers the tile's inputs too, and no depth beyond it fits",
          "[pe_array]") {
  auto array = [](unsigned stages) {
    const auto r = npugen::blocks::load_config_text(
        fmt::format("pe_array: {{tiles: 3, lanes: 5, adder_tree: {{pipeline_stages: {}}}}}\n",
                    stages),
        "t.yaml");
    return r;
  };
  for (unsigned stages = 0; stages <= 5; ++stages) {
    const auto r = array(stages);
    REQUIRE(r.config);
    const auto d = npugen::elab::elaborate(*r.config);
    const auto& pe = d.find<npugen::blocks::pe_array::Design>()->array;
    int registered = 0;
    for (const auto& l : pe.levels) registered += l.registered ? 1 : 0;
    // 5 lanes: 4 positions in the tree (the products and 3 levels), then the inputs.
    CHECK(pe.input_register == (stages == 5));
    CHECK(registered == static_cast<int>(std::min(stages, 4U)));
    CHECK(pe.params.latency() == stages + 1);
  }
  const auto six = array(6);
  REQUIRE_FALSE(six.config);
  REQUIRE_FALSE(six.diagnostics.empty());
  CHECK_THAT(six.diagnostics.front().format(),
             Catch::Contains("6 pipeline stages do not fit a tree over 5 lanes: it has 5"));
}
