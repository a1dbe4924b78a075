#include <algorithm>
#include <stdexcept>

#include "npugen/golden/zs/params.hpp"

namespace npugen::golden {
namespace {

void put_bits(std::vector<uint32_t>& words, unsigned lsb, unsigned width, uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    if ((value >> i) & 1U) words[(lsb + i) / 32] |= uint32_t{1} << ((lsb + i) % 32);
  }
}

uint64_t get_bits(const std::vector<uint32_t>& words, unsigned lsb, unsigned width) {
  uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i) {
    value |= static_cast<uint64_t>((words[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1U) << i;
  }
  return value;
}

}  // namespace

ControlLayout ControlLayout::of(const ZeroSkipParams& p) {
  ControlLayout l;
  l.tiles = p.array.tiles;
  l.lanes = p.array.lanes;
  // The advance also holds the window size, so that min(advance, window) compares
  // in one width.
  l.advance_bits = std::max({1U, ceil_log2(p.max_rows), ceil_log2(p.window() + 1)});
  l.tile_offset_bits = ceil_log2(p.inter.lookahead + 1);
  l.dest_bits = ceil_log2(p.inter.lookaside + 1);
  l.lane_select_bits = ceil_log2(p.lane_selects());
  return l;
}

std::vector<ControlField> ControlLayout::fields() const {
  std::vector<ControlField> f;
  f.push_back({"first", 0, 1, "first step of a job: accumulators start from zero"});
  f.push_back({"last", 1, 1, "last step of a job: acc_valid_o follows"});
  f.push_back({"advance", advance_lsb(), advance_bits,
               "first step: base row; otherwise base minus the previous step's base"});
  if (tile_offset_bits > 0) {
    f.push_back({"tile_offset[t]", offset_lsb(0), tile_offset_bits,
                 "a: the tile's prefetch mux reads window rows a..a+h; tile t at bit " +
                     std::to_string(offset_lsb(0)) + " + t*" + std::to_string(tile_offset_bits)});
  }
  if (dest_bits > 0) {
    f.push_back({"dest[t]", dest_lsb(0), dest_bits,
                 "dx: the tile's sum goes to accumulator t + dx; tile t at bit " +
                     std::to_string(dest_lsb(0)) + " + t*" + std::to_string(dest_bits)});
  }
  if (lane_select_bits > 0) {
    f.push_back({"lane_select[t][l]", lane_lsb(0, 0), lane_select_bits,
                 "0: the lane multiplies its own activation (window row a, lane l); 1 + "
                 "(dc-1)*(2d+1) + dl + d: window row a+dc, lane l+dl; tile t, lane l at bit " +
                     std::to_string(lane_lsb(0, 0)) + " + (t*" + std::to_string(lanes) + " + l)*" +
                     std::to_string(lane_select_bits)});
  }
  return f;
}

std::vector<uint32_t> pack_control(const ControlLayout& layout, const StepControl& c) {
  std::vector<uint32_t> words((layout.width() + 31) / 32, 0);
  put_bits(words, 0, 1, c.first);
  put_bits(words, 1, 1, c.last);
  put_bits(words, layout.advance_lsb(), layout.advance_bits, c.advance);
  for (unsigned t = 0; t < layout.tiles; ++t) {
    put_bits(words, layout.offset_lsb(t), layout.tile_offset_bits, c.tile_offset.at(t));
    put_bits(words, layout.dest_lsb(t), layout.dest_bits, c.dest.at(t));
    for (unsigned l = 0; l < layout.lanes; ++l) {
      put_bits(words, layout.lane_lsb(t, l), layout.lane_select_bits,
               c.lane_select.at(size_t{t} * layout.lanes + l));
    }
  }
  return words;
}

StepControl unpack_control(const ControlLayout& layout, const std::vector<uint32_t>& words) {
  if (words.size() * 32 < layout.width()) {
    throw std::invalid_argument("unpack_control: too few words for the layout");
  }
  StepControl c;
  c.first = get_bits(words, 0, 1) != 0;
  c.last = get_bits(words, 1, 1) != 0;
  c.advance = static_cast<uint32_t>(get_bits(words, layout.advance_lsb(), layout.advance_bits));
  c.tile_offset.resize(layout.tiles);
  c.dest.resize(layout.tiles);
  c.lane_select.resize(size_t{layout.tiles} * layout.lanes);
  for (unsigned t = 0; t < layout.tiles; ++t) {
    c.tile_offset[t] =
        static_cast<uint8_t>(get_bits(words, layout.offset_lsb(t), layout.tile_offset_bits));
    c.dest[t] = static_cast<uint8_t>(get_bits(words, layout.dest_lsb(t), layout.dest_bits));
    for (unsigned l = 0; l < layout.lanes; ++l) {
      c.lane_select[size_t{t} * layout.lanes + l] =
          static_cast<uint8_t>(get_bits(words, layout.lane_lsb(t, l), layout.lane_select_bits));
    }
  }
  return c;
}

std::vector<StreamStep> step_stream(const ZeroSkipParams& p, const HierSchedule& s) {
  const unsigned tiles = p.array.tiles;
  const unsigned lanes = p.array.lanes;
  if (s.extents.size() != 2 || s.extents[0] != lanes || s.extents[1] != tiles) {
    throw std::invalid_argument("step_stream: the schedule is not for this array's T x L");
  }
  if (s.rows > p.max_rows) {
    throw std::invalid_argument("step_stream: the job has more rows than max_rows");
  }
  const uint32_t mask =
      p.array.weight_width >= 32 ? ~uint32_t{0} : (uint32_t{1} << p.array.weight_width) - 1;
  std::vector<StreamStep> out;
  const size_t steps = s.steps();
  out.reserve(std::max<size_t>(steps, 1));
  for (size_t i = 0; i < std::max<size_t>(steps, 1); ++i) {
    StreamStep step;
    StepControl& c = step.control;
    c.first = i == 0;
    c.last = i + 1 >= steps;
    c.tile_offset.assign(tiles, 0);
    c.dest.assign(tiles, 0);
    c.lane_select.assign(size_t{tiles} * lanes, 0);
    step.weights.assign(size_t{tiles} * lanes, 0);
    if (steps == 0) {
      // Lane selects of (dc 0, dl 0): the zero weights multiply their own activations.
      out.push_back(std::move(step));
      break;
    }
    c.advance = i == 0 ? s.base[0] : s.base[i] - s.base[i - 1];
    for (unsigned t = 0; t < tiles; ++t) {
      c.tile_offset[t] = s.offset[0][i * tiles + t];
      c.dest[t] = s.aside[0][i * tiles + t];
      for (unsigned l = 0; l < lanes; ++l) {
        const size_t at = (i * tiles + t) * lanes + l;
        step.weights[size_t{t} * lanes + l] = static_cast<uint32_t>(s.weight[at]) & mask;
        if (s.sel_cycle[at] == 0 && s.sel_lane[at] != 0) {
          throw std::invalid_argument("step_stream: a weight moves sideways in its own row");
        }
        c.lane_select[size_t{t} * lanes + l] =
            static_cast<uint8_t>(p.lane_select_code(s.sel_cycle[at], s.sel_lane[at]));
      }
    }
    out.push_back(std::move(step));
  }
  return out;
}

uint64_t array_cycles(const ZeroSkipParams& p, const std::vector<uint32_t>& bases) {
  const uint64_t window = p.window();
  const uint64_t r = p.act_rows_per_cycle;
  uint64_t cycles = 0;
  for (size_t i = 0; i < std::max<size_t>(bases.size(), 1); ++i) {
    const uint64_t n = i == 0 ? window : std::min<uint64_t>(bases[i] - bases[i - 1], window);
    cycles += (n + r - 1) / r;
  }
  return cycles;
}

}  // namespace npugen::golden
