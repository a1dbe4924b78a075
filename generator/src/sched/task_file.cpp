#include "sched/task_file.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <map>

#include "config/schema_reader.hpp"
#include "util/input_file.hpp"

namespace npugen::sched {
namespace {

using config::Location;
using config::Section;

constexpr const char* kOps = "conv, tensor, pool, elementwise, reduction or gain_bias";

struct Reference {  // a read of another task's output
  size_t reader;
  int slot;
  std::string target;
  Location where;
};

golden::Region read_region(Section& s) {
  golden::Region r;
  r.base = static_cast<uint64_t>(
      s.integer("base", {0, int64_t{1} << 32, std::nullopt, "First word of the region."}));
  r.words = static_cast<uint64_t>(
      s.integer("words", {1, int64_t{1} << 32, std::nullopt, "Words in the region."}));
  s.finish();
  return r;
}

// Follows references from `start`; returns the cycle through it, if any.
std::vector<std::string> find_cycle(const std::map<std::string, std::vector<std::string>>& edges,
                                    const std::string& start) {
  std::vector<std::string> path = {start};
  std::map<std::string, bool> on_path, done;
  std::vector<std::pair<std::string, size_t>> stack = {{start, 0}};
  on_path[start] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const auto it = edges.find(node);
    if (it == edges.end() || next >= it->second.size()) {
      on_path[node] = false;
      done[node] = true;
      stack.pop_back();
      path.pop_back();
      continue;
    }
    const std::string target = it->second[next++];
    if (target == start) {
      path.push_back(start);
      return path;
    }
    if (on_path[target] || done[target]) continue;
    on_path[target] = true;
    path.push_back(target);
    stack.emplace_back(target, 0);
  }
  return {};
}

}  // namespace

void check_task_limits(const std::vector<golden::Task>& tasks, const golden::TaskParams& params,
                       const ListLocations& where, config::Diagnostics& out) {
  auto list_error = [&](const std::string& message) {
    config::report(out, {where.file, where.list.line, where.list.column, where.list_key, message});
  };
  auto task_error = [&](size_t i, const std::string& message) {
    const bool known = i < where.task.size();
    config::report(out, {where.file, known ? where.task[i].line : where.list.line,
                         known ? where.task[i].column : where.list.column,
                         known ? where.task_key[i] : where.list_key, message});
  };
  const uint64_t count_limit = (uint64_t{1} << golden::tasks_csr::kCountBits) - 1;
  if (tasks.empty()) {
    list_error("the list has no tasks");
    return;
  }
  if (tasks.size() > count_limit) {
    list_error(fmt::format("{} tasks are more than a queue's COUNT register holds ({})",
                           tasks.size(), count_limit));
    return;
  }
  const size_t before = config::error_count(out);
  for (size_t i = 0; i < tasks.size(); ++i) {
    const golden::Task& t = tasks[i];
    const golden::Region regions[3] = {t.in[0], t.in[1], t.out};
    const char* what[3] = {"its first input", "its second input", "its output"};
    for (int k = 0; k < 3; ++k) {
      if (!regions[k].empty() && regions[k].end() > params.buffer_words) {
        task_error(i, fmt::format("task {}: {} [{}, {}) lies outside the data buffer of {} "
                                  "words (tasks.buffer_words)",
                                  t.name, what[k], regions[k].base, regions[k].end(),
                                  params.buffer_words));
      }
    }
    const uint64_t cycle_limit = (uint64_t{1} << params.cycle_bits) - 1;
    if (t.cycles < 1 || t.cycles > cycle_limit) {
      task_error(i, fmt::format("task {}: {} cycles do not fit the {}-bit cycle register "
                                "(1 to {}; tasks.cycle_bits)",
                                t.name, t.cycles, params.cycle_bits, cycle_limit));
    }
  }
  if (config::error_count(out) != before) return;
  const golden::DescriptorImage image = golden::encode_task_list(tasks, params);
  if (image.words.size() > params.memory_words) {
    list_error(
        fmt::format("the {} tasks' descriptors take {} words; the task manager "
                    "addresses {} (tasks.memory_words)",
                    tasks.size(), image.words.size(), params.memory_words));
  }
}

