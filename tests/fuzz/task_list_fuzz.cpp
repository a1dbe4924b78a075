// Fuzz target: the task-list reader (npugen schedule --tasks). Whatever the bytes, reading
// ends in a list or in diagnostics naming the file; a list that is read encodes into
// descriptors that decode back to the same tasks.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "npugen/golden/tasks/list.hpp"
#include "sched/task_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  npugen::golden::TaskParams params;
  params.buffer_words = 4096;
  params.memory_words = 1 << 14;
  const auto result = npugen::sched::load_task_text(text, "fuzz.yaml", params);
  if (result.tasks.has_value() == !result.diagnostics.empty()) std::abort();
  for (const auto& d : result.diagnostics) {
    if (d.format().rfind("fuzz.yaml", 0) != 0) std::abort();
  }
  if (!result.tasks) return 0;
  const auto image = npugen::golden::encode_task_list(*result.tasks, params);
  if (image.words.size() > params.memory_words) std::abort();
  const auto back = npugen::golden::decode_task_list(image.words);
  if (back.size() != result.tasks->size()) std::abort();
  for (size_t i = 0; i < back.size(); ++i) {
    const auto& a = back[i];
    const auto& b = (*result.tasks)[i];
    if (a.op != b.op || a.cycles != b.cycles || a.out != b.out || a.in[0] != b.in[0] ||
        a.in[1] != b.in[1] || a.task_switch != b.task_switch) {
      std::abort();
    }
  }
  return 0;
}
