// npugen timing's reading of OpenSTA's report: the worst paths of a flattened netlist whose
// flip-flops are named after their register bits, and the block instance a path end is in.
#include <catch2/catch.hpp>
#include <string>

#include "timing/sta_report.hpp"

using npugen::timing::parse_sta_log;
using npugen::timing::top_instance;

namespace {

// Two setup paths (the worse second) and a hold path whose endpoint OpenSTA wraps.
const char* const kLog = R"(npugen-begin setup
Startpoint: u_planar.cur_q_reg (rising edge-triggered flip-flop clocked by clk_i)
Endpoint: u_planar.rhi_q[5]_reg (rising edge-triggered flip-flop clocked by clk_i)
Path Group: clk_i
Path Type: max

   Delay     Time   Description
-----------------------------------------------------------
   0.000    0.000 ^ u_planar.cur_q_reg/CLK (DFFPOSX1)
   0.181    0.181 v u_planar.cur_q_reg/Q (DFFPOSX1)
   0.130    0.311 v _57308_/Y (BUFX4)
   0.000    0.311 v u_planar.rhi_q[5]_reg/D (DFFPOSX1)
            0.311   data arrival time

   5.000    5.000   clock clk_i (rise edge)
            4.523   data required time
-----------------------------------------------------------
            4.523   data required time
           -0.311   data arrival time
-----------------------------------------------------------
            4.212   slack (MET)
Startpoint: g_lane[0].op_m[19]_reg (rising edge-triggered flip-flop clocked by clk_i)
Endpoint: g_lane[0].g_halves.high_half_q[46]_reg
          (rising edge-triggered flip-flop clocked by clk_i)
Path Group: clk_i
Path Type: max

   0.000    0.000 ^ g_lane[0].op_m[19]_reg/CLK (DFFPOSX1)
   0.174    0.174 v g_lane[0].op_m[19]_reg/Q (DFFPOSX1)
   0.171    4.346 v _36711_/Y (BUFX2)
   0.000    4.346 v g_lane[0].g_halves.high_half_q[46]_reg/D (DFFPOSX1)
            4.346   data arrival time
            4.523   data required time
            4.523   data required time
           -4.346   data arrival time
            0.177   slack (MET)
npugen-end setup
npugen-begin hold
Startpoint: dr_grp_q[2]_reg (rising edge-triggered flip-flop clocked by clk_i)
Endpoint: u_post.g_lane[0].u_table.g_macro.u_macro
          (rising edge-triggered flip-flop clocked by clk_i)
Path Group: clk_i
Path Type: min

   0.000    0.000 ^ dr_grp_q[2]_reg/CLK (DFFPOSX1)
   0.125    0.125 ^ dr_grp_q[2]_reg/Q (DFFPOSX1)
   0.000    0.125 ^ u_post.g_lane[0].u_table.g_macro.u_macro/raddr_i[2] (macro_64x70)
            0.125   data arrival time
            0.200   data required time
            0.200   data required time
           -0.125   data arrival time
           -0.075   slack (VIOLATED)
npugen-end hold
)";

}  // namespace

TEST_CASE("timing: the worst paths of a flattened netlist, by their RTL names", "[timing]") {
  const auto r = parse_sta_log(kLog);
  REQUIRE(r.setup.found);
  CHECK(r.setup.slack_ns == Approx(0.177));
  CHECK(r.setup.startpoint == "g_lane[0].op_m[19]_reg");
  CHECK(r.setup.endpoint == "g_lane[0].g_halves.high_half_q[46]_reg");
  CHECK(r.setup.arrival_ns == Approx(4.346));
  CHECK(r.setup.required_ns == Approx(4.523));
  REQUIRE(r.hold.found);
  CHECK(r.hold.slack_ns == Approx(-0.075));
  CHECK(r.hold.endpoint == "u_post.g_lane[0].u_table.g_macro.u_macro");
  CHECK_FALSE(r.reset.found);
}

TEST_CASE("timing: the block instance a path end is in", "[timing]") {
  // Hierarchical netlists separate instances with '/'.
  CHECK(top_instance("u_post/g_lane[0].u_table/u_macro") == "u_post");
  // Flattened: the first dotted scope when it is an instance (the RTL names them u_*).
  CHECK(top_instance("u_planar.cur_q_reg") == "u_planar");
  CHECK(top_instance("u_sequencer.u_post.g_lane[0].product_q[61]_reg") == "u_sequencer");
  // At the top: a generate scope, a register, a port.
  CHECK(top_instance("g_lane[0].op_m[19]_reg").empty());
  CHECK(top_instance("cons_q_reg").empty());
  CHECK(top_instance("step_act_i[8]").empty());
  CHECK(top_instance("u_x").empty());  // a name with no scope is not in an instance
}
