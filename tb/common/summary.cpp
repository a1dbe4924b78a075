#include "common/summary.hpp"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace npugen::tb {

std::vector<std::string> RunSummary::unmet_goals() const {
  std::vector<std::string> out;
  for (const Goal& g : goals) {
    if (g.required && g.value == 0) out.push_back(g.name);
  }
  return out;
}

void write_summary_json(const RunSummary& s, const std::string& path) {
  nlohmann::ordered_json j;
  j["design"] = s.design;
  j["config_hash"] = s.config_hash;
  j["block"] = s.block;
  j["mode"] = s.mode;
  j["seed"] = s.seed;
  j["cycles"] = s.cycles;
  j["status"] = s.status;
  j["mismatches"] = nlohmann::ordered_json::array();
  for (const Mismatch& m : s.mismatches) {
    j["mismatches"].push_back({{"cycle", m.cycle}, {"what", m.what}});
  }
  j["assertion"] = s.assertion;
  j["report"] = s.report;
  j["reproduce"] = s.reproduce;
  j["compared"] = {{"what", s.compared_what}, {"count", s.compared_count}};
  j["counts"] = nlohmann::ordered_json::object();
  for (const auto& [name, value] : s.counts) j["counts"][name] = value;
  j["coverage"] = nlohmann::ordered_json::array();
  for (const auto& g : s.goals) {
    j["coverage"].push_back({{"goal", g.name}, {"value", g.value}, {"required", g.required}});
  }
  j["unmet_goals"] = s.unmet_goals();
  j["limits"] = s.limits;
  j["lines"] = s.lines;
  const double cycles = static_cast<double>(s.cycles);
  j["speed"] = {{"seconds", s.seconds},
                {"cycles_per_second", s.seconds > 0 ? cycles / s.seconds : 0.0},
                {"rtl_share", s.rtl_share},
                {"checking_overhead", s.rtl_share > 0 ? 1.0 / s.rtl_share : 0.0}};
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << j.dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write " + path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot write " + path);
  }
}

}  // namespace npugen::tb
