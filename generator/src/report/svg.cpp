#include "report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace npugen::report {
namespace {

constexpr const char* kColour = "#7aa6d8";     // bars, points
constexpr const char* kAltColour = "#f0b35e";  // the second series
constexpr double kLeft = 170;                  // room for row labels
constexpr double kWidth = 640;                 // the plotting area

std::string open_svg(double width, double height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "viewBox=\"0 0 {:.0f} {:.0f}\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n"
      "<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"8\" y=\"18\" font-size=\"13\">{}</text>\n",
      width, height, width, height, xml_escape(title), xml_escape(title));
}

// A label cut to `n` characters (the full text stays in the tip).
std::string cut(const std::string& s, size_t n) {
  return s.size() <= n ? s : s.substr(0, n - 1) + "\u2026";
}

// Round numbers for an axis from lo to hi: about five ticks.
std::vector<double> ticks(double lo, double hi) {
  std::vector<double> out;
  const double span = hi - lo;
  if (!(span > 0)) return {lo};
  const double raw = span / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push_back(t);
  return out;
}

std::string number(double v) {
  const double a = std::fabs(v);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.3g}k", v / 1e3);
  if (a == std::floor(a)) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}

}  // namespace

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' ? ' ' : c;
    }
  }
  return out;
}

std::string bar_chart(const std::string& title, const std::vector<Bar>& bars,
                      const std::string& format, double max) {
  const double row_h = 18, top = 30;
  if (max <= 0) {
    for (const Bar& b : bars) max = std::max(max, b.value);
  }
  if (max <= 0) max = 1;
  std::string s = open_svg(kLeft + kWidth + 130, top + row_h * bars.size() + 10, title);
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = top + row_h * static_cast<double>(i);
    const double w = std::max(0.0, kWidth * std::min(b.value, max) / max);
    const std::string value = fmt::format(fmt::runtime(format), b.value);
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6,
                     y + 12, xml_escape(cut(b.label, 26)));
    s += fmt::format(
        "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"{:.1f}\" height=\"{:.0f}\" fill=\"{}\">"
        "<title>{}</title></rect>\n",
        kLeft, y + 2, w, row_h - 4, b.alt ? kAltColour : kColour,
        xml_escape(b.tip.empty() ? b.label + ": " + value : b.tip));
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.0f}\">{}</text>\n", kLeft + w + 4, y + 12,
                     xml_escape(value));
  }
  return s + "</svg>\n";
}

std::string gantt_chart(const std::string& title, const std::vector<std::string>& rows,
                        const std::vector<GanttBar>& bars, uint64_t span) {
  const double row_h = 30, top = 30;
  for (const GanttBar& b : bars) span = std::max(span, b.end);
  const double range = static_cast<double>(std::max<uint64_t>(span, 1));
  const double axis_y = top + row_h * static_cast<double>(rows.size()) + 14;
  std::string s = open_svg(kLeft + kWidth + 30, axis_y + 26, title);
  for (size_t r = 0; r < rows.size(); ++r) {
    const double y = top + row_h * static_cast<double>(r);
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6,
                     y + row_h / 2 + 4, xml_escape(cut(rows[r], 26)));
    s += fmt::format(
        "<line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"#ddd\"/>\n", kLeft,
        y + row_h, kLeft + kWidth, y + row_h);
  }
  for (const GanttBar& b : bars) {
    const double x = kLeft + kWidth * static_cast<double>(b.start) / range;
    const double w = std::max(1.0, kWidth * static_cast<double>(b.end - b.start) / range);
    const double y = top + row_h * b.row + 4;
    s += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.0f}\" width=\"{:.1f}\" height=\"{:.0f}\" fill=\"{}\" "
        "stroke=\"#333\" stroke-width=\"0.5\"><title>{}</title></rect>\n",
        x, y, w, row_h - 8, b.alt ? kAltColour : kColour,
        xml_escape(b.tip.empty() ? fmt::format("{}: cycles {} to {}", b.label, b.start, b.end)
                                 : b.tip));
    if (w > 6.5 * static_cast<double>(b.label.size()) + 4) {
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.0f}\">{}</text>\n", x + 3, y + row_h / 2,
                       xml_escape(b.label));
    }
  }
  for (const double t : ticks(0, range)) {
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>\n",
                     kLeft + kWidth * t / range, axis_y, number(t));
  }
  s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">cycle</text>\n", kLeft, axis_y + 16);
  return s + "</svg>\n";
}