TaskListResult load_task_text(const std::string& text, const std::string& display_name,
                              const golden::TaskParams& params) {
  TaskListResult result;
  const auto parsed = parse_document(text, display_name, result.diagnostics);
  if (!parsed) return result;
  const YAML::Node& document = *parsed;
  config::Diagnostics& diags = result.diagnostics;
  config::Reader reader(display_name, diags);
  Section root = reader.root(document);
  std::vector<Section> items = root.list("tasks", "The tasks, in list order.", 1, 1 << 24, 0);
  std::vector<golden::Task> tasks;
  std::vector<Reference> refs;
  std::map<std::string, size_t> index;
  std::vector<Location> task_where;
  for (size_t i = 0; i < items.size(); ++i) {
    Section& s = items[i];
    golden::Task t;
    t.name = s.identifier("name", std::nullopt, "Task name.");
    task_where.push_back(s.location_of("name"));
    if (!index.emplace(t.name, i).second) {
      reader.error(
          s.location_of("name"), s.path_of("name"),
          fmt::format("task name {} is used twice (first by task {})", t.name, index[t.name]));
    }
    if (!s.has("op")) {
      reader.error(s.location_of("op"), s.path_of("op"),
                   fmt::format("task {} has no op: expected {}", t.name, kOps));
    } else {
      const std::string op = s.choice("op", "conv", kOps, "Operation; decides the engine kind.",
                                      [](const std::string&) { return true; });
      if (!golden::parse_op(op, t.op)) {
        reader.error(
            s.location_of("op"), s.path_of("op"),
            fmt::format("task {}: unknown engine operation '{}': expected {}", t.name, op, kOps));
      }
    }
    t.cycles = static_cast<uint64_t>(
        s.integer("cycles", {1, (int64_t{1} << 32) - 1, std::nullopt, "Work cycles."}));
    t.network_id = static_cast<unsigned>(s.integer("network_id", {0, 255, 0, "Network id."}));
    t.task_switch = s.boolean("task_switch", true, "Other queues may be served after it.");
    std::vector<Section> reads = s.list("reads", "Inputs: {task: NAME} or {base, words}.", 0, 2, 0);
    for (size_t k = 0; k < reads.size(); ++k) {
      Section& r = reads[k];
      if (r.has("task")) {
        const std::string target = r.identifier("task", std::nullopt, "Producing task.");
        refs.push_back(Reference{i, static_cast<int>(k), target, r.location_of("task")});
        r.finish();
      } else {
        t.in[k] = read_region(r);
      }
    }
    Section w = s.section("writes", "Output region {base, words}.");
    if (!s.has("writes")) {
      reader.error(s.location_of("writes"), s.path_of("writes"),
                   fmt::format("task {} has no writes region", t.name));
    } else {
      t.out = read_region(w);
    }
    s.finish();
    tasks.push_back(std::move(t));
  }
  root.finish();
  // References: to an existing, earlier task; cycles are reported as such.
  std::map<std::string, std::vector<std::string>> edges;
  for (const Reference& r : refs) edges[tasks[r.reader].name].push_back(r.target);
  for (const Reference& r : refs) {
    const golden::Task& reader_task = tasks[r.reader];
    const auto it = index.find(r.target);
    const std::string path = fmt::format("tasks[{}].reads[{}].task", r.reader, r.slot);
    if (it == index.end()) {
      reader.error(r.where, path,
                   fmt::format("task {} reads the output of {}, which is not a task in this list",
                               reader_task.name, r.target));
    } else if (it->second >= r.reader) {
      const auto cycle = find_cycle(edges, reader_task.name);
      if (!cycle.empty()) {
        std::string chain;
        for (const auto& n : cycle) chain += (chain.empty() ? "" : " -> ") + n;
        reader.error(r.where, path,
                     fmt::format("task {}: dependency cycle {}", reader_task.name, chain));
      } else {
        reader.error(r.where, path,
                     fmt::format("task {} reads the output of {}, which comes later in the list "
                                 "(task {}); a task reads only earlier tasks' outputs",
                                 reader_task.name, r.target, it->second));
      }
    } else {
      tasks[r.reader].in[r.slot] = tasks[it->second].out;
    }
  }
  if (!diags.empty()) return result;
  ListLocations where{display_name, "tasks", root.location_of("tasks"), task_where, {}};
  for (size_t i = 0; i < tasks.size(); ++i) where.task_key.push_back(fmt::format("tasks[{}]", i));
  check_task_limits(tasks, params, where, diags);
  if (diags.empty()) result.tasks = std::move(tasks);
  return result;
}

std::optional<YAML::Node> parse_document(const std::string& text, const std::string& name,
                                         config::Diagnostics& out) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    out.push_back({name, e.mark.line + 1, e.mark.column + 1, "", "malformed YAML: " + e.msg});
    return std::nullopt;
  }
}

TaskListResult load_input_file(
    const std::filesystem::path& file,
    const std::function<TaskListResult(const std::string& text, const std::string& name)>& load) {
  const std::string name = file.string();
  std::string text;
  try {
    text = util::read_input_file(file);
  } catch (const util::InputError& e) {
    TaskListResult r;
    r.diagnostics.push_back({name, 0, 0, "", e.what()});
    return r;
  }
  return load(text, name);
}

TaskListResult load_task_file(const std::filesystem::path& file, const golden::TaskParams& params) {
  return load_input_file(file, [&](const std::string& text, const std::string& name) {
    return load_task_text(text, name, params);
  });
}

}  // namespace npugen::sched
