// npugen explore's outputs: explore.json (every point), explore.csv (one row a point, the
// swept keys as columns), pareto.svg (cycles per image against cells, the front marked) and
// the same in an HTML page.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "explore/point.hpp"

namespace npugen::explore {

struct Exploration {
  std::string config, network;    ///< the files explored
  std::vector<std::string> keys;  ///< the swept keys, in order
  std::string constraint;         ///< "max_cells 50000", "min_fps 1000" or empty
  std::vector<Point> points;
  double seconds = 0;  ///< the run's wall time
};

nlohmann::json exploration_json(const Exploration& e);
std::string exploration_csv(const Exploration& e);
std::string pareto_svg(const Exploration& e);
std::string exploration_html(const Exploration& e);

}  // namespace npugen::explore