std::string heat_map(const std::string& title, unsigned rows, unsigned cols,
                     const std::vector<double>& values, const std::string& row_axis,
                     const std::string& col_axis) {
  const double cell = std::clamp(320.0 / std::max(1U, std::max(rows, cols)), 4.0, 18.0);
  const double left = 30, top = 30;
  std::string s = open_svg(std::max(260.0, left + cell * cols + 20), top + cell * rows + 30, title);
  for (unsigned r = 0; r < rows; ++r) {
    for (unsigned c = 0; c < cols; ++c) {
      const size_t i = static_cast<size_t>(r) * cols + c;
      const double v = i < values.size() ? std::clamp(values[i], 0.0, 1.0) : 0.0;
      const int shade = static_cast<int>(std::lround(255 * (1 - v)));
      s += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
          "fill=\"rgb({},{},255)\"><title>{} {}, {} {}: {:.0f}%</title></rect>\n",
          left + cell * c, top + cell * r, cell, cell, shade, shade, xml_escape(row_axis), r,
          xml_escape(col_axis), c, 100 * v);
    }
  }
  s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">{} \u2192</text>\n", left,
                   top + cell * rows + 16, xml_escape(col_axis));
  s += fmt::format(
      "<text x=\"12\" y=\"{:.0f}\" transform=\"rotate(90 12 {:.0f})\">{} \u2192</text>\n", top, top,
      xml_escape(row_axis));
  return s + "</svg>\n";
}

std::string scatter_plot(const std::string& title, const std::string& x_axis,
                         const std::string& y_axis, const std::vector<Point>& points) {
  const double left = 80, top = 30, w = 560, h = 340;
  double x0 = std::numeric_limits<double>::max(), x1 = std::numeric_limits<double>::lowest();
  double y0 = x0, y1 = x1;
  for (const Point& p : points) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
    y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  }
  if (points.empty()) x0 = y0 = 0, x1 = y1 = 1;
  const double mx = x1 > x0 ? (x1 - x0) * 0.08 : std::max(1.0, std::fabs(x0) * 0.1);
  const double my = y1 > y0 ? (y1 - y0) * 0.08 : std::max(1.0, std::fabs(y0) * 0.1);
  x0 -= mx, x1 += mx, y0 -= my, y1 += my;
  auto px = [&](double x) { return left + w * (x - x0) / (x1 - x0); };
  auto py = [&](double y) { return top + h - h * (y - y0) / (y1 - y0); };
  std::string s = open_svg(left + w + 20, top + h + 46, title);
  s += fmt::format(
      "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"none\" "
      "stroke=\"#999\"/>\n",
      left, top, w, h);
  for (const double t : ticks(x0, x1)) {
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>\n", px(t),
                     top + h + 14, number(t));
  }
  for (const double t : ticks(y0, y1)) {
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 4,
                     py(t) + 4, number(t));
  }
  s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>\n",
                   left + w / 2, top + h + 34, xml_escape(x_axis));
  s += fmt::format(
      "<text x=\"14\" y=\"{:.0f}\" transform=\"rotate(-90 14 {:.0f})\" "
      "text-anchor=\"middle\">{}</text>\n",
      top + h / 2, top + h / 2, xml_escape(y_axis));
  std::vector<const Point*> front;
  for (const Point& p : points) {
    if (p.front) front.push_back(&p);
  }
  std::sort(front.begin(), front.end(), [](const Point* a, const Point* b) { return a->x < b->x; });
  if (front.size() > 1) {
    std::string path;
    for (size_t i = 0; i < front.size(); ++i) {
      // A step: across at the previous point's height, then down to this one.
      path += i == 0 ? fmt::format("M{:.1f},{:.1f}", px(front[i]->x), py(front[i]->y))
                     : fmt::format(" H{:.1f} V{:.1f}", px(front[i]->x), py(front[i]->y));
    }
    s += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>\n", path,
                     kAltColour);
  }
  for (const Point& p : points) {
    s += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" stroke=\"#333\" "
        "stroke-width=\"0.7\"><title>{}</title></circle>\n",
        px(p.x), py(p.y), p.front ? kAltColour : "white", xml_escape(p.tip));
    if (p.chosen) {
      s += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"8\" fill=\"none\" stroke=\"#c0392b\" "
          "stroke-width=\"2\"/>\n",
          px(p.x), py(p.y));
    }
  }
  return s + "</svg>\n";
}

}  // namespace npugen::report
