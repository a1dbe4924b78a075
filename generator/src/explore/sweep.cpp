#include "explore/sweep.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace npugen::explore {

std::string Point::label() const {
  std::string s;
  for (const auto& [key, value] : settings) {
    const auto dot = key.rfind('.');
    s += (s.empty() ? "" : " ") + (dot == std::string::npos ? key : key.substr(dot + 1)) + "=" +
         value;
  }
  return s.empty() ? "base" : s;
}

Sweep parse_sweep(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument(fmt::format("--sweep {}: expected KEY=V1,V2,...", text));
  Sweep s;
  s.key = text.substr(0, eq);
  for (const char c : s.key) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
      throw std::invalid_argument(
          fmt::format("--sweep {}: a key is dotted names (section.key)", text));
  }
  std::string value;
  int depth = 0;
  for (size_t i = eq + 1; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    depth += c == '[' || c == '{' ? 1 : c == ']' || c == '}' ? -1 : 0;
    if (c == ',' && depth == 0) {
      if (value.empty())
        throw std::invalid_argument(fmt::format("--sweep {}: an empty value", text));
      s.values.push_back(value);
      value.clear();
    } else {
      value += c;
    }
  }
  if (depth != 0) throw std::invalid_argument(fmt::format("--sweep {}: unbalanced [ ]", text));
  return s;
}

std::vector<Point> sweep_points(const std::vector<Sweep>& sweeps) {
  std::vector<Point> points(1);
  for (const Sweep& s : sweeps) {
    std::vector<Point> next;
    for (const Point& p : points) {
      for (const std::string& v : s.values) {
        Point q = p;
        q.settings.emplace_back(s.key, v);
        next.push_back(std::move(q));
      }
    }
    points = std::move(next);
  }
  return points;
}

std::string apply_settings(const std::string& base, const Point& point) {
  YAML::Node root = YAML::Load(base);
  for (const auto& [key, value] : point.settings) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1)
      parts.push_back(key.substr(start, dot - start));
    parts.push_back(key.substr(start));
    YAML::Node node = root;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      if (node[parts[i]] && !node[parts[i]].IsMap())
        throw std::invalid_argument(fmt::format("--sweep {}: {} is not a section", key, parts[i]));
      YAML::Node child = node[parts[i]];
      node.reset(child);
    }
    node[parts.back()] = YAML::Load(value);
  }
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace npugen::explore
