// Parameters of the asynchronous task unit: task manager (queues, arbiter,
// fetch queue, configuration queue) and data control (task buffer, access enable), as
// the golden model, the testbench and the scheduler see them. The generator fills
// TaskParams from the validated configuration (one source of truth). The register map
// of the task queues and the descriptor's register addresses below are their one
// definition: the RTL emitter, the register-map documents, the descriptor encoder, the
// golden model and the testbench all use them.
#pragma once

#include <cstdint>
#include <string_view>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/common/regmap.hpp"

namespace npugen::golden {

/// Engine kinds. Tasks of one kind start in list order; the two kinds overlap freely.
enum class EngineKind : uint8_t { kNeural = 0, kPlanar = 1 };
inline constexpr int kEngineKinds = 2;

/// Operations a task can perform, and the engine kind that runs each.
enum class TaskOp : uint8_t {
  kConv = 0,         ///< convolution (neural)
  kTensor = 1,       ///< tensor product / fully connected (neural)
  kPool = 2,         ///< pooling (planar)
  kElementwise = 3,  ///< elementwise, e.g. add, activation (planar)
  kReduction = 4,    ///< reduction (planar)
  kGainBias = 5,     ///< gain and bias (planar)
};
inline constexpr int kTaskOps = 6;

constexpr EngineKind engine_of(TaskOp op) {
  return op == TaskOp::kConv || op == TaskOp::kTensor ? EngineKind::kNeural : EngineKind::kPlanar;
}
std::string_view op_name(TaskOp op);
std::string_view kind_name(EngineKind kind);
/// "conv", "tensor", "pool", "elementwise", "reduction", "gain_bias"; false if none.
bool parse_op(std::string_view text, TaskOp& out);

struct TaskParams {
  unsigned entries = 8;             ///< E: task buffer entries
  unsigned queues = 2;              ///< K: task queues
  unsigned neural_engines = 1;      ///< neural engines (each one task at a time)
  unsigned planar_engines = 1;      ///< planar engines
  unsigned config_queue_depth = 2;  ///< C: committed tasks waiting for a buffer entry
  uint64_t buffer_words = 1 << 20;  ///< words of the shared data buffer (regions live in it)
  uint64_t memory_words = 1 << 16;  ///< words of descriptor memory the task manager addresses
  unsigned memory_latency = 4;      ///< cycles from a read request to its data (system model)
  unsigned cycle_bits = 24;         ///< width of a task's work-cycle count

  /// Every member by name, in declaration order (the generator writes the co-simulation's
  /// constants from it; a new member is added here too).
  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("entries", entries), f("queues", queues), f("neural_engines", neural_engines);
    f("planar_engines", planar_engines), f("config_queue_depth", config_queue_depth);
    f("buffer_words", buffer_words), f("memory_words", memory_words);
    f("memory_latency", memory_latency), f("cycle_bits", cycle_bits);
  }

  [[nodiscard]] constexpr unsigned engines(EngineKind k) const {
    return k == EngineKind::kNeural ? neural_engines : planar_engines;
  }
  /// Bits of a buffer address or region size (sizes up to buffer_words inclusive).
  [[nodiscard]] constexpr unsigned region_bits() const { return field_bits(buffer_words + 1); }
  [[nodiscard]] constexpr unsigned memory_address_bits() const { return field_bits(memory_words); }
  [[nodiscard]] constexpr unsigned entry_bits() const { return field_bits(entries); }
  [[nodiscard]] constexpr unsigned queue_bits() const { return field_bits(queues); }
  /// Per-kind start sequence numbers: unique among the <= E tasks in the buffer.
  [[nodiscard]] constexpr unsigned seq_bits() const { return field_bits(entries) + 1; }
  [[nodiscard]] constexpr unsigned engine_bits(EngineKind k) const {
    return field_bits(engines(k));
  }
  [[nodiscard]] constexpr unsigned config_queue_bits() const {
    return field_bits(config_queue_depth + 1);
  }
};

/// The task unit's registers: STATUS, then one QUEUE register group per task queue.
/// register_map() describes them whole (the one register-map model: the RTL's package,
/// documents, C header, SystemRDL and the golden model come from it). Software programs a
/// queue while its COUNT is 0; writing COUNT != 0 enqueues the list.
namespace tasks_csr {
inline constexpr uint32_t kStatus = 0x00;  ///< STATUS: ERR (w1c), IDLE (ro)
inline constexpr unsigned kStatusErrBit = 0;
inline constexpr unsigned kStatusIdleBit = 1;
inline constexpr uint32_t kQueueOffset = 0x20;  ///< QUEUE[0]
inline constexpr uint32_t kQueueStride = 0x20;  ///< bytes from QUEUE[i] to QUEUE[i+1]
// Registers inside a QUEUE instance (byte offsets).
inline constexpr uint32_t kHead = 0x00;       ///< descriptor-memory word address of the list head
inline constexpr uint32_t kCount = 0x04;      ///< tasks left in the list
inline constexpr uint32_t kNetworkId = 0x08;  ///< network id (8 bits), carried with each task
inline constexpr uint32_t kBaseIndex = 0x0c;  ///< base-table index (8 bits), carried with each task
inline constexpr uint32_t kPriority =
    0x10;  ///< priority (4 bits); higher wins, ties to lower queue
inline constexpr unsigned kPriorityBits = 4;
inline constexpr unsigned kCountBits = 24;

/// Byte offset of a register of queue q.
constexpr uint32_t queue_register(unsigned q, uint32_t reg) {
  return kQueueOffset + q * kQueueStride + reg;
}
/// The register map of a task unit with parameters p.
regmap::RegisterMap register_map(const TaskParams& p);
}  // namespace tasks_csr

