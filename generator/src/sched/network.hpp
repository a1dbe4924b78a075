// Compiling a network description (npugen schedule --network) into a task list: layer
// shapes are inferred, convolutions and fully-connected layers become neural tasks
// (optionally split along output channels), pooling, elementwise add and activation
// become planar tasks, tensors are placed in the data buffer (reusing space after a
// tensor's last reader in list order), and durations follow from the PE array and the
// planar engine's I/O rate. Format and duration model: docs/tasks.md.
#pragma once

#include <filesystem>

#include "config/config.hpp"
#include "sched/task_file.hpp"

namespace npugen::sched {

TaskListResult load_network_file(const std::filesystem::path& file, const config::Config& config);
/// `dir`: where the network's .npy files are (a shape-only network has none).
TaskListResult load_network_text(const std::string& text, const std::string& display_name,
                                 const config::Config& config,
                                 const std::filesystem::path& dir = ".");

}  // namespace npugen::sched
