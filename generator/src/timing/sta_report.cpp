#include "timing/sta_report.hpp"

#include <sstream>

namespace npugen::timing {
namespace {

// The lines between "npugen-begin NAME" and "npugen-end NAME".
std::vector<std::string> section(const std::string& text, const std::string& name) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "npugen-begin " + name) {
      inside = true;
    } else if (line == "npugen-end " + name) {
      inside = false;
    } else if (inside) {
      out.push_back(line);
    }
  }
  return out;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// The paths of a report_checks section, in order.
std::vector<WorstPath> paths(const std::vector<std::string>& lines) {
  std::vector<WorstPath> out;
  WorstPath* p = nullptr;
  bool data = false;  // between the start of the launch and "data arrival time"
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (starts_with(t, "Startpoint: ")) {
      out.emplace_back();
      p = &out.back();
      p->found = true;
      p->startpoint =
          t.substr(12, t.find(" (") == std::string::npos ? std::string::npos : t.find(" (") - 12);
      data = true;
    } else if (p == nullptr) {
      continue;
    } else if (starts_with(t, "Endpoint: ")) {
      p->endpoint =
          t.substr(10, t.find(" (") == std::string::npos ? std::string::npos : t.find(" (") - 10);
    } else if (starts_with(t, "Path Group: ")) {
      p->group = t.substr(12);
    } else if (t.find("data arrival time") != std::string::npos && data) {
      std::istringstream(t) >> p->arrival_ns;
      data = false;
    } else if (t.find("data required time") != std::string::npos) {
      std::istringstream(t) >> p->required_ns;
    } else if (t.find(" slack (") != std::string::npos) {
      std::istringstream(t) >> p->slack_ns;
    } else if (data) {
      // "0.112    8.201 v _32823_/Y (AND2X1)": a cell's output pin on the path.
      std::istringstream words(t);
      double delay = 0, time = 0;
      std::string edge, pin, cell;
      if (words >> delay >> time >> edge >> pin >> cell && (edge == "v" || edge == "^") &&
          cell.size() > 2 && cell.front() == '(' && pin.find('/') != std::string::npos) {
        ++p->cells;
      }
    }
  }
  return out;
}

WorstPath worst(const std::vector<WorstPath>& ps) {
  // The path of least slack of a section (each section reports one path group).
  WorstPath best;
  for (const WorstPath& p : ps) {
    if (!best.found || p.slack_ns < best.slack_ns) best = p;
  }
  return best;
}

}  // namespace

StaReport parse_sta_log(const std::string& text) {
  StaReport r;
  r.setup = worst(paths(section(text, "setup")));
  r.hold = worst(paths(section(text, "hold")));
  r.reset = worst(paths(section(text, "reset")));
  // "endpoint  required  actual  slack (VIOLATED)"
  for (const std::string& line : section(text, "violations")) {
    if (line.find("(VIOLATED)") == std::string::npos) continue;
    std::istringstream words(line);
    std::string endpoint, kind;
    double required = 0, actual = 0, slack = 0;
    if (words >> endpoint >> kind >> required >> actual >> slack) {
      r.tns_ns += slack;
      ++r.setup_violations;
    }
  }
  for (const std::string& line : section(text, "unconstrained")) {
    const auto at = line.find("There are ");
    if (at != std::string::npos) r.unconstrained_endpoints = std::stoi(line.substr(at + 10));
  }
  for (const std::string& line : section(text, "transition")) {
    if (line.find("(VIOLATED)") == std::string::npos) continue;
    ++r.transition_violations;
    std::istringstream words(line);
    std::string pin;
    double limit = 0, trans = 0;
    if (words >> pin >> limit >> trans && trans > r.worst_transition_ns) {
      r.worst_transition_ns = trans;
    }
  }
  // Anything OpenSTA complained about outside the unconstrained-endpoint section (where its
  // count is a warning by design).
  std::istringstream in(text);
  std::string line;
  bool unconstrained = false;
  while (std::getline(in, line)) {
    if (line == "npugen-begin unconstrained") unconstrained = true;
    if (line == "npugen-end unconstrained") unconstrained = false;
    if (!unconstrained && (starts_with(line, "Error") || starts_with(line, "Warning"))) {
      r.problems.push_back(line);
    }
  }
  return r;
}

CellStats parse_stat(const std::string& text, const std::vector<std::string>& flop_cells,
                     const std::string& macro_prefix) {
  CellStats s;
  std::istringstream in(text);
  std::string line;
  // With a hierarchy the totals follow "=== design hierarchy ==="; with one module the
  // module's section is the total.
  const bool hierarchy = text.find("=== design hierarchy ===") != std::string::npos;
  bool counting = !hierarchy;
  while (std::getline(in, line)) {
    if (line.find("=== design hierarchy ===") != std::string::npos) {
      counting = true;
      s = {};
      continue;
    }
    const std::string t = trim(line);
    if (starts_with(t, "Chip area for ") && counting) {
      s.area = std::stod(t.substr(t.rfind(':') + 1));
      s.found = true;
    }
    if (!counting) continue;
    std::istringstream words(t);
    std::string name;
    uint64_t n = 0;
    if (!(words >> name)) continue;
    if (name == "Number") {
      std::string of, what;
      if (words >> of >> what >> n && what == "cells:") s.cells = n;
      continue;
    }
    if (!(words >> n)) continue;
    for (const std::string& f : flop_cells) {
      if (name == f) s.flip_flops += n;
    }
    if (starts_with(name, macro_prefix)) s.macros += n;
  }
  return s;
}

std::string top_instance(const std::string& name) {
  const auto slash = name.find('/');
  if (slash != std::string::npos) return name.substr(0, slash);
  // A flattened name: its scopes joined by dots; the generated RTL names every instance u_*.
  const std::string first = name.substr(0, name.find('.'));
  return first.starts_with("u_") && first.size() < name.size() ? first : "";
}

}  // namespace npugen::timing
