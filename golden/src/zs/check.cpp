// The zero-skipping contract, checked from the definition. Written apart from the
// preprocessing on purpose: it shares no code with it.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "npugen/golden/zs/schedule.hpp"

namespace npugen::golden {

std::vector<std::string> check_schedule(const HierTensor& tensor,
                                        const std::vector<SkipDepth>& levels, const HierSchedule& s,
                                        size_t limit) {
  std::vector<std::string> problems;
  auto report = [&](std::string text) {
    if (problems.size() < limit) problems.push_back(std::move(text));
  };
  const size_t n = tensor.extents.size();
  if (s.extents != tensor.extents || s.rows != tensor.rows || levels.size() != n) {
    report("the schedule's shape differs from the tensor's");
    return problems;
  }
  const size_t lanes = tensor.extents[0];
  size_t units = 1;
  for (size_t k = 1; k < n; ++k) units *= tensor.extents[k];
  const size_t steps = s.base.size();
  auto positions = [&](size_t k) {
    size_t p = 1;
    for (size_t j = k; j < n; ++j) p *= tensor.extents[j];
    return p;
  };
  if (s.weight.size() != steps * units * lanes || s.sel_cycle.size() != s.weight.size() ||
      s.sel_lane.size() != s.weight.size() || s.offset.size() != n - 1 || s.aside.size() != n - 1) {
    report("the schedule's arrays have the wrong sizes");
    return problems;
  }
  for (size_t k = 1; k < n; ++k) {
    if (s.offset[k - 1].size() != steps * positions(k) ||
        s.aside[k - 1].size() != steps * positions(k)) {
      report(fmt::format("level {} selects have the wrong size", k));
      return problems;
    }
  }
  for (size_t i = 0; i < steps; ++i) {
    if (s.base[i] >= tensor.rows)
      report(fmt::format("step {}: base {} is past the last row", i, s.base[i]));
    if (i > 0 && s.base[i] <= s.base[i - 1]) {
      report(fmt::format("step {}: base {} does not increase (previous {})", i, s.base[i],
                         s.base[i - 1]));
    }
  }

  std::vector<uint8_t> used(tensor.values.size(), 0);
  std::vector<size_t> coord(n);  // executor coordinates x_1..x_{n-1} (index 0 unused)
  for (size_t i = 0; i < steps; ++i) {
    for (size_t u = 0; u < units; ++u) {
      // Executor coordinates from the flat unit index: u = ((x_{n-1}) ... ) * X_1 + x_1.
      size_t rest = u;
      for (size_t k = 1; k < n; ++k) {
        coord[k] = rest % tensor.extents[k];
        rest /= tensor.extents[k];
      }
      // Each level k's select lives at the executor's position of level k.
      int64_t row_base = s.base[i];
      size_t owner = 0;  // flat owner unit, built from the top
      bool owner_ok = true;
      std::vector<size_t> owner_coord(n);
      for (size_t k = 1; k < n; ++k) {
        size_t pos = 0;
        for (size_t j = n - 1; j >= k; --j) pos = pos * tensor.extents[j] + coord[j];
        const uint8_t a = s.offset[k - 1][i * positions(k) + pos];
        const uint8_t dx = s.aside[k - 1][i * positions(k) + pos];
        if (a > levels[k].lookahead) {
          report(fmt::format("step {} level {} position {}: offset {} exceeds lookahead {}", i, k,
                             pos, a, levels[k].lookahead));
        }
        if (dx > levels[k].lookaside) {
          report(fmt::format("step {} level {} position {}: aside {} exceeds lookaside {}", i, k,
                             pos, dx, levels[k].lookaside));
        }
        row_base += a;
        owner_coord[k] = coord[k] + dx;
        if (owner_coord[k] >= tensor.extents[k]) owner_ok = false;
      }
      for (size_t j = n - 1; j >= 1; --j) owner = owner * tensor.extents[j] + owner_coord[j];
      for (size_t l = 0; l < lanes; ++l) {
        const size_t at = (i * units + u) * lanes + l;
        const int64_t w = s.weight[at];
        const unsigned dc = s.sel_cycle[at];
        const int dl = s.sel_lane[at];
        if (dc > levels[0].lookahead || static_cast<unsigned>(std::abs(dl)) > levels[0].lookaside) {
          report(fmt::format("step {} tile {} lane {}: select ({}, {}) outside h={}, d={}", i, u, l,
                             dc, dl, levels[0].lookahead, levels[0].lookaside));
        }
        // The select set has no sideways move inside a weight's own row (no mux input).
        if (dc == 0 && dl != 0) {
          report(
              fmt::format("step {} tile {} lane {}: select (0, {}) moves a weight sideways in "
                          "its own row",
                          i, u, l, dl));
        }
        if (w == 0) continue;
        const int64_t row = row_base + dc;
        const int64_t lane = static_cast<int64_t>(l) + dl;
        if (!owner_ok || row >= tensor.rows || lane < 0 || lane >= static_cast<int64_t>(lanes)) {
          report(fmt::format("step {} tile {} lane {}: weight {} reads outside the tensor", i, u, l,
                             w));
          continue;
        }
        const size_t src =
            (owner * tensor.rows + static_cast<size_t>(row)) * lanes + static_cast<size_t>(lane);
        if (tensor.values[src] != w) {
          report(fmt::format("step {} tile {} lane {}: weight {} is not W[{}][{}][{}] = {}", i, u,
                             l, w, owner, row, lane, tensor.values[src]));
        } else if (used[src]) {
          report(fmt::format("step {} tile {} lane {}: W[{}][{}][{}] is used twice", i, u, l, owner,
                             row, lane));
        }
        used[src] = 1;
      }
    }
  }
  for (size_t at = 0; at < tensor.values.size(); ++at) {
    if (tensor.values[at] != 0 && !used[at]) {
      const size_t l = at % lanes;
      const size_t c = (at / lanes) % tensor.rows;
      const size_t u = at / lanes / tensor.rows;
      report(fmt::format("W[{}][{}][{}] = {} is never used", u, c, l, tensor.values[at]));
    }
  }
  return problems;
}

LowerBound lower_bound(const HierTensor& tensor, const std::vector<SkipDepth>& levels) {
  LowerBound lb;
  const size_t lanes = tensor.extents.at(0);
  const size_t tiles = tensor.extents.size() == 2 ? tensor.extents[1] : 0;
  if (tiles == 0 || levels.size() != 2) return lb;
  const size_t rows = tensor.rows;
  const size_t d = levels[0].lookaside;
  const size_t big_d = levels[1].lookaside;
  // nnz[t][l], then 2-D prefix sums.
  std::vector<uint64_t> prefix((tiles + 1) * (lanes + 1), 0);
  auto at = [&](size_t t, size_t l) -> uint64_t& { return prefix[t * (lanes + 1) + l]; };
  for (size_t t = 0; t < tiles; ++t) {
    for (size_t c = 0; c < rows; ++c) {
      for (size_t l = 0; l < lanes; ++l) {
        at(t + 1, l + 1) += tensor.values[(t * rows + c) * lanes + l] != 0;
      }
    }
  }
  for (size_t t = 1; t <= tiles; ++t) {
    for (size_t l = 1; l <= lanes; ++l) {
      at(t, l) += at(t - 1, l) + at(t, l - 1) - at(t - 1, l - 1);
    }
  }
  std::string capacity_how = "no weights";
  for (size_t i = 0; i < tiles; ++i) {
    for (size_t j = i; j < tiles; ++j) {
      const size_t exec_tiles = j + 1 - (i >= big_d ? i - big_d : 0);
      for (size_t p = 0; p < lanes; ++p) {
        for (size_t q = p; q < lanes; ++q) {
          const uint64_t count = at(j + 1, q + 1) - at(i, q + 1) - at(j + 1, p) + at(i, p);
          const size_t exec_lanes = std::min(lanes - 1, q + d) + 1 - (p >= d ? p - d : 0);
          const uint64_t slots = uint64_t{exec_tiles} * exec_lanes;
          const uint64_t need = (count + slots - 1) / slots;
          if (need > lb.capacity) {
            lb.capacity = need;
            capacity_how = fmt::format(
                "{} nonzeros of tiles {}..{}, lanes {}..{} can only use {} tile(s) x {} lane(s)",
                count, i, j, p, q, exec_tiles, exec_lanes);
          }
        }
      }
    }
  }
  // Hitting bound: intervals [c - reach, c] of nonempty rows, taken in order of c.
  const size_t reach = levels[0].lookahead + levels[1].lookahead;
  int64_t last_base = -1;
  for (size_t c = 0; c < rows; ++c) {
    bool nonempty = false;
    for (size_t t = 0; t < tiles && !nonempty; ++t) {
      for (size_t l = 0; l < lanes && !nonempty; ++l) {
        nonempty = tensor.values[(t * rows + c) * lanes + l] != 0;
      }
    }
    if (!nonempty) continue;
    const int64_t lo = static_cast<int64_t>(c) - static_cast<int64_t>(reach);
    if (last_base < lo) {
      last_base = static_cast<int64_t>(c);
      ++lb.hitting;
    }
  }
  // Cover bound: one executor-step reads rows [b+a, b+a+h] of one owner tile, so owner
  // t needs at least m_t executor-steps, m_t = fewest windows of h+1 rows that cover its
  // nonempty rows; owners [i, j] share the executors [i - D, j].
  std::vector<uint64_t> windows(tiles, 0);
  for (size_t t = 0; t < tiles; ++t) {
    int64_t covered_to = -1;
    for (size_t c = 0; c < rows; ++c) {
      bool nonempty = false;
      for (size_t l = 0; l < lanes && !nonempty; ++l) {
        nonempty = tensor.values[(t * rows + c) * lanes + l] != 0;
      }
      if (nonempty && static_cast<int64_t>(c) > covered_to) {
        ++windows[t];
        covered_to = static_cast<int64_t>(c + levels[0].lookahead);
      }
    }
  }
  std::string cover_how;
  for (size_t i = 0; i < tiles; ++i) {
    uint64_t sum = 0;
    for (size_t j = i; j < tiles; ++j) {
      sum += windows[j];
      const uint64_t exec_tiles = j + 1 - (i >= big_d ? i - big_d : 0);
      const uint64_t need = (sum + exec_tiles - 1) / exec_tiles;
      if (need > lb.cover) {
        lb.cover = need;
        cover_how = fmt::format(
            "tiles {}..{} need {} windows of {} row(s) to cover their nonempty rows and share "
            "{} tile(s)",
            i, j, sum, levels[0].lookahead + 1, exec_tiles);
      }
    }
  }
  lb.value = std::max({lb.capacity, lb.hitting, lb.cover});
  if (lb.value == lb.capacity) {
    lb.how = "capacity: " + capacity_how;
  } else if (lb.value == lb.cover) {
    lb.how = "cover: " + cover_how;
  } else {
    lb.how = fmt::format(
        "hitting: {} bases are needed so that every nonempty row c has a base in [c - {}, c]",
        lb.hitting, reach);
  }
  return lb;
}

}  // namespace npugen::golden
