// Cycle-exact model of the NPU top's command processor (`<prefix>_npu_cmd`, docs/npu.md):
// the piece that lets the task unit drive an engine. When the task unit grants a task to
// the engine (start, with the task's descriptor address), it reads the descriptor again
// from system memory, one word at a time, and replays the register writes whose register
// address falls in the engine's window [window_lo, window_lo + window_words) onto the
// engine's APB port (register r goes to byte address (r - window_lo) x 4; a setup and an
// access phase each); the other registers (the task unit's own: operation, regions,
// cycles) are skipped. After the descriptor's last word it waits for the engine's
// completion and passes it on to the task unit as the task's done. A descriptor that
// writes nothing into the window is done at once (a corrupt one never hangs the unit), and
// a completion the engine signals while the descriptor is still being replayed (its CTRL
// written early) is remembered.
//
// The DMA: with header bit 25 it loads, before the first engine write after the load's size is
// known (register 2, or DMA_ROWS), or at the descriptor's end when no engine write follows, the
// first input region (registers 1 and 2) as buffer words, or with DMA_TARGET 2 to 4, DMA_ROWS
// rows of that host-port target from row DMA_ROW (a DMA_TARGET it does not know loads no
// rows), from word 2 + base; with bit 26 it stores the output region (registers 5 and 6) to
// word 3 + base after the engine's completion, before the task is done.
//
// Descriptor words as the task unit reads them (docs/tasks.md): word 1's [15:0] is the
// length (below the 4 header words it counts as 4); from word 4, a group word ([15:0]
// first register, [23:16] count) and that many data words, and so on.
//
// Reads run ahead: from the cycle after start, while it is not Idle or Run, it requests the
// next word whenever fewer than kPrefetch words are requested and not yet processed and
// words remain (the length is 4 until word 1 is processed); the words arriving queue up.
// Timing: start in cycle t (Idle) -> Fetch: a queued word is processed each cycle; a data
// word in the window goes to Setup and Access (the write takes effect at the edge ending
// Access; Access also processes the next queued word, so queued writes take two cycles
// each) and back to Fetch, or to Run after the descriptor's last word -> done in the
// cycle the engine's completion or configuration error arrives (or the first Run cycle when
// one already did, or nothing was written) -> Idle.
#pragma once

#include <cstdint>
#include <deque>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/npu/dma.hpp"

namespace npugen::golden {

struct CommandParams {
  unsigned mem_addr_bits = 16;  ///< bits of a system-memory word address
  unsigned buf_bits = 16;       ///< bits of a buffer region's base (planar address)
  uint32_t window_lo = 0x100;   ///< the descriptor register address of the engine's word 0
  uint32_t window_words = 256;  ///< registers (words) of the engine's APB port
};

struct CommandInputs {
  bool start = false;      ///< the task unit grants a task to the engine
  uint64_t desc = 0;       ///< its descriptor's word address
  uint64_t base = 0;       ///< with start: BASE[the task's base index], added to its pointers
  bool dma_ready = false;  ///< the DMA takes this processor's command at the edge
  bool dma_done = false;   ///< the DMA completes this processor's command
  bool mem_ready = false;
  bool mem_rvalid = false;  ///< the data of this processor's read
  uint32_t mem_rdata = 0;
  bool engine_done = false;  ///< the engine's completion
  bool engine_err = false;   ///< the engine's configuration error flag (STATUS.CFG_ERR)
};

struct CommandOutputs {
  bool mem_req = false;
  uint64_t mem_addr = 0;
  ApbRequest apb;          ///< the engine's register port while `holds` (else idle)
  bool holds = false;      ///< Setup or Access: the engine's port is this processor's
  bool done = false;       ///< the task is done (to the task unit)
  bool busy = false;       ///< not Idle
  bool dma_valid = false;  ///< a DMA command is offered
  DmaCommand dma;
  bool operator==(const CommandOutputs&) const = default;
};

class CommandModel {
 public:
  enum class State : uint8_t { kIdle, kFetch, kSetup, kAccess, kRun, kLoad, kStore };
  static constexpr unsigned kPrefetch = 4;  ///< words requested and not processed, at most

  explicit CommandModel(const CommandParams& p) : p_(p) {}
  [[nodiscard]] CommandOutputs outputs(const CommandInputs& in) const;
  void tick(const CommandInputs& in);
  [[nodiscard]] State state() const { return state_; }

 private:
  void process();  ///< the oldest queued word
  CommandParams p_;
  State state_ = State::kIdle;
  uint64_t base_ = 0;
  uint32_t issued_ = 0;         ///< words requested
  uint32_t index_ = 0;          ///< words processed
  std::deque<uint32_t> words_;  ///< words arrived, not processed
  uint32_t length_ = 4;         ///< the descriptor's words (4 until word 1 arrives)
  uint32_t left_ = 0;           ///< data words left in the group
  uint32_t reg_ = 0;            ///< the register the next data word writes
  uint32_t paddr_ = 0, pwdata_ = 0;
  bool wrote_ = false;     ///< a register of the window was written
  bool finished_ = false;  ///< the engine completed before Run
  // The DMA: the header's flags and pointers, the task's regions, the base.
  uint64_t dma_base_ = 0;
  bool load_ = false, store_ = false;                                   ///< header bits 25 and 26
  uint32_t in_ptr_ = 0, out_ptr_ = 0;                                   ///< header words 2 and 3
  uint32_t in_base_ = 0, in_words_ = 0, out_base_ = 0, out_words_ = 0;  ///< registers 1, 2, 5, 6
  bool loaded_ = false;                                                 ///< the input was loaded
  bool in_seen_ = false;  ///< register 2 (the input region's words), or DMA_ROWS, was written
  uint32_t dma_target_ = 0, dma_row_ = 0, dma_rows_ = 0;  ///< DMA_TARGET, DMA_ROW, DMA_ROWS
  bool load_then_run_ = false;  ///< the load was made at the descriptor's end (no write waits)
  bool sent_ = false;           ///< the DMA took the command of this state
};

}  // namespace npugen::golden
