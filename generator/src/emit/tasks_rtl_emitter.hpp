// RTL, synthesis script and register map of the task unit (SPEC M2).
#pragma once

#include <string>
#include <vector>

#include "elab/design.hpp"
#include "util/output_tree.hpp"

namespace npugen::emit {

struct TasksPaths {
  std::string registers_md;  ///< docs/task_registers.md
  std::string registers_h;   ///< sw/<name>_task_regs.h
  std::string yosys;         ///< synth/<name>_tasks.ys
};
TasksPaths tasks_paths(const elab::Design& design);

/// Writes the task unit's modules; returns their paths, top last.
std::vector<std::string> emit_tasks_rtl(const elab::Design& design, util::FileMap& files);
/// Register map (Markdown, C header) and the synthesis script.
void emit_tasks_docs(const elab::Design& design, const std::vector<std::string>& rtl_files,
                     util::FileMap& files);

}  // namespace npugen::emit
