// npugen explore's sweeps: KEY=V1,V2,... over dotted configuration keys, their cartesian
// product, and a configuration's YAML with a point's values set.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "explore/point.hpp"

namespace npugen::explore {

struct Sweep {
  std::string key;                  ///< dotted: section.key (pe_array.lanes)
  std::vector<std::string> values;  ///< YAML scalars or flow sequences ([conv, fc])
};

/// "KEY=V1,V2,..." (commas inside brackets belong to a value); throws std::invalid_argument
/// naming the problem.
Sweep parse_sweep(const std::string& text);

/// Every combination of the sweeps' values, the first sweep varying slowest.
std::vector<Point> sweep_points(const std::vector<Sweep>& sweeps);

/// `base` (a configuration's YAML) with each setting's key set to its value (a YAML scalar
/// or flow sequence); throws std::invalid_argument when a key's section is not a map.
std::string apply_settings(const std::string& base, const Point& point);

}  // namespace npugen::explore
