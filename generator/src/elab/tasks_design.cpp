#include "elab/tasks_design.hpp"

namespace npugen::elab {

golden::TaskParams task_params(const config::Config& config) {
  const config::TasksConfig& t = config.tasks;
  golden::TaskParams p;
  p.entries = static_cast<unsigned>(t.entries);
  p.queues = static_cast<unsigned>(t.queues);
  p.neural_engines = static_cast<unsigned>(t.neural_engines);
  p.planar_engines = static_cast<unsigned>(t.planar_engines);
  p.config_queue_depth = static_cast<unsigned>(t.config_queue_depth);
  p.buffer_words = static_cast<uint64_t>(t.buffer_words);
  p.memory_words = static_cast<uint64_t>(t.memory_words);
  p.memory_latency = static_cast<unsigned>(t.memory_latency);
  p.cycle_bits = static_cast<unsigned>(t.cycle_bits);
  return p;
}

TasksDesign elaborate_tasks(const config::Config& config) {
  TasksDesign d;
  d.enabled = config.tasks.enabled;
  d.params = task_params(config);
  // task id 16, network id 8, base index 8, op 3, six region fields, cycles.
  d.config_width = 16 + 8 + 8 + 3 + 6 * static_cast<int>(d.params.region_bits()) +
                   static_cast<int>(d.params.cycle_bits);
  const std::string& prefix = config.design.module_prefix;
  d.unit_module = prefix + "_task_unit";
  d.manager_module = prefix + "_task_manager";
  d.config_queue_module = prefix + "_task_config_queue";
  d.buffer_module = prefix + "_task_buffer";
  return d;
}

}  // namespace npugen::elab
