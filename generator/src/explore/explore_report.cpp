#include "explore/explore_report.hpp"

#include <fmt/format.h>

#include <optional>

#include "report/html.hpp"
#include "report/svg.hpp"

namespace npugen::explore {
using report::xml_escape;

namespace {

nlohmann::json point_json(const Point& p) {
  nlohmann::json settings = nlohmann::json::object();
  for (const auto& [k, v] : p.settings) settings[k] = v;
  return {{"settings", settings},
          {"status", p.status},
          {"message", p.message},
          {"config_hash", p.config_hash},
          {"manifest_hash", p.manifest_hash},
          {"batch", p.batch},
          {"cycles", p.cycles},
          {"cycles_per_image", p.cycles_per_image},
          {"images_per_second", p.images_per_second},
          {"cells", p.cells},
          {"ffs", p.ffs},
          {"synth_seconds", p.synth_seconds},
          {"synth_cached", p.synth_cached},
          {"pareto", p.front},
          {"chosen", p.chosen}};
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

nlohmann::json exploration_json(const Exploration& e) {
  nlohmann::json points = nlohmann::json::array();
  std::optional<size_t> chosen;
  for (size_t i = 0; i < e.points.size(); ++i) {
    points.push_back(point_json(e.points[i]));
    if (e.points[i].chosen) chosen = i;
  }
  nlohmann::json j = {{"config", e.config},         {"network", e.network}, {"keys", e.keys},
                      {"constraint", e.constraint}, {"points", points},     {"seconds", e.seconds}};
  j["chosen"] = chosen ? nlohmann::json(*chosen) : nlohmann::json(nullptr);
  return j;
}

std::string exploration_csv(const Exploration& e) {
  std::string s;
  for (const auto& k : e.keys) s += csv_field(k) + ",";
  s += "status,batch,cycles,cycles_per_image,images_per_second,cells,ffs,synth_seconds,"
       "synth_cached,pareto,chosen,config_hash,message\n";
  for (const Point& p : e.points) {
    for (const auto& [k, v] : p.settings) s += csv_field(v) + ",";
    s += fmt::format("{},{},{},{:.3f},{:.3f},{},{},{:.2f},{},{},{},{},{}\n", p.status, p.batch,
                     p.cycles, p.cycles_per_image, p.images_per_second, p.cells, p.ffs,
                     p.synth_seconds, p.synth_cached ? 1 : 0, p.front ? 1 : 0, p.chosen ? 1 : 0,
                     p.config_hash, csv_field(p.message));
  }
  return s;
}

std::string pareto_svg(const Exploration& e) {
  std::vector<report::Point> pts;
  for (const Point& p : e.points) {
    if (!p.costed()) continue;
    pts.push_back({static_cast<double>(p.cells), p.cycles_per_image,
                   fmt::format("{}: {:.0f} cycles an image, {} cells, {} FFs{}{}", p.label(),
                               p.cycles_per_image, p.cells, p.ffs, p.front ? " (Pareto)" : "",
                               p.chosen ? " (chosen)" : ""),
                   p.front, p.chosen});
  }
  return report::scatter_plot(
      fmt::format("{}: {} points, the Pareto front in orange{}", e.network, pts.size(),
                  e.constraint.empty() ? "" : ", the choice ringed"),
      "Yosys cells (NPU top)", "golden-model cycles per image", pts);
}

std::string exploration_html(const Exploration& e) {
  std::string body = fmt::format(
      "<p>Configuration <code>{}</code>, network <code>{}</code>: {} points in {:.1f} s{}.</p>\n"
      "<div class=\"plots\">\n{}</div>\n",
      xml_escape(e.config), xml_escape(e.network), e.points.size(), e.seconds,
      e.constraint.empty() ? "" : ", constraint " + xml_escape(e.constraint), pareto_svg(e));
  body += "<table>\n<tr>";
  for (const auto& k : e.keys) body += "<th>" + xml_escape(k) + "</th>";
  body +=
      "<th>status</th><th>batch</th><th>cycles/image</th><th>images/s</th><th>cells</th>"
      "<th>FFs</th><th>synthesis s</th><th>Pareto</th></tr>\n";
  for (const Point& p : e.points) {
    body += fmt::format("<tr class=\"{}\">", p.chosen ? "pass" : p.status == "ok" ? "" : "fail");
    for (const auto& [k, v] : p.settings) body += "<td>" + xml_escape(v) + "</td>";
    body += fmt::format(
        "<td title=\"{}\">{}{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1f}</td>"
        "<td class=\"num\">{:.0f}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td>{}</td></tr>\n",
        xml_escape(p.message), p.status, p.chosen ? " (chosen)" : "", p.batch, p.cycles_per_image,
        p.images_per_second, p.cells, p.ffs,
        p.synth_cached ? std::string("cached") : fmt::format("{:.1f}", p.synth_seconds),
        p.front ? "yes" : "");
  }
  body += "</table>\n";
  return report::html_page(fmt::format("npugen explore: {}", e.network), body);
}

}  // namespace npugen::explore
