// The task unit: task queues with priorities, a fixed-priority arbiter, a fetch
// queue a higher-priority task may replace, a configuration queue, and a task buffer that
// tracks each task's dependencies and conflicts and grants neural and planar engines
// access in list order per kind (section `tasks`).
#pragma once

#include <cstdint>
#include <string>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "npugen/golden/tasks/params.hpp"

namespace npugen::blocks::tasks {

const Block& block();

/// tasks.buffer_words: the shared data buffer's words, kMinBufferWords to 2^28.
constexpr int64_t kMinBufferWords = 16;

/// The `tasks` section.
struct TasksConfig {
  bool enabled = false;
  golden::TaskParams params;
};
const TasksConfig& config_of(const config::Config& config);

class Design : public BlockDesign {
 public:
  golden::TaskParams params;        ///< also what the scheduler and the co-simulation use
  golden::TaskConfigLayout layout;  ///< a parsed task in the configuration queue and buffer

  std::string unit_module;     ///< the top
  std::string manager_module;  ///< registers, queues, arbiter, fetch queue
  std::string buffer_module;   ///< task buffer and access enable
  std::string package;         ///< its package

  /// The block's constants in its package (the register map's are added by the emitter).
  [[nodiscard]] elab::SvConstants constants() const;

  [[nodiscard]] const Block& block() const override { return tasks::block(); }
  [[nodiscard]] std::string top() const override { return unit_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

/// `npugen bench CONFIG --tasks N`: the golden task unit's speed on N random tasks.
void bench_golden_unit(const elab::Design& design, const OfflineBench::Args& args);

}  // namespace npugen::blocks::tasks
