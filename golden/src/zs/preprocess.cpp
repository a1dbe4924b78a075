// Hierarchical zero-skipping preprocessing.
//
// Level 0 (inside each tile): rows are visited in order; a row that still holds a weight
// will be executed, so each of its empty slots takes the nearest weight of the next h
// rows, own lane first, then lanes 1..d to either side. Rows that are empty stay empty:
// filling them would only shift work, never remove a cycle.
//
// Level k >= 1 (across the positions of axis k): a step-by-step scheduler on the map of
// rows that level k-1 left. A step's base b is the earliest pending row. Executors are
// visited in order; each takes, among owners x..x+D with a pending row in [b, b+H], the
// lowest owner (the one whose rows fewest later executors can still take) and its
// earliest row. This earliest-deadline order executes the most rows a step can and
// always finishes every row at b (its own executor can take it), so bases increase.
#include <algorithm>
#include <stdexcept>

#include "npugen/golden/zs/schedule.hpp"

namespace npugen::golden {
namespace {

size_t product(const std::vector<unsigned>& extents, size_t from) {
  size_t p = 1;
  for (size_t k = from; k < extents.size(); ++k) p *= extents[k];
  return p;
}

// Level 0 result: the tensor with weights moved inside each tile.
struct Packed {
  std::vector<int64_t> weight;     // [U][C][L]
  std::vector<uint8_t> dc;         // [U][C][L]
  std::vector<int8_t> dl;          // [U][C][L]
  std::vector<uint32_t> occupied;  // [U][C] weights in the row after packing
};

// `synchronous`: a row that holds a weight in any tile is executed by the whole array,
// so every tile fills its holes in it, even a tile whose own row is empty. Otherwise each
// tile fills only its own nonempty rows (a higher level will pack tile rows).
Packed pack_tiles(const HierTensor& t, SkipDepth depth, bool synchronous) {
  const size_t lanes = t.lanes();
  const size_t rows = t.rows;
  const size_t units = t.units();
  Packed p;
  p.weight = t.values;
  p.dc.assign(p.weight.size(), 0);
  p.dl.assign(p.weight.size(), 0);
  p.occupied.assign(units * rows, 0);
  for (size_t u = 0; u < units; ++u) {
    const int64_t* w = p.weight.data() + u * rows * lanes;
    for (size_t c = 0; c < rows; ++c) {
      uint32_t n = 0;
      for (size_t l = 0; l < lanes; ++l) n += w[c * lanes + l] != 0;
      p.occupied[u * rows + c] = n;
    }
  }
  if (depth.lookahead == 0) return p;  // lookaside alone moves nothing useful
  // Lane offsets in the order they are tried: leftmost source first. Holes are visited
  // left to right and every weight's reach is the same width, so taking the weight whose
  // reach ends first (earliest deadline) moves the most weights a row can take.
  std::vector<int> order;
  for (int k = -static_cast<int>(depth.lookaside); k <= static_cast<int>(depth.lookaside); ++k) {
    order.push_back(k);
  }
  const int ilanes = static_cast<int>(lanes);
  auto fill_row = [&](size_t u, size_t c) {
    int64_t* w = p.weight.data() + u * rows * lanes;
    uint8_t* dc = p.dc.data() + u * rows * lanes;
    int8_t* dl = p.dl.data() + u * rows * lanes;
    uint32_t* occ = p.occupied.data() + u * rows;
    if (occ[c] == lanes) return;
    const size_t last = std::min(rows - 1, c + depth.lookahead);
    for (int l = 0; l < ilanes && occ[c] < lanes; ++l) {
      int64_t& slot = w[c * lanes + l];
      if (slot != 0) continue;
      bool filled = false;
      for (size_t r = c + 1; r <= last && !filled; ++r) {
        if (occ[r] == 0) continue;
        for (int k : order) {
          const int src = l + k;
          if (src < 0 || src >= ilanes) continue;
          int64_t& from = w[r * lanes + src];
          // Weights in rows after c are still in their own place: moves only go into
          // the row being visited.
          if (from == 0) continue;
          slot = from;
          from = 0;
          dc[c * lanes + l] = static_cast<uint8_t>(r - c);
          dl[c * lanes + l] = static_cast<int8_t>(k);
          --occ[r];
          ++occ[c];
          filled = true;
          break;
        }
      }
    }
  };
  if (synchronous) {
    for (size_t c = 0; c < rows; ++c) {
      bool busy = false;
      for (size_t u = 0; u < units && !busy; ++u) busy = p.occupied[u * rows + c] != 0;
      if (!busy) continue;
      for (size_t u = 0; u < units; ++u) fill_row(u, c);
    }
  } else {
    for (size_t u = 0; u < units; ++u) {
      for (size_t c = 0; c < rows; ++c) {
        if (p.occupied[u * rows + c] != 0) fill_row(u, c);
      }
    }
  }
  return p;
}

// One level k >= 1 run over one instance: steps of (base, per executor: offset or -1,
// aside). Rows present per member come in `pending` [X][C].
struct LevelRun {
  std::vector<uint32_t> base;
  std::vector<int16_t> offset;        // [step][X], -1: idle
  std::vector<uint8_t> aside;         // [step][X]
  std::vector<int32_t> step_of_base;  // [C], -1 where no step has that base
};

LevelRun schedule_level(std::vector<uint8_t>& pending, size_t members, size_t rows,
                        SkipDepth depth) {
  LevelRun run;
  run.step_of_base.assign(rows, -1);
  std::vector<size_t> next(members, 0);  // no pending row before next[x]
  auto advance = [&](size_t x) {
    while (next[x] < rows && !pending[x * rows + next[x]]) ++next[x];
  };
  for (size_t x = 0; x < members; ++x) advance(x);
  while (true) {
    size_t b = rows;
    for (size_t x = 0; x < members; ++x) b = std::min(b, next[x]);
    if (b == rows) break;
    run.step_of_base[b] = static_cast<int32_t>(run.base.size());
    run.base.push_back(static_cast<uint32_t>(b));
    const size_t top = std::min(rows - 1, b + depth.lookahead);
    for (size_t x = 0; x < members; ++x) {
      int16_t offset = -1;
      uint8_t aside = 0;
      const size_t last_owner = std::min(members - 1, x + depth.lookaside);
      for (size_t o = x; o <= last_owner && offset < 0; ++o) {
        for (size_t r = std::max(b, next[o]); r <= top; ++r) {
          if (!pending[o * rows + r]) continue;
          pending[o * rows + r] = 0;
          if (r == next[o]) advance(o);
          offset = static_cast<int16_t>(r - b);
          aside = static_cast<uint8_t>(o - x);
          break;
        }
      }
      run.offset.push_back(offset);
      run.aside.push_back(aside);
    }
  }
  return run;
}

struct Composer {
  const HierTensor& tensor;
  const Packed& packed;
  // runs[k-1][instance] for levels k >= 1
  const std::vector<std::vector<LevelRun>>& runs;
  HierSchedule& out;
  size_t step = 0;

