// Plots as standalone SVG text (no script, no external reference), for the reports people
// open in a browser: npugen schedule's timeline, npugen regress's HTML report and npugen
// explore's Pareto plot. Every function returns one <svg> element; text is escaped here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npugen::report {

/// `s` with &, <, > and " escaped, control characters but tab and newline made spaces: safe
/// in XML and HTML text and attribute values.
std::string xml_escape(std::string_view s);

/// One bar of a horizontal bar chart.
struct Bar {
  std::string label;  ///< left of the bar
  double value = 0;
  std::string tip;   ///< hover text (<title>); empty: label and value
  bool alt = false;  ///< drawn in the second colour (say, a failed job or the planar engine)
};
/// Horizontal bars, one a row, scaled to `max` (0: the largest value), the value printed
/// after each bar with `format` (a fmt format of one double, such as "{:.0f} cycles/s").
std::string bar_chart(const std::string& title, const std::vector<Bar>& bars,
                      const std::string& format, double max = 0);

/// One bar of a Gantt chart: [start, end) on `row`.
struct GanttBar {
  unsigned row = 0;
  uint64_t start = 0, end = 0;
  std::string label;  ///< inside the bar when it fits
  std::string tip;
  bool alt = false;
};
/// A timeline: one row per name, bars over cycles 0 to `span` (0: the latest end).
std::string gantt_chart(const std::string& title, const std::vector<std::string>& rows,
                        const std::vector<GanttBar>& bars, uint64_t span = 0);

/// A grid of values in [0, 1] as shades (white 0 to dark 1), `values` row-major.
std::string heat_map(const std::string& title, unsigned rows, unsigned cols,
                     const std::vector<double>& values, const std::string& row_axis,
                     const std::string& col_axis);

/// One point of a scatter plot.
struct Point {
  double x = 0, y = 0;
  std::string tip;
  bool front = false;   ///< on the Pareto front: filled, and joined by a step line
  bool chosen = false;  ///< the point a constraint picked: ringed
};
/// Points on linear axes from their minima to their maxima (with a margin), the front's
/// points joined in x order.
std::string scatter_plot(const std::string& title, const std::string& x_axis,
                         const std::string& y_axis, const std::vector<Point>& points);

}  // namespace npugen::report
