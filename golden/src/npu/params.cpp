#include "npugen/golden/npu/params.hpp"

#include <fmt/format.h>

namespace npugen::golden::npu_csr {

regmap::RegisterMap register_map(const NpuDesign& d) {
  using regmap::Access;
  regmap::RegisterMap map;
  map.block = "npu";
  map.title = "Registers of the NPU top";
  map.doc = fmt::format(
      "The top's APB port ({} address bits) answers in three windows: the sequencer's whole "
      "port (its address generator, post unit and own registers, docs/sequencer_registers.md) "
      "at 0x{:03x} (0x400 bytes), the planar engine's (docs/planar_registers.md) at 0x{:03x} "
      "(0x200 bytes), and the top's own registers, below, at 0x{:03x} (0x200 bytes; offsets "
      "here are inside that window). No wait states; an address with no register reads 0 and "
      "answers PSLVERR. The interrupt is high while a sticky completion flag of STATUS is set "
      "and enabled in IRQ_ENABLE.",
      kAddrBits, kSequencerWindow, kPlanarWindow, kOwnWindow);
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
        {"BUSY", kBusyBit, 1, Access::kRO, 0, true, "the sequencer or the planar engine is busy"}}},
      {"IRQ_ENABLE",
       kIrqEnable,
       "Which completions raise the interrupt.",
       {{"SEQ_DONE", kSeqDoneBit, 1, Access::kRW, 0, false, "STATUS.SEQ_DONE raises it"},
        {"PLANAR_DONE", kPlanarDoneBit, 1, Access::kRW, 0, false, "STATUS.PLANAR_DONE raises it"}}},
      {"INFO",
       kInfo,
       "The hardware's parameters (read only).",
       {{"LANES", kInfoLanesLsb, 8, Access::kRO, d.lanes(), false, "L: channels in a buffer word"},
        {"ACT_BITS", kInfoActBitsLsb, 6, Access::kRO, d.seq.agu.act_addr_bits(), false,
         fmt::format("bits of a buffer word address (each buffer holds {} words)",
                     d.act_words())}}},
      {"CYCLES",
       kCycles,
       "Cycles while the sequencer or the planar engine is busy (wraps); software may write it, "
       "and a write wins over a count in the same cycle.",
       {{"COUNT", 0, 32, Access::kRW, 0, true, "busy cycles"}}},
  };
  return map;
}

}  // namespace npugen::golden::npu_csr
