#include "npugen/golden/sequencer/params.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace npugen::golden {

unsigned SequencerDesign::mem_data_bits() const {
  return std::max(store_row_bytes() * 8, param_bits());
}

unsigned SequencerDesign::mem_addr_bits() const {
  return std::max({agu.act_addr_bits(), agu.weight_addr_bits(), post.group_bits()});
}

namespace sequencer_csr {

regmap::RegisterMap register_map(const SequencerDesign& d) {
  using regmap::Access;
  regmap::RegisterMap map;
  map.block = "sequencer";
  map.title = "Registers of the sequencer";
  map.doc = fmt::format(
      "The sequencer's APB port answers in three windows of 0x{:x} bytes: the address "
      "generator's registers (the layer registers, docs/agu_registers.md) at 0x{:03x}, the "
      "post unit's (docs/post_registers.md) at 0x{:03x}, and the sequencer's own, below, at "
      "0x{:03x} (offsets here are inside that window). No wait states; an address with no "
      "register reads 0 and answers PSLVERR. The counters count while the sequencer is busy "
      "and wrap; software may write them (to 0, say), and a write wins over a count in the "
      "same cycle.",
      kWindowBytes, kAguWindow, kPostWindow, kOwnWindow);
  auto counter = [](const char* name, uint32_t offset, const char* doc) {
    return regmap::Register{name, offset, doc, {{"COUNT", 0, 32, Access::kRW, 0, true, doc}}};
  };
  map.registers = {
      {"STATUS",
       kStatus,
       "State of the sequencer; CACHE_BYPASS is sticky, write 1 to clear.",
       {{"BUSY", kBusyBit, 1, Access::kRO, 0, true,
         "a layer streams, or results are still on their way to a buffer"},
        {"CACHE_BYPASS", kCacheBypassBit, 1, Access::kW1C, 0, true,
         fmt::format("a conv layer's filter block had more than {} rows (KH x KW x ceil(C/L)): "
                     "it streamed its weights from the store, as fc does",
                     d.seq.cache_rows)}}},
      {"INFO",
       kInfo,
       "The hardware's parameters (read only).",
       {{"CACHE_ROWS", kCacheRowsLsb, 17, Access::kRO, d.seq.cache_rows, false,
         "rows of each tile's weight cache, per set"}}},
      {"LAYERS_DONE",
       kLayersDone,
       "Layers whose last result was written to a buffer since reset (wraps).",
       {{"COUNT", 0, 16, Access::kRO, 0, true, "completed layers, modulo 65536"}}},
      counter("CYCLES", kCycles, "cycles while busy"),
      counter("STEPS", kSteps, "dot-product steps the PE array took"),
      counter("ACT_READS", kActReads, "activation words read from the buffers"),
      counter("WEIGHT_READS", kWeightReads,
              "weight rows read from the store (streamed, filled or preloaded)"),
      counter("WRITES", kWrites, "result words written to the buffers"),
      counter("WINDOW_READS", kWindowReads,
              "activation words read from the MEC window instead of a buffer"),
  };
  return map;
}

}  // namespace sequencer_csr
}  // namespace npugen::golden
