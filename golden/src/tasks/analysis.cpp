#include "npugen/golden/tasks/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

namespace npugen::golden {
namespace {

bool intersects(const Region& a, const Region& b) {
  if (a.words == 0 || b.words == 0) return false;
  return std::max(a.base, b.base) < std::min(a.base + a.words, b.base + b.words);
}

bool reads(const Task& t, const Region& r) {
  return intersects(t.in[0], r) || intersects(t.in[1], r);
}

}  // namespace

std::vector<std::string> check_schedule(const std::vector<Task>& tasks,
                                        const std::vector<TaskTiming>& timing,
                                        const TaskParams& params, size_t max_messages) {
  std::vector<std::string> out;
  auto report = [&](std::string message) {
    if (out.size() < max_messages) out.push_back(std::move(message));
  };
  const size_t n = tasks.size();
  for (size_t j = 0; j < n; ++j) {
    const Task& b = tasks[j];
    const TaskTiming& tb = timing[j];
    if (tb.end - tb.start != std::max<uint64_t>(b.cycles, 1)) {
      report(fmt::format("{} ran {} cycles, not {}", b.name, tb.end - tb.start, b.cycles));
    }
    if (tb.engine >= params.engines(b.kind())) {
      report(fmt::format("{} ran on {} engine {}, which does not exist", b.name,
                         kind_name(b.kind()), tb.engine));
    }
    for (size_t i = 0; i < j; ++i) {
      const Task& a = tasks[i];
      const TaskTiming& ta = timing[i];
      // b's reads happen in (start, end]; a's writes and reads too.
      if (reads(b, a.out) && tb.start < ta.end) {
        report(fmt::format("{} reads {}'s output from cycle {}, before {} finished (cycle {})",
                           b.name, a.name, tb.start + 1, a.name, ta.end));
      }
      if (reads(a, b.out) && tb.start < ta.end) {
        report(fmt::format("{} overwrites data {} still reads (starts {}, {} finishes {})", b.name,
                           a.name, tb.start, a.name, ta.end));
      }
      if (intersects(a.out, b.out) && tb.start < ta.end) {
        report(fmt::format("{} writes over {}'s output before {} finished (starts {}, ends {})",
                           b.name, a.name, a.name, tb.start, ta.end));
      }
      if (a.kind() == b.kind()) {
        if (tb.start <= ta.start) {
          report(fmt::format("{} (cycle {}) started no later than the earlier {} task {} ({})",
                             b.name, tb.start, kind_name(a.kind()), a.name, ta.start));
        }
        if (ta.engine == tb.engine && tb.start <= ta.end) {
          report(fmt::format("{} and {} overlap on {} engine {}", a.name, b.name,
                             kind_name(a.kind()), ta.engine));
        }
      }
    }
  }
  return out;
}

ScheduleBounds schedule_bounds(const std::vector<Task>& tasks, const TaskParams& params) {
  ScheduleBounds b;
  // Disjoint segments [start, end) of the buffer -> finish time of their latest writer.
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> segments;  // start -> (end, finish)
  auto split = [&](uint64_t at) {
    auto it = segments.upper_bound(at);
    if (it == segments.begin()) return;
    --it;
    if (it->first < at && at < it->second.first) {
      const auto [end, finish] = it->second;
      it->second.first = at;
      segments.emplace(at, std::make_pair(end, finish));
    }
  };
  auto ready_after = [&](const Region& r) {
    uint64_t t = 0;
    if (r.words == 0) return t;
    auto it = segments.upper_bound(r.base);
    if (it != segments.begin()) --it;
    for (; it != segments.end() && it->first < r.base + r.words; ++it) {
      if (it->second.first > r.base) t = std::max(t, it->second.second);
    }
    return t;
  };
  for (const Task& t : tasks) {
    const uint64_t cycles = std::max<uint64_t>(t.cycles, 1);
    const uint64_t finish = std::max(ready_after(t.in[0]), ready_after(t.in[1])) + cycles;
    b.critical_path = std::max(b.critical_path, finish);
    b.work[static_cast<unsigned>(t.kind())] += cycles;
    b.total_work += cycles;
    if (t.out.words != 0) {
      split(t.out.base);
      split(t.out.end());
      auto first = segments.lower_bound(t.out.base);
      auto last = segments.lower_bound(t.out.end());
      segments.erase(first, last);
      segments.emplace(t.out.base, std::make_pair(t.out.end(), finish));
    }
  }
  b.lower_bound = b.critical_path;
  for (unsigned k = 0; k < kEngineKinds; ++k) {
    const uint64_t engines = params.engines(static_cast<EngineKind>(k));
    b.kind_bound[k] = (b.work[k] + engines - 1) / engines;
    b.lower_bound = std::max(b.lower_bound, b.kind_bound[k]);
  }
  return b;
}

}  // namespace npugen::golden
