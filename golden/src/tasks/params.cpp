#include "npugen/golden/tasks/params.hpp"

#include <fmt/format.h>

#include <array>

namespace npugen::golden {
namespace {
constexpr std::array<std::string_view, kTaskOps> kOpNames = {
    "conv", "tensor", "pool", "elementwise", "reduction", "gain_bias"};
}

std::string_view op_name(TaskOp op) { return kOpNames.at(static_cast<size_t>(op)); }

std::string_view kind_name(EngineKind kind) {
  return kind == EngineKind::kNeural ? "neural" : "planar";
}

bool parse_op(std::string_view text, TaskOp& out) {
  for (size_t i = 0; i < kOpNames.size(); ++i) {
    if (kOpNames[i] == text) {
      out = static_cast<TaskOp>(i);
      return true;
    }
  }
  return false;
}

namespace tasks_csr {

regmap::RegisterMap register_map(const TaskParams& p) {
  using regmap::Access;
  using regmap::Field;
  using regmap::Register;
  regmap::RegisterMap map;
  map.block = "tasks";
  map.title = "Registers of the task unit";
  map.doc = fmt::format(
      "{} task queue(s), {} task-buffer entries, {} neural and {} planar engine(s). The "
      "registers sit on an APB port with no wait states; an address with no register reads 0 "
      "and answers PSLVERR. The descriptor layout is in the npugen documentation "
      "(docs/tasks.md).",
      p.queues, p.entries, p.neural_engines, p.planar_engines);
  map.registers = {Register{
      "STATUS",
      kStatus,
      "The unit's state.",
      {Field{"ERR", kStatusErrBit, 1, Access::kW1C, 0, true,
             "sticky: a descriptor's length field was below the header's 4 words (also on "
             "err_o); write 1 to clear"},
       Field{"IDLE", kStatusIdleBit, 1, Access::kRO, 1, true,
             "no queue has tasks and nothing is fetched, queued or in the task buffer (also "
             "on idle_o)"}}}};
  regmap::Group queue{"QUEUE", kQueueOffset, p.queues, kQueueStride,
                      "Task queue i: the list it fetches from, and what its tasks carry.", {}};
  queue.registers = {
      Register{"HEAD",
               kHead,
               "Descriptor-memory word address of the queue's next task descriptor; advances "
               "past each descriptor committed.",
               {Field{"ADDR", 0, p.memory_address_bits(), Access::kRW, 0, true,
                      fmt::format("word address, 0 to {}", p.memory_words - 1)}}},
      Register{"COUNT",
               kCount,
               "Tasks left in the list; writing a non-zero count enqueues the list. Program "
               "the queue's other registers while COUNT is 0.",
               {Field{"TASKS", 0, kCountBits, Access::kRW, 0, true,
                      "tasks left; decrements as each descriptor commits"}}},
      Register{"NETWORK_ID",
               kNetworkId,
               "Network id carried with each task of the queue.",
               {Field{"ID", 0, 8, Access::kRW, 0, false, "network id"}}},
      Register{"BASE_INDEX",
               kBaseIndex,
               "Base-table index carried with each task (for the DMA's address relocation).",
               {Field{"INDEX", 0, 8, Access::kRW, 0, false, "base-table index"}}},
      Register{"PRIORITY",
               kPriority,
               "The highest non-empty queue is fetched from (ties: the lower queue).",
               {Field{"LEVEL", 0, kPriorityBits, Access::kRW, 0, false,
                      "priority, 0 (lowest) to 15"}}},
  };
  map.groups = {queue};
  return map;
}

}  // namespace tasks_csr

}  // namespace npugen::golden
