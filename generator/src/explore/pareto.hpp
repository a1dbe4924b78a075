// The Pareto front of explore's points (cycles per image against cells, both minimised) and
// the two ways of picking one under a constraint, as Intel's FPGA AI Suite optimizer does:
// the fastest within an area budget, or the smallest that reaches a frame rate.
#pragma once

#include <optional>
#include <vector>

#include "explore/point.hpp"

namespace npugen::explore {

/// Marks Point::front on every costed point that no other costed point dominates (no worse
/// in both, better in one). Points equal in both are all on the front.
void mark_front(std::vector<Point>& points);

/// The costed point with the fewest cycles per image within `max_cells` (ties: fewer cells,
/// then the earlier point); none if no point fits.
std::optional<size_t> fastest_within(const std::vector<Point>& points, uint64_t max_cells);

/// The costed point with the fewest cells reaching `min_fps` images per second (ties: more
/// images per second, then the earlier point); none if no point reaches it.
std::optional<size_t> smallest_reaching(const std::vector<Point>& points, double min_fps);

}  // namespace npugen::explore