  // Fills every executor below physical position `exec` of level k (k >= 1) for the
  // owner instance `owner` of level k, at its run's step `i`.
  void fill(size_t k, size_t owner, size_t i, size_t exec, uint32_t base) {
    const size_t extent = tensor.extents[k];
    const LevelRun& run = runs[k - 1][owner];
    const size_t positions = out.positions(k);
    for (size_t x = 0; x < extent; ++x) {
      const size_t here = exec * extent + x;
      const int16_t offset = run.offset[i * extent + x];
      if (offset < 0) continue;  // idle: zeros, selects 0 (already so)
      const uint8_t aside = run.aside[i * extent + x];
      out.offset[k - 1][step * positions + here] = static_cast<uint8_t>(offset);
      out.aside[k - 1][step * positions + here] = aside;
      const size_t member = owner * extent + x + aside;
      const uint32_t row = base + static_cast<uint32_t>(offset);
      if (k == 1) {
        copy_row(member, row, here);
      } else {
        const int32_t j = runs[k - 2][member].step_of_base[row];
        fill(k - 1, member, static_cast<size_t>(j), here, row);
      }
    }
  }

  void copy_row(size_t unit, uint32_t row, size_t exec_unit) {
    const size_t lanes = tensor.lanes();
    const size_t from = (unit * tensor.rows + row) * lanes;
    const size_t to = (step * out.positions(1) + exec_unit) * lanes;
    std::copy_n(packed.weight.begin() + static_cast<ptrdiff_t>(from), lanes,
                out.weight.begin() + static_cast<ptrdiff_t>(to));
    std::copy_n(packed.dc.begin() + static_cast<ptrdiff_t>(from), lanes,
                out.sel_cycle.begin() + static_cast<ptrdiff_t>(to));
    std::copy_n(packed.dl.begin() + static_cast<ptrdiff_t>(from), lanes,
                out.sel_lane.begin() + static_cast<ptrdiff_t>(to));
  }
};

}  // namespace

size_t HierTensor::units() const { return product(extents, 1); }

size_t HierSchedule::positions(size_t level) const { return product(extents, level); }

namespace {

// Levels 1..n-1 on a packed tensor, and the composition into steps.
HierSchedule schedule_packed(const HierTensor& tensor, const std::vector<SkipDepth>& levels,
                             const Packed& packed, ScheduleStats* stats) {
  const size_t n = tensor.extents.size();
  const size_t lanes = tensor.lanes();
  const size_t rows = tensor.rows;
  const size_t units = tensor.units();
  if (stats != nullptr) {
    *stats = ScheduleStats{};
    stats->dense_cycles = rows;
    for (int64_t v : tensor.values) stats->nonzeros += v != 0;
    uint64_t busy = 0;
    for (size_t c = 0; c < rows; ++c) {
      for (size_t u = 0; u < units; ++u) {
        if (packed.occupied[u * rows + c] != 0) {
          ++busy;
          break;
        }
      }
    }
    stats->steps_after_level.push_back(busy);
  }

  // Levels 1..n-1, bottom up. Members of level k are the positions of level k; each
  // instance (a position of level k+1) holds extents[k] of them.
  std::vector<std::vector<LevelRun>> runs(n - 1);
  std::vector<uint8_t> pending(units * rows);
  for (size_t i = 0; i < pending.size(); ++i) pending[i] = packed.occupied[i] != 0;
  for (size_t k = 1; k < n; ++k) {
    const size_t extent = tensor.extents[k];
    const size_t instances = product(tensor.extents, k + 1);
    runs[k - 1].reserve(instances);
    std::vector<uint8_t> above(instances * rows, 0);  // rows present at level k+1
    for (size_t q = 0; q < instances; ++q) {
      std::vector<uint8_t> mine(pending.begin() + static_cast<ptrdiff_t>(q * extent * rows),
                                pending.begin() + static_cast<ptrdiff_t>((q + 1) * extent * rows));
      runs[k - 1].push_back(schedule_level(mine, extent, rows, levels[k]));
      for (uint32_t b : runs[k - 1].back().base) above[q * rows + b] = 1;
    }
    if (stats != nullptr && k + 1 < n) {
      // The steps an array whose higher levels are off would run: rows present anywhere.
      uint64_t busy = 0;
      for (size_t c = 0; c < rows; ++c) {
        for (size_t q = 0; q < instances; ++q) {
          if (above[q * rows + c]) {
            ++busy;
            break;
          }
        }
      }
      stats->steps_after_level.push_back(busy);
    }
    pending = std::move(above);
  }

  HierSchedule out;
  out.extents = tensor.extents;
  out.rows = tensor.rows;
  const LevelRun& top = runs[n - 2][0];
  const size_t steps = top.base.size();
  out.base = top.base;
  out.weight.assign(steps * units * lanes, 0);
  out.sel_cycle.assign(steps * units * lanes, 0);
  out.sel_lane.assign(steps * units * lanes, 0);
  out.offset.resize(n - 1);
  out.aside.resize(n - 1);
  for (size_t k = 1; k < n; ++k) {
    out.offset[k - 1].assign(steps * out.positions(k), 0);
    out.aside[k - 1].assign(steps * out.positions(k), 0);
  }
  Composer composer{tensor, packed, runs, out};
  for (size_t s = 0; s < steps; ++s) {
    composer.step = s;
    composer.fill(n - 1, 0, s, 0, out.base[s]);
  }
  if (stats != nullptr) {
    stats->steps = steps;
    stats->steps_after_level.push_back(steps);
  }
  return out;
}

}  // namespace

HierSchedule preprocess(const HierTensor& tensor, const std::vector<SkipDepth>& levels,
                        ScheduleStats* stats) {
  const size_t n = tensor.extents.size();
  if (n < 2 || levels.size() != n) {
    throw std::invalid_argument(
        "preprocess: a tensor needs lanes and at least one tile axis, and one level per axis");
  }
  for (unsigned e : tensor.extents) {
    if (e == 0) throw std::invalid_argument("preprocess: every extent must be at least 1");
  }
  const size_t lanes = tensor.lanes();
  const size_t rows = tensor.rows;
  const size_t units = tensor.units();
  if (tensor.values.size() != units * rows * lanes) {
    throw std::invalid_argument("preprocess: values do not match the extents and rows");
  }

  // Level 0 two ways: tiles packing on their own, or in step with the array. The
  // schedule with fewer steps wins (ties: the independent one).
  ScheduleStats own_stats, sync_stats;
  HierSchedule own =
      schedule_packed(tensor, levels, pack_tiles(tensor, levels[0], false), &own_stats);
  if (levels[0].lookahead > 0) {
    HierSchedule sync =
        schedule_packed(tensor, levels, pack_tiles(tensor, levels[0], true), &sync_stats);
    if (sync.steps() < own.steps()) {
      if (stats != nullptr) *stats = sync_stats;
      return sync;
    }
  }
  if (stats != nullptr) *stats = own_stats;
  return own;
}

}  // namespace npugen::golden
