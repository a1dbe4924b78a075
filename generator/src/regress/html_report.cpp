#include "regress/html_report.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "report/html.hpp"
#include "report/svg.hpp"

namespace npugen::regress {
namespace fs = std::filesystem;
using report::xml_escape;

namespace {

std::string link(const std::string& target, const fs::path& page_dir) {
  if (target.empty()) return "";
  std::error_code ec;
  const fs::path rel = fs::relative(fs::absolute(target, ec), fs::absolute(page_dir, ec), ec);
  return xml_escape(ec || rel.empty() ? target : rel.string());
}

std::string job_title(const Result& r) {
  std::string t = fmt::format("{} {} {}: {}", r.job.design, r.job.block, r.job.variant(), r.status);
  if (!r.message.empty()) t += "\n" + r.message;
  if (!r.reproduce.empty()) t += "\nreproduce: " + r.reproduce;
  return t;
}

std::string matrix(const Run& run, const fs::path& page_dir) {
  std::vector<std::string> designs, blocks;
  std::map<std::pair<std::string, std::string>, std::vector<const Result*>> cells;
  for (const Result& r : run.results) {
    if (std::find(designs.begin(), designs.end(), r.job.design) == designs.end())
      designs.push_back(r.job.design);
    if (std::find(blocks.begin(), blocks.end(), r.job.block) == blocks.end())
      blocks.push_back(r.job.block);
    cells[{r.job.design, r.job.block}].push_back(&r);
  }
  std::string s = "<table>\n<tr><th>design</th>";
  for (const auto& b : blocks) s += "<th>" + xml_escape(b) + "</th>";
  s += "</tr>\n";
  for (const auto& d : designs) {
    s += "<tr><th>" + xml_escape(d) + "</th>";
    for (const auto& b : blocks) {
      s += "<td>";
      for (const Result* r : cells[{d, b}]) {
        const std::string mark = r->job.kind == JobKind::kSim      ? std::to_string(r->job.seed)
                                 : r->job.kind == JobKind::kLint   ? "L"
                                 : r->job.kind == JobKind::kTiming ? "T"
                                                                   : "N";
        s += fmt::format("<a class=\"job {}\" href=\"{}\" title=\"{}\">{}</a>", r->status,
                         link(r->log, page_dir), xml_escape(job_title(*r)), mark);
      }
      s += "</td>";
    }
    s += "</tr>\n";
  }
  return s +
         "</table>\n<p><small>Numbers are seeds, L a lint, N a network run, T a timing; a cell "
         "links to its log, its tooltip gives the reproduce line.</small></p>\n";
}

std::string failures(const Run& run, const fs::path& page_dir) {
  if (run.failures() == 0) return "<p>Every job passed.</p>\n";
  std::string s =
      "<table>\n<tr><th>design</th><th>block</th><th>job</th><th>status</th><th>message</th>"
      "<th>reproduce</th><th>log</th></tr>\n";
  for (const Result& r : run.results) {
    if (r.passed()) continue;
    s += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td><code>{}</code></td><td><a href=\"{}\">log</a></td></tr>\n",
        r.status, xml_escape(r.job.design), xml_escape(r.job.block), xml_escape(r.job.variant()),
        r.status, xml_escape(r.message), xml_escape(r.reproduce), link(r.log, page_dir));
  }
  return s + "</table>\n";
}

// Co-simulation speed per design: the sim summaries' own timing of the run (the model's
// build excluded), cycles over seconds summed over the design's co-simulations; a run without
// that timing counts with its job's wall time.
std::string speed(const Run& run) {
  std::map<std::string, std::pair<double, double>> per;  // design -> cycles, seconds
  std::vector<std::string> order;
  for (const Result& r : run.results) {
    if (r.job.kind != JobKind::kSim || r.seconds <= 0 || r.cycles == 0) continue;
    double seconds = r.seconds;
    const nlohmann::json s = read_json_or_null(r.details);
    if (s.is_object() && s.contains("speed") && s["speed"].value("seconds", 0.0) > 0)
      seconds = s["speed"]["seconds"].get<double>();
    if (!per.contains(r.job.design)) order.push_back(r.job.design);
    per[r.job.design].first += static_cast<double>(r.cycles);
    per[r.job.design].second += seconds;
  }
  if (order.empty()) return "<p>No co-simulation ran.</p>\n";
  std::vector<report::Bar> bars;
  for (const auto& d : order) bars.push_back({d, per[d].first / per[d].second, "", false});
  return report::bar_chart("Co-simulated cycles per second (RTL against golden, builds excluded)",
                           bars, "{:.0f} cycles/s");
}

// A string field of a stats.json record ("" when absent or null: a planar layer's array).
std::string text(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string network_section(const Result& r) {
  std::string s =
      fmt::format("<h3>{} on {}</h3>\n", xml_escape(r.job.variant()), xml_escape(r.job.design));
  const nlohmann::json stats = read_json_or_null(r.details);
  if (!stats.is_object() || !stats.contains("layers")) {
    return s + fmt::format("<p>No statistics ({}: {}).</p>\n", r.status, xml_escape(r.message));
  }
  const auto& t = stats["total"];
  s += fmt::format(
      "<p>{} image(s), {} cycles ({:.1f} an image, {:.0f} images/s at {} MHz), MAC utilisation "
      "{:.3f}.</p>\n<div class=\"plots\">\n",
      stats.value("images", 0), t.value("cycles", uint64_t{0}), t.value("cycles_per_image", 0.0),
      t.value("images_per_second", 0.0), t.value("clock_mhz", 0.0),
      t.value("mac_utilisation", 0.0));
  std::vector<report::Bar> util;
  std::vector<report::GanttBar> gantt;
  std::vector<report::Bar> speedups;
  std::string maps;
  for (const auto& l : stats["layers"]) {
    const std::string name = text(l, "name");
    const bool neural = text(l, "engine") == "neural";
    const double u = neural ? l.value("mac_utilisation", 0.0) : l.value("mapping_efficiency", 0.0);
    util.push_back({name, u,
                    fmt::format("{} ({}, {}): {}", name, text(l, "op"), text(l, "engine"),
                                neural ? fmt::format("MAC utilisation {:.3f}", u)
                                       : fmt::format("planar beats / cycles {:.3f}", u)),
                    !neural});
    if (l.contains("first_batch_ready_at")) {
      gantt.push_back({neural ? 0U : 1U, l.value("first_batch_ready_at", uint64_t{0}),
                       l.value("first_batch_finished_at", uint64_t{0}), name, "", !neural});
    }
    const uint64_t zs = l.value("zs_steps_per_pixel", uint64_t{0});
    if (text(l, "array") == "zero_skip" && zs > 0) {
      const double dense = static_cast<double>(l.value("dense_steps_per_pixel", uint64_t{0}));
      speedups.push_back(
          {name, dense / static_cast<double>(zs),
           fmt::format("{}: {} dense steps a pixel, {} after zero skipping", name, dense, zs),
           false});
    }
    if (l.contains("sparsity_map")) {
      const auto& m = l["sparsity_map"];
      maps += report::heat_map(fmt::format("{}: zero weights {:.0f}% (darker: more zeros)", name,
                                           100 * l.value("weight_zero_fraction", 0.0)),
                               m.value("rows", 0U), m.value("cols", 0U),
                               m.value("values", std::vector<double>{}), "filters", "filter taps");
    }
  }
  s += report::bar_chart("Per layer: MAC utilisation (neural), beats per cycle (planar, orange)",
                         util, "{:.3f}", 1.0);
  if (!gantt.empty()) {
    s += report::gantt_chart("Layers on the engines, first batch (from ready to done)",
                             {"neural engine", "planar engine"}, gantt);
  }
  if (!speedups.empty()) {
    s += report::bar_chart("Zero skipping: speed-up over the dense array's steps", speedups,
                           "{:.2f}x");
  }
  s += maps;
  return s + "</div>\n";
}

std::string all_jobs(const Run& run, const fs::path& page_dir) {
  std::string s =
      "<details><summary>All jobs</summary>\n<table>\n<tr><th>design</th><th>block</th>"
      "<th>job</th><th>status</th><th>cycles</th><th>seconds</th><th>cycles/s</th>"
      "<th>configuration hash</th><th>reproduce</th><th>log</th></tr>\n";
  for (const Result& r : run.results) {
    s += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{:.1f}</td><td class=\"num\">{:.0f}</td><td><code>{}</code></td>"
        "<td><code>{}</code></td><td><a href=\"{}\">log</a></td></tr>\n",
        r.status, xml_escape(r.job.design), xml_escape(r.job.block), xml_escape(r.job.variant()),
        r.status, r.cycles, r.seconds, r.cycles_per_second(),
        xml_escape(r.config_hash.substr(0, 12)), xml_escape(r.reproduce), link(r.log, page_dir));
  }
  return s + "</table>\n</details>\n";
}

}  // namespace

