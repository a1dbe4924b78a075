// Checks and bounds of task schedules that share no code with the task unit model: a
// plain pairwise hazard checker over the tasks' buffer regions, and the lower bound
// (critical path of data dependencies; work of each engine kind over its engines).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npugen/golden/tasks/list.hpp"
#include "npugen/golden/tasks/system.hpp"

namespace npugen::golden {

/// Every violation of the execution rules in a schedule, as messages (empty: none):
/// a task that reads a region before an earlier task writing it finished (read after
/// write), writes a region before an earlier task reading or writing it finished (write
/// after read / write), starts before an earlier task of its engine kind, runs for other
/// than its cycles, or shares an engine with an overlapping task. Pairwise: O(n^2).
std::vector<std::string> check_schedule(const std::vector<Task>& tasks,
                                        const std::vector<TaskTiming>& timing,
                                        const TaskParams& params, size_t max_messages = 20);

struct ScheduleBounds {
  uint64_t critical_path = 0;  ///< longest chain of read-after-write dependencies, in cycles
  uint64_t work[kEngineKinds] = {0, 0};        ///< total cycles of each kind's tasks
  uint64_t kind_bound[kEngineKinds] = {0, 0};  ///< ceil(work / engines of the kind)
  uint64_t lower_bound = 0;                    ///< max(critical path, kind bounds)
  uint64_t total_work = 0;                     ///< sum of all tasks' cycles
};

/// O(n log n): each input depends on the latest earlier writer of each of its words.
ScheduleBounds schedule_bounds(const std::vector<Task>& tasks, const TaskParams& params);

}  // namespace npugen::golden
