#include "npugen/golden/npu/params.hpp"

#include <fmt/format.h>

namespace npugen::golden::npu_csr {

regmap::RegisterMap register_map(const NpuDesign& d) {
  using regmap::Access;
  regmap::RegisterMap map;
  map.block = "npu";
  map.title = "Registers of the NPU top";
  map.doc = fmt::format(
      "The top's APB port ({} address bits) answers in {} windows: the sequencer's whole "
      "port (its address generator, post unit and own registers, docs/sequencer_registers.md) "
      "at 0x{:03x} (0x400 bytes), the planar engine's (docs/planar_registers.md) at 0x{:03x} "
      "(0x200 bytes), the top's own registers, below, at 0x{:03x} (offsets here are inside "
      "that window){}, and the task unit's (docs/tasks_registers.md) at 0x{:03x} (0x800 "
      "bytes). An address with no register reads 0 and answers PSLVERR. An access to an "
      "engine's window waits (PREADY low) while that engine's command processor writes its "
      "registers{}; there are no other wait states. The interrupt is high while a flag of "
      "STATUS is set and enabled in IRQ_ENABLE.",
      kAddrBits, d.vq ? "five" : "four", kSequencerWindow, kPlanarWindow, kOwnWindow,
      d.vq ? fmt::format(", the VQ weight loader's dequantizer (docs/vq_registers.md) at "
                         "0x{:03x}",
                         kVqWindow)
           : std::string{},
      kTasksWindow,
      d.vq ? ", and an access to the dequantizer's while the VQ loader decodes a "
             "row"
           : "");
  map.registers = {
      {"STATUS",
       kStatus,
       "Completions (sticky, write 1 to clear; a completion in the cycle of the clear wins) and "
       "the engines' state.",
       {{"SEQ_DONE", kSeqDoneBit, 1, Access::kW1C, 0, true,
         "the sequencer completed a layer (its last result was written to a buffer)"},
        {"PLANAR_DONE", kPlanarDoneBit, 1, Access::kW1C, 0, true,
         "the planar engine completed a task (its last output word was written)"},
        {"CFG_ERR", kCfgErrBit, 1, Access::kRO, 0, true,
         "the address generator's or the planar engine's STATUS.CFG_ERR (clear it there)"},
        {"BUSY", kBusyBit, 1, Access::kRO, 0, true,
         "an engine, a command processor, the task unit, the DMA (or the VQ loader) is busy"},
        {"TASKS_DONE", kTasksDoneBit, 1, Access::kW1C, 0, true,
         "the task unit became idle: every queued task is done"},
        {"TASKS_ERR", kTasksErrBit, 1, Access::kRO, 0, true,
         "the task unit's STATUS.ERR: a descriptor was malformed (clear it there)"}}},
      {"IRQ_ENABLE",
       kIrqEnable,
       "Which flags of STATUS raise the interrupt.",
       {{"SEQ_DONE", kSeqDoneBit, 1, Access::kRW, 0, false, "STATUS.SEQ_DONE raises it"},
        {"PLANAR_DONE", kPlanarDoneBit, 1, Access::kRW, 0, false, "STATUS.PLANAR_DONE raises it"},
        {"CFG_ERR", kCfgErrBit, 1, Access::kRW, 0, false, "STATUS.CFG_ERR raises it"},
        {"TASKS_DONE", kTasksDoneBit, 1, Access::kRW, 0, false, "STATUS.TASKS_DONE raises it"},
        {"TASKS_ERR", kTasksErrBit, 1, Access::kRW, 0, false, "STATUS.TASKS_ERR raises it"}}},
      {"INFO",
       kInfo,
       "The hardware's parameters (read only).",
       {{"LANES", kInfoLanesLsb, 8, Access::kRO, d.lanes(), false, "L: channels in a buffer word"},
        {"ACT_BITS", kInfoActBitsLsb, 6, Access::kRO, d.seq.agu.act_addr_bits(), false,
         fmt::format("bits of a buffer word address (each buffer holds {} words)",
                     d.act_words())}}},
      {"CYCLES",
       kCycles,
       "Cycles while STATUS.BUSY (wraps); software may write it, and a write wins over a count "
       "in the same cycle.",
       {{"COUNT", 0, 32, Access::kRW, 0, true, "busy cycles"}}},
  };
  for (unsigned i = 0; i < kBaseEntries; ++i) {
    map.registers.push_back(
        {fmt::format("BASE{}", i),
         kBase + 4 * i,
         fmt::format("Base table entry {}: added to the memory pointers of a descriptor whose "
                     "queue's BASE_INDEX is {} (mod {}) when the DMA moves its input or output.",
                     i, i, kBaseEntries),
         {{"ADDR", 0, 32, Access::kRW, 0, false, "a system-memory word address"}}});
  }
  return map;
}

}  // namespace npugen::golden::npu_csr
