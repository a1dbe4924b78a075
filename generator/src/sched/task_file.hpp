// Reading task lists (npugen schedule --tasks) and checking any task list against the
// task unit's limits. Every problem is reported with the file, line and task.
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "config/diagnostic.hpp"
#include "config/schema_reader.hpp"
#include "npugen/golden/tasks/list.hpp"
#include "npugen/golden/tasks/params.hpp"

namespace npugen::sched {

struct TaskListResult {
  std::optional<std::vector<golden::Task>> tasks;  ///< present exactly when no diagnostics
  config::Diagnostics diagnostics;
};

/// Reads a task list file (format in docs/tasks.md).
TaskListResult load_task_file(const std::filesystem::path& file, const golden::TaskParams& params);
TaskListResult load_task_text(const std::string& text, const std::string& display_name,
                              const golden::TaskParams& params);

/// Reads a file and hands its text to `load` (for the two input kinds); a missing file is
/// a diagnostic.
TaskListResult load_input_file(
    const std::filesystem::path& file,
    const std::function<TaskListResult(const std::string& text, const std::string& name)>& load);

/// Parses YAML text; a syntax error becomes a diagnostic with its line and column.
std::optional<YAML::Node> parse_document(const std::string& text, const std::string& name,
                                         config::Diagnostics& out);

/// Where a list's problems are reported: the list as a whole (its key's value) and, per
/// task, the place that defines it (a task of a task file, a layer of a network).
struct ListLocations {
  std::string file;
  std::string list_key;  ///< e.g. "tasks" or "layers"
  config::Location list;
  std::vector<config::Location> task;  ///< per task
  std::vector<std::string> task_key;   ///< per task, e.g. "tasks[3]" or "layers[2]"
};

/// Limits any list must meet (regions in the buffer, cycles in their register, the
/// descriptors in memory); reports each problem at the task or the list it concerns.
void check_task_limits(const std::vector<golden::Task>& tasks, const golden::TaskParams& params,
                       const ListLocations& where, config::Diagnostics& out);

}  // namespace npugen::sched