/// Layout of a parsed task's configuration word, as the configuration queue and the task
/// buffer hold it (the RTL's task_cfg_t): task id, network id, base index, operation, the
/// six region fields (in0 base, in0 words, in1 base, in1 words, out base, out words), the
/// work cycles and the descriptor's word address (its queue's HEAD when its fetch started),
/// from bit 0 up.
struct TaskConfigLayout {
  static constexpr unsigned kTaskIdLsb = 0, kTaskIdBits = 16;
  static constexpr unsigned kNetworkIdLsb = 16, kNetworkIdBits = 8;
  static constexpr unsigned kBaseIndexLsb = 24, kBaseIndexBits = 8;
  static constexpr unsigned kOpLsb = 32, kOpBits = 3;
  static constexpr unsigned kRegionsLsb = 35, kRegions = 6;
  /// The region fields, in order (TaskConfig::region and the RTL's task_cfg_t.region).
  enum Region : unsigned { kIn0Base, kIn0Words, kIn1Base, kIn1Words, kOutBase, kOutWords };
  unsigned region_bits = 0;
  unsigned cycle_bits = 0;
  unsigned desc_bits = 0;  ///< a descriptor-memory word address

  static constexpr TaskConfigLayout of(const TaskParams& p) {
    return TaskConfigLayout{p.region_bits(), p.cycle_bits, p.memory_address_bits()};
  }
  [[nodiscard]] constexpr unsigned region_lsb(unsigned r) const {
    return kRegionsLsb + r * region_bits;
  }
  [[nodiscard]] constexpr unsigned cycles_lsb() const { return region_lsb(kRegions); }
  [[nodiscard]] constexpr unsigned desc_lsb() const { return cycles_lsb() + cycle_bits; }
  [[nodiscard]] constexpr unsigned width() const { return desc_lsb() + desc_bits; }
};

/// Descriptor layout (32-bit words). Header: 4 words; then groups of one group word
/// (register address, count) and count data words written to consecutive registers.
namespace task_desc {
inline constexpr unsigned kHeaderWords = 4;
inline constexpr unsigned kMaxWords = 0xFFFF;
// Header word 0.
inline constexpr unsigned kTaskIdShift = 0;      ///< [15:0] task id
inline constexpr unsigned kNetworkIdShift = 16;  ///< [23:16] network id
inline constexpr unsigned kTaskSwitchBit = 24;   ///< [24] others may run after this task
inline constexpr unsigned kInMemoryBit = 25;     ///< [25] input read from system memory
inline constexpr unsigned kOutMemoryBit = 26;    ///< [26] output written to system memory
inline constexpr unsigned kDebugShift = 27;      ///< [31:27] debug / exception flags
// Header word 1: [15:0] total words of the descriptor (header included).
// Header words 2, 3: input and output base pointers (system memory).
// Group word: [15:0] first register address, [23:16] count (1..255), [31:24] 0.
inline constexpr unsigned kGroupCountShift = 16;
inline constexpr unsigned kMaxGroupCount = 255;
// Registers the data control takes from a descriptor; others program the engines.
inline constexpr unsigned kRegOp = 0x000;        ///< [2:0] TaskOp; engine kind follows
inline constexpr unsigned kRegIn0Base = 0x001;   ///< first input region: base word
inline constexpr unsigned kRegIn0Words = 0x002;  ///< first input region: words (0: none)
inline constexpr unsigned kRegIn1Base = 0x003;
inline constexpr unsigned kRegIn1Words = 0x004;
inline constexpr unsigned kRegOutBase = 0x005;   ///< output region: base word
inline constexpr unsigned kRegOutWords = 0x006;  ///< output region: words (0: none)
/// The DMA's load of rows (the NPU's command processors; the task unit skips them): with
/// header bit 25, DMA_ROWS rows of the host-port target DMA_TARGET (golden DmaTarget: 2
/// weight store, 3 post parameters, 4 planar gains; 0, the default: the first input region
/// as buffer words) from DMA_ROW on are loaded from system memory at word 2.
inline constexpr unsigned kRegDmaTarget = 0x008;
inline constexpr unsigned kRegDmaRow = 0x009;
inline constexpr unsigned kRegDmaRows = 0x00A;
inline constexpr unsigned kRegCycles = 0x010;  ///< work cycles (read by the emulated engines)
inline constexpr unsigned kRegShape = 0x020;   ///< 0x020..0x02F: layer shape (engine registers)
}  // namespace task_desc

}  // namespace npugen::golden
