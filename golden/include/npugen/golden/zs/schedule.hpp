// Hierarchical zero-skipping preprocessing (seed 000) and its contract.
//
// A weight tensor has one time axis (rows c, the original cycles), one reducible axis
// (lanes, summed by a tile's adder tree) and one or more non-reducible axes (tiles, and
// above them any further grouping). Level 0 moves single weights inside a tile; level
// k >= 1 moves whole rows of level k-1 along axis k, working on the sparsity map the
// level below leaves. The PE array has two levels (lanes in a tile, tiles in the array);
// the N-level form is the same code with more axes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npugen::golden {

/// Depths of one level. Level 0: a weight moves up to `lookahead` rows earlier and
/// `lookaside` lanes to either side. Level k >= 1: a row of level k-1 moves up to
/// `lookahead` rows earlier, from a position up to `lookaside` further along axis k
/// (tile t computes for tile t + dx, dx in [0, lookaside]). {0, 0} switches a level off.
struct SkipDepth {
  unsigned lookahead = 0;
  unsigned lookaside = 0;

  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("lookahead", lookahead), f("lookaside", lookaside);
  }
};

/// Weights indexed [x_{N-1}] ... [x_1][c][l]: extents = {lanes, tiles, groups, ...}.
/// For the PE array extents = {L, T} and the layout is [T][C][L].
struct HierTensor {
  std::vector<unsigned> extents;
  unsigned rows = 0;
  std::vector<int64_t> values;

  [[nodiscard]] unsigned lanes() const { return extents.at(0); }
  /// Tiles in all: the product of every extent above the lanes.
  [[nodiscard]] size_t units() const;
};

/// The result of preprocessing: S executed steps. Multiplier (s, u, l) computes
/// weight * A[base[s] + sum_k offset_k + sel_cycle][l + sel_lane] and its tile's sum goes
/// to the accumulator whose coordinates are the executor's plus each level's aside.
struct HierSchedule {
  std::vector<unsigned> extents;
  unsigned rows = 0;
  std::vector<uint32_t> base;      ///< [S] strictly increasing
  std::vector<int64_t> weight;     ///< [S][U][L]
  std::vector<uint8_t> sel_cycle;  ///< [S][U][L] dc in [0, h]
  std::vector<int8_t> sel_lane;    ///< [S][U][L] dl in [-d, d]
  /// Per level k >= 1 (index k-1): [S][positions(k)], where positions(k) is the product
  /// of extents[k..] (for k = 1: every tile).
  std::vector<std::vector<uint8_t>> offset;  ///< row offset a in [0, H_k]
  std::vector<std::vector<uint8_t>> aside;   ///< position offset dx in [0, D_k]

  [[nodiscard]] size_t steps() const { return base.size(); }
  [[nodiscard]] size_t positions(size_t level) const;
};

/// Figures of one preprocessing run.
struct ScheduleStats {
  uint64_t dense_cycles = 0;  ///< C
  uint64_t steps = 0;         ///< S
  uint64_t nonzeros = 0;
  /// Rows still holding a weight in some tile after each level alone, in order: entry 0
  /// after level 0, entry k after levels 0..k (the last equals steps).
  std::vector<uint64_t> steps_after_level;
};

/// Runs every level in turn. levels.size() equals extents.size(); levels[k] applies to
/// axis k. Throws std::invalid_argument on inconsistent shapes.
HierSchedule preprocess(const HierTensor& tensor, const std::vector<SkipDepth>& levels,
                        ScheduleStats* stats = nullptr);

/// Proves the zero-skipping contract for a schedule of `tensor`: bases strictly increasing
/// and inside the tensor, every select inside its level's depths, every nonzero used
/// exactly once with its own activation and accumulator, nothing else used. Returns the
/// problems found (at most `limit`); empty means the schedule is correct. Shares no code
/// with preprocess().
std::vector<std::string> check_schedule(const HierTensor& tensor,
                                        const std::vector<SkipDepth>& levels,
                                        const HierSchedule& schedule, size_t limit = 8);

/// What no legal schedule of the two-level PE array can beat, and why.
struct LowerBound {
  uint64_t value = 0;     ///< max of the two below
  uint64_t capacity = 0;  ///< multiplier count: nonzeros over the multipliers that may take them
  uint64_t hitting = 0;   ///< fewest bases that reach every nonempty row
  uint64_t cover = 0;  ///< executor-steps each tile's rows need, over the tiles that may run them
  std::string how;     ///< one sentence naming the binding bound
};

/// Lower bound for a two-level tensor (extents {L, T}). Capacity: for every range of
/// tiles [i, j] and lanes [p, q], its nonzeros can only run on tiles [i - D, j] and lanes
/// [p - d, q + d] (one weight per multiplier per step). Hitting: a weight in row c runs
/// at a base in [c - h - H, c], so the bases must hit every such interval of a nonempty
/// row; the greedy right-end choice gives the fewest. Cover: an executor-step reads at
/// most h+1 consecutive rows of one owner tile, so tile t needs m_t executor-steps (the
/// fewest windows of h+1 rows covering its nonempty rows), and tiles [i, j] share the
/// executors [i - D, j].
LowerBound lower_bound(const HierTensor& tensor, const std::vector<SkipDepth>& levels);

}  // namespace npugen::golden
