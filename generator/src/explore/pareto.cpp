#include "explore/pareto.hpp"

#include <tuple>

namespace npugen::explore {

void mark_front(std::vector<Point>& points) {
  for (Point& p : points) {
    p.front = false;
    if (!p.costed()) continue;
    bool dominated = false;
    for (const Point& q : points) {
      if (!q.costed() || &q == &p) continue;
      const bool no_worse = q.cycles_per_image <= p.cycles_per_image && q.cells <= p.cells;
      const bool better = q.cycles_per_image < p.cycles_per_image || q.cells < p.cells;
      if (no_worse && better) {
        dominated = true;
        break;
      }
    }
    p.front = !dominated;
  }
}

std::optional<size_t> fastest_within(const std::vector<Point>& points, uint64_t max_cells) {
  std::optional<size_t> best;
  for (size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    if (!p.costed() || p.cells > max_cells) continue;
    if (!best || std::tie(p.cycles_per_image, p.cells) <
                     std::tie(points[*best].cycles_per_image, points[*best].cells))
      best = i;
  }
  return best;
}

std::optional<size_t> smallest_reaching(const std::vector<Point>& points, double min_fps) {
  std::optional<size_t> best;
  for (size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    if (!p.costed() || p.images_per_second < min_fps) continue;
    if (!best || p.cells < points[*best].cells ||
        (p.cells == points[*best].cells && p.images_per_second > points[*best].images_per_second))
      best = i;
  }
  return best;
}

}  // namespace npugen::explore
