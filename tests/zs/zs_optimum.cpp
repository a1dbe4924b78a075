// The best schedule that exists, for small zero-skipping instances: an exact optimum
// found by the z3 SMT solver (Debian package z3), against npugen's preprocessing.
//
// The encoding is the contract of SPEC M1 itself, not our algorithm: every nonzero picks
// one (base, executor tile, tile offset, aside, dc, dl); an executor holds one (offset,
// aside) per base; a multiplier slot holds one weight per base; the number of bases
// used is minimised. The solver's schedule is decoded and must pass check_schedule(),
// and it must be no worse than ours and no better than the lower bound.
//
//   zs_optimum [--instances N] [--seed S] [--z3 PATH] [--max-ratio R] [--same-row-aside 1]
// Prints one line per instance and the totals; exits 1 when a check fails or the
// total of our steps exceeds max-ratio (default 1.10) times the total optimum.
//
// --same-row-aside 1 also lets a weight move sideways inside its own row (dc = 0, dl != 0),
// a move the contract leaves out (the array has no lane-mux input for it): the optimum over
// that larger set measures what those inputs could ever save. Its schedules are not checked
// against the contract, which they may break.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "npugen/golden/zs/schedule.hpp"

using namespace npugen::golden;

namespace {

struct Option {
  size_t element;
  unsigned base, exec, a, dx, dc;
  int dl;
  unsigned lane;  // executor lane
};

std::string run_z3(const std::string& z3, const std::string& smt) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto file = dir / fmt::format("zs_optimum_{}.smt2", ::getpid());
  {
    std::ofstream out(file);
    out << smt;
  }
  std::string cmd = fmt::format("{} -smt2 {} 2>&1", z3, file.string());
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {};
  std::string text;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
  ::pclose(pipe);
  std::filesystem::remove(file);
  return text;
}

