// What npugen timing reads from the tools' outputs: OpenSTA's report of a block (the
// sections its timing script marks) and Yosys's `stat -liberty`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npugen::timing {

/// The worst path of one kind (setup or hold), as OpenSTA reports it.
struct WorstPath {
  bool found = false;
  std::string startpoint, endpoint;  ///< instance or port names, hierarchy separated by '/'
  std::string group;                 ///< path group: clk_i or **async_default**
  double arrival_ns = 0;
  double required_ns = 0;
  double slack_ns = 0;
  int cells = 0;  ///< cells on the path (the logic levels, the start flip-flop included)
};

struct StaReport {
  WorstPath setup;           ///< the clock's worst setup path (its slack is the WNS)
  WorstPath hold;            ///< the clock's worst hold path
  WorstPath reset;           ///< the reset's worst recovery path
  double tns_ns = 0;         ///< the sum of the clock's negative setup slacks
  int setup_violations = 0;  ///< endpoints of negative setup slack
  int unconstrained_endpoints = 0;
  int transition_violations = 0;
  double worst_transition_ns = 0;     ///< of the violators (0: none)
  std::vector<std::string> problems;  ///< errors and warnings OpenSTA printed
};

/// Parses the log of a block's timing/*.sta.tcl.
StaReport parse_sta_log(const std::string& text);

struct CellStats {
  bool found = false;
  uint64_t cells = 0;
  uint64_t flip_flops = 0;  ///< cells with a next-state function (ff groups of the liberty)
  uint64_t macros = 0;      ///< memory macros
  double area = 0;          ///< the liberty's units (square micrometres for osu018)
};

/// Parses `stat -liberty` of a hierarchy: the "design hierarchy" totals when present.
/// `flop_cells` names the liberty's flip-flop cells; `macro_prefix` the macros' names.
CellStats parse_stat(const std::string& text, const std::vector<std::string>& flop_cells,
                     const std::string& macro_prefix);

/// The block instance a path end is in: the first component of a hierarchical name
/// ("u_post/g_lane[0].u_table/..." -> "u_post") or, flattened, the first of its dotted scopes
/// when it is an instance ("u_planar.cur_q_reg" -> "u_planar"); empty for a name at the top
/// ("g_lane[0].op_x[3]_reg", "step_act_i[8]").
std::string top_instance(const std::string& name);

}  // namespace npugen::timing