std::string html_report(const Run& run, const fs::path& page_dir) {
  std::string body =
      fmt::format("<p>{} jobs: <b>{} passed</b>, <b>{} failed</b>; {} in {:.1f} s.</p>\n",
                  run.results.size(), run.results.size() - run.failures(), run.failures(),
                  run.jobs_at_once == 0 ? std::string("merged from shards")
                                        : fmt::format("{} at once", run.jobs_at_once),
                  run.wall_seconds);
  // The failures first: in a run of many designs the matrix is long.
  body += "<h2 id=\"failures\">Failures</h2>\n" + failures(run, page_dir);
  body += "<h2>Pass/fail: designs x blocks x jobs</h2>\n" + matrix(run, page_dir);
  body += "<h2>Speed</h2>\n<div class=\"plots\">\n" + speed(run) + "</div>\n";
  std::string nets;
  for (const Result& r : run.results) {
    if (r.job.kind == JobKind::kNetwork) nets += network_section(r);
  }
  if (!nets.empty()) body += "<h2>Network runs</h2>\n" + nets;
  body += "<h2>Jobs</h2>\n" + all_jobs(run, page_dir);
  return report::html_page(fmt::format("npugen regress: {}, tier {}", run.suite, run.tier), body);
}

}  // namespace npugen::regress
