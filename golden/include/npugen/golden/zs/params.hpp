// Parameters of a zero-skipping PE array, as the golden model and the testbench see
// them. The generator fills this from the validated configuration (one source of
// truth); the control-word layout below is derived from it and used by the generator,
// the golden model and the testbench alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/pe_array/params.hpp"
#include "npugen/golden/zs/schedule.hpp"

namespace npugen::golden {

struct ZeroSkipParams {
  PeArrayParams array;
  SkipDepth intra{1, 1};            ///< level 0: h rows, d lanes ({0, 0}: off)
  SkipDepth inter{1, 1};            ///< level 1: H rows, D tiles ({0, 0}: off)
  unsigned act_rows_per_cycle = 2;  ///< R: activation rows read per cycle
  unsigned max_rows = 1024;         ///< most rows C of one job
  unsigned step_buffer_depth = 2;   ///< entries of the weight and control-bit buffers

  /// Every member by name, in declaration order (the generator writes the co-simulation's
  /// constants from it; a new member is added here too).
  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("array", array), f("intra", intra), f("inter", inter);
    f("act_rows_per_cycle", act_rows_per_cycle), f("max_rows", max_rows);
    f("step_buffer_depth", step_buffer_depth);
  }

  /// Rows the activation window holds: the step's base row and h + H after it.
  [[nodiscard]] constexpr unsigned window() const { return intra.lookahead + inter.lookahead + 1; }
  /// Inputs of each lane's activation mux: its own activation (row 0, its own lane), then
  /// 2d + 1 lanes of each of the h rows ahead. A weight never moves sideways inside its own
  /// row (that empties no row, so no preprocessing does it): row 0 has one input.
  [[nodiscard]] constexpr unsigned lane_selects() const {
    return 1 + intra.lookahead * (2 * intra.lookaside + 1);
  }
  /// The lane-mux input of the select (dc, dl): 0 for (0, 0), otherwise
  /// 1 + (dc - 1)(2d + 1) + dl + d.
  [[nodiscard]] constexpr unsigned lane_select_code(unsigned dc, int dl) const {
    if (dc == 0) return 0;
    return 1 + (dc - 1) * (2 * intra.lookaside + 1) +
           static_cast<unsigned>(dl + static_cast<int>(intra.lookaside));
  }
  /// The select (dc, dl) of a lane-mux input below lane_selects().
  constexpr void lane_select_of(unsigned code, unsigned& dc, int& dl) const {
    if (code == 0) {
      dc = 0;
      dl = 0;
      return;
    }
    const unsigned span = 2 * intra.lookaside + 1;
    dc = 1 + (code - 1) / span;
    dl = static_cast<int>((code - 1) % span) - static_cast<int>(intra.lookaside);
  }
  /// Levels in the order the preprocessing takes them.
  [[nodiscard]] std::vector<SkipDepth> levels() const { return {intra, inter}; }
};

/// One field of the control word.
struct ControlField {
  std::string name;
  unsigned lsb = 0;
  unsigned width = 0;
  std::string meaning;
};

/// Bit layout of one step's control word, LSB first:
///   [0] first, [1] last, [2 +: A] advance,
///   then the tile offsets of tiles 0..T-1 (O bits each), their destinations (X bits each),
///   and the lane selects of tile t, lane l at (t*L + l) (S bits each).
/// Each kind of field is one packed array, as the RTL's control-word struct declares it.
/// A = bits for max_rows values (at least bits for window+1 values), O = bits for H+1, X = bits for
/// D+1, S = bits for 1 + h(2d+1). A lane select encodes (dc, dl) as
/// ZeroSkipParams::lane_select_code: 0 for (0, 0), 1 + (dc-1)(2d+1) + dl + d for dc >= 1.
struct ControlLayout {
  unsigned tiles = 1;
  unsigned lanes = 1;
  unsigned advance_bits = 1;
  unsigned tile_offset_bits = 0;
  unsigned dest_bits = 0;
  unsigned lane_select_bits = 0;

  static ControlLayout of(const ZeroSkipParams& p);

  [[nodiscard]] unsigned advance_lsb() const { return 2; }
  [[nodiscard]] unsigned offset_lsb(unsigned t) const {
    return 2 + advance_bits + t * tile_offset_bits;
  }
  [[nodiscard]] unsigned dest_lsb(unsigned t) const { return offset_lsb(tiles) + t * dest_bits; }
  [[nodiscard]] unsigned lane_lsb(unsigned t, unsigned l) const {
    return dest_lsb(tiles) + (t * lanes + l) * lane_select_bits;
  }
  [[nodiscard]] unsigned width() const { return lane_lsb(tiles, 0); }
  /// Every field, in bit order (per-tile and per-lane fields of tile 0 / lane 0 only,
  /// with the stride of the others in `meaning`).
  [[nodiscard]] std::vector<ControlField> fields() const;
};

/// One step's control, decoded.
struct StepControl {
  bool first = false;                ///< first step of a job: accumulators start from zero
  bool last = false;                 ///< last step of a job: results follow
  uint32_t advance = 0;              ///< first step: the base row; otherwise base - previous base
  std::vector<uint8_t> tile_offset;  ///< [T] a in [0, H]
  std::vector<uint8_t> dest;         ///< [T] dx in [0, D]: accumulator t + dx
  std::vector<uint8_t> lane_select;  ///< [T*L] ZeroSkipParams::lane_select_code(dc, dl)
};

/// Packs into 32-bit words, least significant first (Verilator's wide-port layout).
std::vector<uint32_t> pack_control(const ControlLayout& layout, const StepControl& c);
StepControl unpack_control(const ControlLayout& layout, const std::vector<uint32_t>& words);

/// What the weight buffer and the control-bit buffer hold for one step.
struct StreamStep {
  StepControl control;
  std::vector<uint32_t> weights;  ///< [T*L] raw bit patterns (weight_width bits)
};

/// The steps of one job, in order, from a two-level schedule. A schedule with no steps
/// (no nonzero weight) becomes one step of zero weights so that the job still delivers
/// its (zero) results. Throws std::invalid_argument when the schedule does not fit p.
std::vector<StreamStep> step_stream(const ZeroSkipParams& p, const HierSchedule& schedule);

/// Cycles the array spends on a job's steps, ignoring bubbles and buffer back-pressure:
/// each step loads n = min(advance, window) new rows (the first step: window) at R rows
/// per cycle, so it occupies ceil(n / R) cycles.
uint64_t array_cycles(const ZeroSkipParams& p, const std::vector<uint32_t>& bases);

}  // namespace npugen::golden
