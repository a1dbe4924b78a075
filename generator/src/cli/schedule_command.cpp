// npugen schedule: runs a task list (or a network compiled into one) through the golden
// task unit and reports when each task ran, the makespan against serial
// execution and the lower bound, and draws the timeline.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "blocks/tasks/tasks.hpp"
#include "cli/commands.hpp"
#include "npugen/golden/tasks/analysis.hpp"
#include "npugen/golden/tasks/system.hpp"
#include "report/svg.hpp"
#include "sched/network.hpp"
#include "sched/task_file.hpp"
#include "util/output_tree.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {
namespace {

struct ScheduleOptions {
  std::string config;
  std::string tasks;
  std::string network;
  std::string out;
  std::string svg;
  std::string descriptors;
  bool quiet = false;
};

constexpr size_t kCheckLimit = 20000;  // the pairwise hazard check is O(n^2)

struct Report {
  std::vector<golden::Task> tasks;
  golden::ScheduleRun run;
  golden::ScheduleRun serial;
  golden::ScheduleBounds bounds;
  double efficiency = 0;  ///< (serial - makespan) / (serial - lower bound); 1 when equal
  bool checked = false;

  [[nodiscard]] std::string hazard_check() const {
    return checked ? "passed" : fmt::format("skipped (more than {} tasks)", kCheckLimit);
  }
};

std::string gantt_svg(const Report& r, const golden::TaskParams& p, const std::string& title) {
  std::vector<std::string> rows;
  for (unsigned e = 0; e < p.neural_engines; ++e) rows.push_back(fmt::format("neural {}", e));
  for (unsigned e = 0; e < p.planar_engines; ++e) rows.push_back(fmt::format("planar {}", e));
  std::vector<report::GanttBar> bars;
  for (size_t i = 0; i < r.tasks.size(); ++i) {
    const golden::Task& t = r.tasks[i];
    const golden::TaskTiming& tm = r.run.timing[i];
    const bool neural = t.kind() == golden::EngineKind::kNeural;
    bars.push_back(
        {neural ? tm.engine : p.neural_engines + tm.engine, tm.start, tm.end, t.name,
         fmt::format("{} ({}): cycles {} to {}", t.name, golden::op_name(t.op), tm.start, tm.end),
         !neural});
  }
  return report::gantt_chart(fmt::format("{}: makespan {} cycles, serial {}, lower bound {}", title,
                                         r.run.makespan, r.serial.makespan, r.bounds.lower_bound),
                             rows, bars, r.run.makespan);
}

nlohmann::json report_json(const Report& r, const golden::TaskParams& p) {
  nlohmann::json tasks = nlohmann::json::array();
  for (size_t i = 0; i < r.tasks.size(); ++i) {
    const golden::Task& t = r.tasks[i];
    const golden::TaskTiming& tm = r.run.timing[i];
    tasks.push_back({{"name", t.name},
                     {"op", golden::op_name(t.op)},
                     {"engine", fmt::format("{}{}", golden::kind_name(t.kind()), tm.engine)},
                     {"cycles", t.cycles},
                     {"start", tm.start},
                     {"end", tm.end}});
  }
  return {{"tasks", tasks},
          {"makespan", r.run.makespan},
          {"serial_makespan", r.serial.makespan},
          {"lower_bound",
           {{"value", r.bounds.lower_bound},
            {"critical_path", r.bounds.critical_path},
            {"neural_work_per_engine", r.bounds.kind_bound[0]},
            {"planar_work_per_engine", r.bounds.kind_bound[1]}}},
          {"total_work", r.bounds.total_work},
          {"overlap_efficiency", r.efficiency},
          {"hazard_check", r.hazard_check()},
          {"task_unit",
           {{"entries", p.entries},
            {"neural_engines", p.neural_engines},
            {"planar_engines", p.planar_engines},
            {"config_queue_depth", p.config_queue_depth},
            {"memory_latency", p.memory_latency}}}};
}

void print_report(const Report& r, const golden::TaskParams& p) {
  std::printf("%-16s %-12s %-9s %10s %10s %10s\n", "task", "op", "engine", "cycles", "start",
              "end");
  for (size_t i = 0; i < r.tasks.size() && i < 200; ++i) {
    const golden::Task& t = r.tasks[i];
    const golden::TaskTiming& tm = r.run.timing[i];
    std::printf("%-16s %-12s %-9s %10llu %10llu %10llu\n", t.name.c_str(),
                std::string(golden::op_name(t.op)).c_str(),
                fmt::format("{}{}", golden::kind_name(t.kind()), tm.engine).c_str(),
                static_cast<unsigned long long>(t.cycles),
                static_cast<unsigned long long>(tm.start), static_cast<unsigned long long>(tm.end));
  }
  if (r.tasks.size() > 200) std::printf("... (%zu tasks; all in the JSON)\n", r.tasks.size());
  std::printf(
      "makespan %llu cycles; serial (one task at a time) %llu; lower bound %llu (critical path "
      "%llu, neural work %llu over %u engine(s), planar work %llu over %u)\n"
      "overlap efficiency (serial - makespan) / (serial - lower bound) = %.3f; hazard check %s\n",
      static_cast<unsigned long long>(r.run.makespan),
      static_cast<unsigned long long>(r.serial.makespan),
      static_cast<unsigned long long>(r.bounds.lower_bound),
      static_cast<unsigned long long>(r.bounds.critical_path),
      static_cast<unsigned long long>(r.bounds.work[0]), p.neural_engines,
      static_cast<unsigned long long>(r.bounds.work[1]), p.planar_engines, r.efficiency,
      r.hazard_check().c_str());
}

void schedule(const ScheduleOptions& o) {
  const elab::Design design = load_design(o.config);
  const auto* unit = design.find<blocks::tasks::Design>();
  if (unit == nullptr) {
    throw CommandError(kBadInput, fmt::format("{}: the task unit is not enabled (tasks.enabled: "
                                              "false); nothing was written",
                                              o.config));
  }
  if (o.tasks.empty() == o.network.empty()) {
    throw CommandError(kBadInput, "give exactly one of --tasks and --network; nothing was written");
  }
  // Every output is checked before any work; none is written over another.
  const std::string given = o.tasks.empty() ? o.network : o.tasks;
  const fs::path out = o.out.empty() ? fs::path(fs::path(given).stem().string() + ".schedule.json")
                                     : fs::path(o.out);
  check_output_file("--out", out);
  if (!o.svg.empty()) check_output_file("--svg", o.svg);
  if (!o.descriptors.empty()) check_output_file("--descriptors", o.descriptors);
  check_distinct("--out", out, "--svg", o.svg);
  check_distinct("--out", out, "--descriptors", o.descriptors);
  check_distinct("--svg", o.svg, "--descriptors", o.descriptors);
  const golden::TaskParams params = unit->params;
  const sched::TaskListResult loaded = o.tasks.empty()
                                           ? sched::load_network_file(o.network, design.config)
                                           : sched::load_task_file(o.tasks, params);
  const std::string input = o.tasks.empty() ? o.network : o.tasks;
  if (!loaded.tasks) {
    for (const auto& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", d.format().c_str());
    throw CommandError(kBadInput, fmt::format("{} error(s) in {}; nothing was written",
                                              config::error_count(loaded.diagnostics), input));
  }
  Report r;
  r.tasks = *loaded.tasks;
  r.run = golden::run_task_list(params, r.tasks);
  golden::TaskParams one = params;
  one.entries = 1;
  r.serial = golden::run_task_list(one, r.tasks);
  r.bounds = golden::schedule_bounds(r.tasks, params);
  const double gap = static_cast<double>(r.serial.makespan) - double(r.bounds.lower_bound);
  r.efficiency = gap <= 0 ? 1.0 : (double(r.serial.makespan) - double(r.run.makespan)) / gap;
  if (r.tasks.size() <= kCheckLimit) {
    const auto problems = golden::check_schedule(r.tasks, r.run.timing, params);
    for (const auto& p : problems) std::fprintf(stderr, "hazard: %s\n", p.c_str());
    if (!problems.empty()) {
      throw CommandError(kSimulationFailed, "the schedule breaks the execution rules");
    }
    r.checked = true;
  }
  if (!o.quiet) print_report(r, params);
  util::write_file_atomically(out, report_json(r, params).dump(2) + "\n");
  if (!o.quiet) std::printf("wrote %s\n", out.c_str());
  if (!o.svg.empty()) {
    util::write_file_atomically(o.svg, gantt_svg(r, params, fs::path(input).filename().string()));
    if (!o.quiet) std::printf("wrote %s\n", o.svg.c_str());
  }
  if (!o.descriptors.empty()) {
    const golden::DescriptorImage image = golden::encode_task_list(r.tasks, params);
    util::write_file_atomically(o.descriptors, golden::image_bytes(image.words));
    if (!o.quiet) {
      std::printf("wrote %s (%zu descriptor words)\n", o.descriptors.c_str(), image.words.size());
    }
  }
}

}  // namespace

void add_schedule_command(CLI::App& app) {
  static ScheduleOptions o;
  auto* cmd = app.add_subcommand(
      "schedule",
      "Run a task list (--tasks) or a network (--network) through the golden task unit "
      "(docs/tasks.md) of CONFIG: per-task start and end cycles, the makespan, the serial "
      "makespan, a lower bound and the overlap efficiency; printed, and written as JSON to "
      "--out.");
  cmd->add_option("config", o.config, "Configuration file (tasks.enabled: true)")->required();
  cmd->add_option("--tasks", o.tasks, "Task list YAML (docs/tasks.md)")->check(non_empty());
  cmd->add_option("--network", o.network, "Network YAML (docs/tasks.md)")->check(non_empty());
  cmd->add_option("--out", o.out, "Schedule JSON (default: <input stem>.schedule.json)")
      ->check(non_empty());
  cmd->add_option("--svg", o.svg, "Also draw the timeline as a Gantt chart (SVG)")
      ->check(non_empty());
  cmd->add_option("--descriptors", o.descriptors,
                  "Also write the task list as binary descriptors (little-endian 32-bit words)")
      ->check(non_empty());
  cmd->add_flag("--quiet", o.quiet, "Print nothing but errors");
  cmd->callback([] { schedule(o); });
}

}  // namespace npugen::cli
