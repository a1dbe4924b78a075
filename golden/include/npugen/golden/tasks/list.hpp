// Task lists: what a compiler hands the task manager. A task reads up to two
// regions of the shared data buffer and writes one; the hardware derives dependencies
// (reads of an unfinished task's output) and conflicts (writes over data an unfinished
// task still reads or writes) from these regions. Descriptors are the binary form in
// system memory; docs/tasks.md documents the layout (task_params.hpp defines it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npugen/golden/tasks/params.hpp"

namespace npugen::golden {

/// Words [base, base + words) of the data buffer; words == 0 means no region.
struct Region {
  uint64_t base = 0;
  uint64_t words = 0;
  [[nodiscard]] bool empty() const { return words == 0; }
  [[nodiscard]] uint64_t end() const { return base + words; }
  bool operator==(const Region&) const = default;
};

struct Task {
  std::string name;  ///< for messages and reports (not in the descriptor)
  TaskOp op = TaskOp::kConv;
  Region in[2];
  Region out;
  uint64_t cycles = 1;  ///< work cycles of the engine (>= 1)
  unsigned network_id = 0;
  bool task_switch = true;  ///< false: the task manager stays on this queue afterwards
  bool input_in_memory = false;
  bool output_in_memory = false;
  std::vector<uint32_t> shape;  ///< engine shape registers (at most 16), passed through

  [[nodiscard]] EngineKind kind() const { return engine_of(op); }
};

/// A list encoded as descriptors placed back to back from word 0.
struct DescriptorImage {
  std::vector<uint32_t> words;
  std::vector<uint64_t> offsets;  ///< first word of each task's descriptor
};

/// Encodes tasks; task i gets id (first_id + i) mod 2^16. Throws std::invalid_argument
/// when a field does not fit its register (the caller validates lists first).
DescriptorImage encode_task_list(const std::vector<Task>& tasks, const TaskParams& params,
                                 uint32_t first_id = 0);
/// Decodes an image (back-to-back descriptors); throws std::invalid_argument naming the
/// word where it is malformed. Names are "T<index>".
std::vector<Task> decode_task_list(const std::vector<uint32_t>& words);

/// Little-endian bytes of an image, and back (throws if the length is not a multiple of 4).
std::string image_bytes(const std::vector<uint32_t>& words);
std::vector<uint32_t> image_words(const std::string& bytes);

}  // namespace npugen::golden