// Returns the optimal schedule, or nothing when z3 failed.
std::optional<HierSchedule> optimum(const HierTensor& w, const std::vector<SkipDepth>& lv,
                                    const std::string& z3, bool same_row_aside) {
  const unsigned lanes = w.extents[0], tiles = w.extents[1], rows = w.rows;
  const unsigned h = lv[0].lookahead, d = lv[0].lookaside, big_h = lv[1].lookahead,
                 big_d = lv[1].lookaside;
  std::vector<Option> options;
  std::vector<std::vector<size_t>> by_element;
  std::map<std::tuple<unsigned, unsigned, unsigned>, std::vector<size_t>> by_slot;
  std::map<std::tuple<unsigned, unsigned>, std::vector<std::pair<unsigned, unsigned>>> ys;
  std::ostringstream smt;
  smt << "(set-option :produce-models true)\n";
  for (unsigned b = 0; b < rows; ++b) smt << fmt::format("(declare-const x{} Bool)\n", b);
  auto yname = [](unsigned b, unsigned t, unsigned a, unsigned dx) {
    return fmt::format("y{}_{}_{}_{}", b, t, a, dx);
  };
  for (unsigned b = 0; b < rows; ++b) {
    for (unsigned t = 0; t < tiles; ++t) {
      std::vector<std::string> names;
      for (unsigned a = 0; a <= big_h; ++a) {
        for (unsigned dx = 0; dx <= big_d && t + dx < tiles; ++dx) {
          smt << fmt::format("(declare-const {} Bool)\n", yname(b, t, a, dx));
          smt << fmt::format("(assert (=> {} x{}))\n", yname(b, t, a, dx), b);
          names.push_back(yname(b, t, a, dx));
        }
      }
      if (names.size() > 1) {
        smt << "(assert ((_ at-most 1)";
        for (const auto& n : names) smt << ' ' << n;
        smt << "))\n";
      }
    }
  }
  for (unsigned t = 0; t < tiles; ++t) {
    for (unsigned c = 0; c < rows; ++c) {
      for (unsigned l = 0; l < lanes; ++l) {
        const size_t e = (size_t{t} * rows + c) * lanes + l;
        if (w.values[e] == 0) continue;
        std::vector<size_t> mine;
        for (unsigned dc = 0; dc <= h; ++dc) {
          for (unsigned a = 0; a <= big_h; ++a) {
            if (c < a + dc) continue;
            for (unsigned dx = 0; dx <= big_d && dx <= t; ++dx) {
              for (int dl = -static_cast<int>(d); dl <= static_cast<int>(d); ++dl) {
                if (dc == 0 && dl != 0 && !same_row_aside) continue;  // not in the contract
                const int lane = static_cast<int>(l) - dl;
                if (lane < 0 || lane >= static_cast<int>(lanes)) continue;
                Option o{e, c - a - dc, t - dx, a, dx, dc, dl, static_cast<unsigned>(lane)};
                const size_t id = options.size();
                options.push_back(o);
                mine.push_back(id);
                by_slot[{o.base, o.exec, o.lane}].push_back(id);
                smt << fmt::format("(declare-const z{} Bool)\n", id);
                smt << fmt::format("(assert (=> z{} {}))\n", id, yname(o.base, o.exec, a, dx));
              }
            }
          }
        }
        smt << "(assert ((_ pbeq 1";
        for (size_t i = 0; i < mine.size(); ++i) smt << " 1";
        smt << ")";
        for (size_t id : mine) smt << fmt::format(" z{}", id);
        smt << "))\n";
      }
    }
  }
  for (const auto& [slot, ids] : by_slot) {
    if (ids.size() < 2) continue;
    smt << "(assert ((_ at-most 1)";
    for (size_t id : ids) smt << fmt::format(" z{}", id);
    smt << "))\n";
  }
  smt << "(minimize (+ 0";
  for (unsigned b = 0; b < rows; ++b) smt << fmt::format(" (ite x{} 1 0)", b);
  smt << "))\n(check-sat)\n(get-value (";
  for (unsigned b = 0; b < rows; ++b) smt << fmt::format(" x{}", b);
  for (size_t id = 0; id < options.size(); ++id) smt << fmt::format(" z{}", id);
  smt << "))\n";

  const std::string out = run_z3(z3, smt.str());
  if (out.rfind("sat", 0) != 0) {
    std::fprintf(stderr, "z3 did not answer sat:\n%s\n", out.substr(0, 2000).c_str());
    return std::nullopt;
  }
  std::vector<bool> base_used(rows, false);
  std::vector<bool> chosen(options.size(), false);
  static const std::regex kValue(R"(\(([xz])(\d+) (true|false)\))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), kValue); it != std::sregex_iterator();
       ++it) {
    const bool value = (*it)[3] == "true";
    const size_t index = std::stoul((*it)[2]);
    if ((*it)[1] == "x") {
      base_used.at(index) = value;
    } else {
      chosen.at(index) = value;
    }
  }
  HierSchedule s;
  s.extents = w.extents;
  s.rows = rows;
  std::vector<int> step_of(rows, -1);
  for (unsigned b = 0; b < rows; ++b) {
    if (!base_used[b]) continue;
    step_of[b] = static_cast<int>(s.base.size());
    s.base.push_back(b);
  }
  const size_t steps = s.base.size();
  s.weight.assign(steps * tiles * lanes, 0);
  s.sel_cycle.assign(s.weight.size(), 0);
  s.sel_lane.assign(s.weight.size(), 0);
  s.offset.assign(1, std::vector<uint8_t>(steps * tiles, 0));
  s.aside.assign(1, std::vector<uint8_t>(steps * tiles, 0));
  for (size_t id = 0; id < options.size(); ++id) {
    if (!chosen[id]) continue;
    const Option& o = options[id];
    const size_t i = static_cast<size_t>(step_of.at(o.base));
    const size_t at = (i * tiles + o.exec) * lanes + o.lane;
    s.weight[at] = w.values[o.element];
    s.sel_cycle[at] = static_cast<uint8_t>(o.dc);
    s.sel_lane[at] = static_cast<int8_t>(o.dl);
    s.offset[0][i * tiles + o.exec] = static_cast<uint8_t>(o.a);
    s.aside[0][i * tiles + o.exec] = static_cast<uint8_t>(o.dx);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int instances = 40;
  uint64_t seed = 1;
  std::string z3 = "z3";
  double max_ratio = 1.10;
  bool same_row_aside = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--instances")
      instances = std::atoi(argv[i + 1]);
    else if (flag == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--z3")
      z3 = argv[i + 1];
    else if (flag == "--max-ratio")
      max_ratio = std::atof(argv[i + 1]);
    else if (flag == "--same-row-aside")
      same_row_aside = std::atoi(argv[i + 1]) != 0;
    else {
      std::fprintf(stderr, "unknown option %s\n", flag.c_str());
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  const std::vector<std::vector<SkipDepth>> settings = {
      {{1, 1}, {1, 1}}, {{1, 1}, {0, 0}}, {{0, 0}, {1, 1}}, {{2, 1}, {1, 1}}};
  uint64_t ours_total = 0, best_total = 0, lb_total = 0;
  int failures = 0;
  for (int n = 0; n < instances; ++n) {
    const unsigned tiles = 1 + rng() % 3, lanes = 2 + rng() % 3, rows = 4 + rng() % 5;
    auto levels = settings[rng() % settings.size()];
    levels[1].lookaside = std::min(levels[1].lookaside, tiles - 1);
    const double sparsity = std::vector<double>{0.3, 0.5, 0.7}[rng() % 3];
    HierTensor w{{lanes, tiles}, rows, std::vector<int64_t>(size_t{tiles} * rows * lanes)};
    std::bernoulli_distribution zero(sparsity);
    for (auto& v : w.values) v = zero(rng) ? 0 : 1 + static_cast<int64_t>(rng() % 9);
    const HierSchedule ours = preprocess(w, levels);
    const auto problems = check_schedule(w, levels, ours);
    const auto best = optimum(w, levels, z3, same_row_aside);
    const LowerBound lb = lower_bound(w, levels);
    if (!best) return 1;
    const auto best_problems =
        same_row_aside ? std::vector<std::string>{} : check_schedule(w, levels, *best);
    std::string verdict = "ok";
    if (!problems.empty()) verdict = "OURS BREAKS THE CONTRACT: " + problems[0];
    if (!best_problems.empty()) verdict = "OPTIMUM BREAKS THE CONTRACT: " + best_problems[0];
    if (best->steps() > ours.steps()) verdict = "OPTIMUM WORSE THAN OURS";
    if (lb.value > best->steps()) verdict = "LOWER BOUND ABOVE THE OPTIMUM";
    if (verdict != "ok") ++failures;
    std::printf(
        "%2d: T=%u C=%u L=%u sparsity %.1f h=%u d=%u H=%u D=%u: ours %zu optimum %zu "
        "bound %lu %s\n",
        n, tiles, rows, lanes, sparsity, levels[0].lookahead, levels[0].lookaside,
        levels[1].lookahead, levels[1].lookaside, ours.steps(), best->steps(),
        static_cast<unsigned long>(lb.value), verdict.c_str());
    ours_total += ours.steps();
    best_total += best->steps();
    lb_total += lb.value;
  }
  const double ratio =
      best_total == 0 ? 1.0 : static_cast<double>(ours_total) / static_cast<double>(best_total);
  std::printf("total: ours %lu, optimum %lu, lower bound %lu; ours / optimum = %.3f\n",
              static_cast<unsigned long>(ours_total), static_cast<unsigned long>(best_total),
              static_cast<unsigned long>(lb_total), ratio);
  if (failures > 0) return 1;
  if (ratio > max_ratio) {
    std::printf("FAIL: ours / optimum %.3f exceeds %.3f\n", ratio, max_ratio);
    return 1;
  }
  return 0;
}
