// Elaboration of the task unit (SPEC M2): golden-model parameters, field widths and
// module names, derived once from the config.
#pragma once

#include <string>

#include "config/config.hpp"
#include "npugen/golden/task_params.hpp"

namespace npugen::elab {

struct TasksDesign {
  bool enabled = false;
  golden::TaskParams params;  ///< also what the scheduler and the co-simulation use
  int config_width = 0;       ///< bits of a parsed task in the config queue and buffer

  std::string unit_module;          ///< the block's top
  std::string manager_module;       ///< queues, arbiter, fetch queue
  std::string config_queue_module;  ///< committed tasks
  std::string buffer_module;        ///< task buffer and access enable
};

TasksDesign elaborate_tasks(const config::Config& config);

/// Golden-model parameters of the task unit a configuration describes.
golden::TaskParams task_params(const config::Config& config);

}  // namespace npugen::elab
