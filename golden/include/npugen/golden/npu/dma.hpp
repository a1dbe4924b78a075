// Cycle-exact model of the NPU top's DMA (`<prefix>_npu_dma`, docs/npu.md): it moves a region
// of buffer words (planar-engine addresses: buffer A, then B) between the activation buffers
// and system memory, on a command from a command processor. A buffer word of L int8 lanes is
// W = ceil(L / 4) consecutive memory words, lane l in byte l mod 4 of word l / 4 (the last
// word's bytes beyond L are 0 when stored, ignored when loaded).
//
// Load (memory -> buffers). Reads are requested in order, one a cycle when the memory takes
// them, while fewer than kQueue words are requested and not yet moved on (the read queue's
// credit: the data come back with no back-pressure); the data queue up; a full assembly
// register (W words) moves to the write register when that is empty or taken in the same
// cycle; each cycle the oldest queued word moves into the assembly register while it holds
// fewer than W or moves on in that cycle (so a word a cycle streams through); the write
// register is offered to the host-port arbiter (a write of its buffer word) until taken.
// Store (buffers -> memory). For each buffer word: a host-port read is offered until taken,
// its data arrive the next cycle, then its W memory words are written, one offered each
// cycle until the memory takes it. done is high for one cycle, the cycle after the last write
// was taken (load: the last buffer word's; store: the last memory word's); a command of no
// words is done the cycle after it was taken; the DMA is idle from the edge ending that cycle.
// cmd_ready is !busy.
// Rows (a load whose target is not the buffers): the same load, of rows of the host port's
// target instead of buffer words, each row W_t memory words (its bits little-endian from word
// 0, DmaRows), written as a host-port write of that target and row (row_valid until
// row_ready): weight-store rows, post parameter groups, planar gain rows. Stores move buffer
// words only.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace npugen::golden {

/// Memory words a buffer word of `lanes` int8 takes: ceil(L / 4).
constexpr unsigned dma_words_per_buffer_word(unsigned lanes) { return (lanes + 3) / 4; }

/// What a load writes: buffer words (planar addresses) or rows of a host-port target.
enum class DmaTarget : unsigned {
  kBuffers = 0,
  kWeights = 2,  ///< weight-store rows
  kParams = 3,   ///< post parameter-table groups
  kGains = 4,    ///< planar gain-table rows
};
inline constexpr unsigned kDmaTargetBits = 3;
/// Whether a DMA_TARGET register value names a target (others load nothing: 0 rows).
constexpr bool dma_target_known(uint32_t v) { return v == 0 || (v >= 2 && v <= 4); }

/// Memory words a row of each target takes: ceil(bits / 32) (NpuDesign::dma_rows()).
struct DmaRows {
  unsigned buffer = 2, weights = 16, params = 9, gains = 18;
  unsigned row_bytes = 72;      ///< bytes of the row data handed to the host port
  unsigned row_addr_bits = 12;  ///< bits of a row's address (the host port's)
  [[nodiscard]] unsigned words(DmaTarget t) const {
    switch (t) {
      case DmaTarget::kWeights:
        return weights;
      case DmaTarget::kParams:
        return params;
      case DmaTarget::kGains:
        return gains;
      default:
        return buffer;
    }
  }
};

struct DmaCommand {
  bool store = false;  ///< false: memory -> buffers (or rows); true: buffers -> memory
  DmaTarget target = DmaTarget::kBuffers;  ///< a load's target
  uint64_t mem = 0;                        ///< first memory word
  uint64_t buf = 0;                        ///< first buffer word (planar address), or first row
  uint64_t words = 0;                      ///< buffer words, or rows
  bool operator==(const DmaCommand&) const = default;
};

struct DmaInputs {
  bool cmd_valid = false;
  DmaCommand cmd;
  bool mem_ready = false;   ///< its system-memory request is taken at the edge
  bool mem_rvalid = false;  ///< the data of its oldest outstanding read
  uint32_t mem_rdata = 0;
  bool row_ready = false;            ///< its row write is taken at the edge
  bool hp_ready = false;             ///< its host-port request is taken at the edge
  bool hp_rsp_valid = false;         ///< the data of its host-port read (the cycle after)
  std::vector<uint8_t> hp_rsp_data;  ///< L bytes
};

struct DmaOutputs {
  bool cmd_ready = false;
  bool busy = false;
  bool done = false;
  bool mem_req = false, mem_write = false;
  uint64_t mem_addr = 0;
  uint32_t mem_wdata = 0;
  bool hp_valid = false, hp_write = false;
  uint64_t hp_addr = 0;           ///< planar address
  std::vector<uint8_t> hp_wdata;  ///< L bytes
  bool row_valid = false;         ///< a row write (host-port target `row_target`) is offered
  DmaTarget row_target = DmaTarget::kWeights;
  uint64_t row_addr = 0;
  std::vector<uint8_t> row_data;  ///< DmaRows::row_bytes: the row's words, 0 above them
};

class DmaModel {
 public:
  static constexpr unsigned kQueue = 8;  ///< memory words requested and not moved on, at most

  /// `buf_bits`: bits of a planar address (buffer addresses wrap there, as the RTL's do).
  DmaModel(unsigned lanes, unsigned mem_addr_bits, unsigned buf_bits, const DmaRows& rows);
  [[nodiscard]] DmaOutputs outputs(const DmaInputs& in) const;
  void tick(const DmaInputs& in);

 private:
  enum class Phase : uint8_t { kRead, kWait, kWrite };
  [[nodiscard]] unsigned w() const { return cmd_.store ? w_ : rows_.words(cmd_.target); }
  [[nodiscard]] bool rows() const { return !cmd_.store && cmd_.target != DmaTarget::kBuffers; }
  unsigned lanes_, w_;
  DmaRows rows_;
  uint64_t mask_, buf_mask_, row_mask_;
  bool busy_ = false;
  DmaCommand cmd_;
  // Load.
  uint64_t issued_ = 0, moved_ = 0,
           written_ = 0;  ///< memory words requested, moved on; buffer words written
  std::deque<uint32_t> queue_;
  std::vector<uint32_t> assembly_;
  bool pending_ = false;
  std::vector<uint8_t> pending_data_;  ///< row_bytes: the assembled words
  uint64_t formed_ = 0;                ///< buffer words formed
  // Store.
  Phase phase_ = Phase::kRead;
  uint64_t k_ = 0;  ///< buffer word
  unsigned j_ = 0;  ///< its memory word
  std::vector<uint8_t> data_;
};

}  // namespace npugen::golden
