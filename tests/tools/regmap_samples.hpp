// Sample register maps for the register-map tests (tests/unit/regmap_test.cpp and
// tests/tools/regmap_render.cpp): stand-ins for the dequantizer's map (rw, ro and w1c
// fields, one register per offset) and the task unit's (a group of K queues at a stride of
// 32 bytes). They are written here, not taken from the blocks, so that the tests do not
// change when a block's registers do.
#pragma once

#include "npugen/golden/common/regmap.hpp"

namespace npugen::test {

inline golden::regmap::RegisterMap sample_vq_map() {
  using golden::regmap::Access;
  golden::regmap::RegisterMap m;
  m.block = "vq";
  m.title = "Registers of sample_vq_dequant";
  m.doc = "Configuration and status of the dequantizer | a stand-in for the tests.";
  m.registers = {
      {"CTRL",
       0x0,
       "Layer configuration. A write takes effect for the lookups accepted after it.",
       {{"VQ_EN", 0, 1, Access::kRW, 1, false, "1: lookups; 0: raw weights pass"},
        {"VLEN_LOG2", 4, 4, Access::kRW, 2, false, "log2 of the vector length m, 1 to 2"}}},
      {"BASE",
       0x4,
       "Base row of the virtual table in use.",
       {{"ROW", 0, 8, Access::kRW, 0, false, "base row, 0 to 255"}}},
      {"STATUS",
       0x8,
       "Sticky error flags; write 1 to clear.",
       {{"INDEX_ERR", 0, 1, Access::kW1C, 0, true, "a lookup's row was outside the table"},
        {"CFG_ERR", 1, 1, Access::kW1C, 0, true, "a CTRL write named an unsupported \"m\""}}},
      {"INFO",
       0xc,
       "The hardware's parameters (read only). */ /* ?\?/ not a comment end",
       {{"ROWS_LOG2", 0, 8, Access::kRO, 8, false, "log2 N"},
        {"ROW_LOG2", 8, 8, Access::kRO, 2, false, "log2 M"},
        {"COPIES", 16, 8, Access::kRO, 4, false, "P: lookups per cycle"},
        {"MIN_VLEN_LOG2", 24, 8, Access::kRO, 1, false, "log2 of the smallest m"}}},
  };
  return m;
}

inline golden::regmap::RegisterMap sample_tasks_map(unsigned queues = 4) {
  using golden::regmap::Access;
  golden::regmap::RegisterMap m;
  m.block = "tasks";
  m.title = "Registers of sample_tasks";
  m.doc = "Task queues: program a queue while its COUNT is 0.";
  golden::regmap::Group q;
  q.name = "QUEUE";
  q.offset = 0;
  q.count = queues;
  q.stride = 32;
  q.doc = "Task queue i.";
  q.registers = {
      {"HEAD",
       0x00,
       "Descriptor-memory word address of the queue's next task descriptor.",
       {{"ADDR", 0, 16, Access::kRW, 0, true, "word address"}}},
      {"COUNT",
       0x04,
       "Tasks left in the list; writing a non-zero count enqueues the list.",
       {{"TASKS", 0, 24, Access::kRW, 0, true, "tasks left"}}},
      {"NETWORK_ID",
       0x08,
       "Network id carried with each task.",
       {{"ID", 0, 8, Access::kRW, 0, false, "network id"}}},
      {"BASE_INDEX",
       0x0c,
       "Base-table index carried with each task.",
       {{"INDEX", 0, 8, Access::kRW, 0, false, "base-table index"}}},
      {"PRIORITY",
       0x10,
       "Priority: higher wins, ties to the lower queue.",
       {{"LEVEL", 0, 4, Access::kRW, 0, false, "priority"}}},
  };
  m.groups = {q};
  // A plain register after the queues: the groups and plain registers of one map.
  m.registers = {{"ID",
                  queues * 32u,
                  "Identification (read only).",
                  {{"QUEUES", 0, 8, Access::kRO, queues, false, "K: task queues"},
                   {"BUSY", 31, 1, Access::kRO, 0, true, "a task is running"}}}};
  return m;
}

}  // namespace npugen::test
