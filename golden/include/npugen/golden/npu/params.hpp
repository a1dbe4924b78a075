// The NPU top (docs/npu.md): the sequencer (the neural engine: address generator,
// dense PE array, post unit, activation buffers A and B, weight store and cache) and the
// planar engine, which reads and writes buffers A and B through the sequencer's host port;
// the task unit in front of both (descriptors in system memory, replayed into the engines'
// registers by two command processors); one APB port over all, a host data port, a
// system-memory read port, an interrupt. NpuDesign is what a generated top is built from;
// npu_csr is its address map and its own registers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/common/regmap.hpp"
#include "npugen/golden/npu/dma.hpp"
#include "npugen/golden/planar/params.hpp"
#include "npugen/golden/sequencer/params.hpp"
#include "npugen/golden/tasks/params.hpp"
#include "npugen/golden/vq/params.hpp"

namespace npugen::golden {

struct NpuDesign {
  SequencerDesign seq;  ///< the neural engine and what it instantiates
  PlanarParams planar;  ///< the planar engine: lanes = L, words = 1, act_words = 2 x buffer
  TaskParams tasks;     ///< the front end: one engine of each kind, buffer_words = planar's
  unsigned reads_in_flight = 8;  ///< system-memory reads outstanding at most (npu section)
  /// The VQ weight loader's dequantizer (section vq, enabled with the NPU): host transfers of
  /// a weight row's indices are decoded into the weight store (docs/npu.md). int8 weights,
  /// P x M dividing T x L.
  std::optional<VqParams> vq;

  [[nodiscard]] unsigned lanes() const { return seq.lanes(); }
  /// Words of each activation buffer; the planar engine's addresses: buffer A at
  /// [0, act_words), buffer B at [act_words, 2 x act_words).
  [[nodiscard]] uint64_t act_words() const { return seq.agu.act_words; }
  /// Bits of a planar gain-table row as the host port writes it: L biases, L multipliers,
  /// L shifts (the planar engine's param_* ports).
  [[nodiscard]] unsigned gain_bits() const {
    return planar.lanes * (64 + PlanarParams::kShiftBits);
  }
  /// Bits of the host port's data and address: the widest of the sequencer's and the gain
  /// table's.
  [[nodiscard]] unsigned host_data_bits() const {
    return std::max(seq.mem_data_bits(), gain_bits());
  }
  /// (With VQ also a codebook row: log2 N bits.)
  [[nodiscard]] unsigned host_addr_bits() const {
    const unsigned bits = std::max(seq.mem_addr_bits(), field_bits(uint64_t{planar.param_rows()}));
    return vq ? std::max(bits, vq->index_bits()) : bits;
  }
  /// The DMA's rows: memory words a buffer word, a weight-store row, a post parameter group
  /// and a planar gain row take (ceil(bits / 32)), the host port's data and address bits.
  [[nodiscard]] DmaRows dma_rows() const {
    auto words = [](unsigned bits) { return (bits + 31) / 32; };
    DmaRows r;
    r.buffer = dma_words_per_buffer_word(lanes());
    r.weights = words(seq.store_row_bytes() * 8);
    r.params = words(seq.param_bits());
    r.gains = words(gain_bits());
    r.row_bytes = std::max({r.buffer, r.weights, r.params, r.gains}) * 4;
    r.row_addr_bits = host_addr_bits();
    return r;
  }
  /// Bits of a DMA command's first word: a planar address or a row of any target.
  [[nodiscard]] unsigned dma_addr_bits() const {
    return std::max(planar.act_addr_bits(), host_addr_bits());
  }
};

/// Targets of the top's host port: the sequencer's four, and the planar gain table.
enum class HostTarget : unsigned {
  kBufferA = 0,      ///< a word of L int8
  kBufferB = 1,      ///< a word of L int8
  kWeights = 2,      ///< a weight-store row (T x L int8)
  kParams = 3,       ///< a post parameter-table group (write only)
  kPlanarGains = 4,  ///< a planar gain-table row of L entries (write only; always ready)
  kVqRow = 5,        ///< with VQ: a weight-store row as T x L / m indices, decoded on the way
  kVqCodebook = 6,   ///< with VQ: a codebook row of M weights (write only)
};
inline constexpr unsigned kHostTargetBits = 3;

/// Where lane l of a planar gain-table row sits in the host port's data: the L biases,
/// the L multipliers, then the L 6-bit shifts.
constexpr unsigned gain_bias_lsb(unsigned /*lanes*/, unsigned l) { return l * 32; }
constexpr unsigned gain_multiplier_lsb(unsigned lanes, unsigned l) { return (lanes + l) * 32; }
constexpr unsigned gain_shift_lsb(unsigned lanes, unsigned l) {
  return lanes * 64 + l * PlanarParams::kShiftBits;
}

/// Requesters of the top's system-memory port, in priority order (the DMA's requests may
/// write).
enum class MemRequester : uint8_t {
  kNeuralCommand = 0,
  kPlanarCommand = 1,
  kTaskUnit = 2,
  kDma = 3
};
inline constexpr unsigned kMemRequesters = 4;

namespace npu_csr {
/// APB windows: the sequencer's whole port (its own three windows inside), the planar
/// engine's, the top's own registers and the task unit's.
inline constexpr unsigned kAddrBits = 12;
inline constexpr uint32_t kSequencerWindow = 0x000;  ///< 0x400 bytes
inline constexpr uint32_t kPlanarWindow = 0x400;     ///< 0x200 bytes
inline constexpr uint32_t kOwnWindow = 0x600;        ///< 0x200 bytes
inline constexpr uint32_t kTasksWindow = 0x800;      ///< 0x800 bytes
/// With VQ: the weight loader's dequantizer registers (docs/vq_registers.md), carved out of
/// the top half of the own window.
inline constexpr uint32_t kVqWindow = 0x700;  ///< 2^(the dequantizer's address bits) bytes
/// Descriptor register addresses (docs/tasks.md) that program the engines: register word
/// i of the sequencer's APB port is descriptor register kDescSequencer + i, of the planar
/// engine's kDescPlanar + i. The command processors replay them.
inline constexpr uint32_t kDescSequencer = 0x100;  ///< 256 words (the 0x400-byte port)
inline constexpr uint32_t kDescPlanar = 0x200;     ///< up to 128 words (0x200 bytes)
// Own registers, offsets inside kOwnWindow.
inline constexpr uint32_t kStatus = 0x00;
inline constexpr uint32_t kIrqEnable = 0x04;
inline constexpr uint32_t kInfo = 0x08;
inline constexpr uint32_t kCycles = 0x0c;
/// The base table: BASE[i] at kBase + 4i, added to a descriptor's memory pointers (words 2
/// and 3) when the DMA moves its task's input or output; a task uses BASE[its queue's
/// BASE_INDEX mod kBaseEntries].
inline constexpr uint32_t kBase = 0x10;
inline constexpr unsigned kBaseEntries = 4;
/// STATUS: SEQ_DONE, PLANAR_DONE and TASKS_DONE sticky (write 1 to clear), CFG_ERR, BUSY and
/// TASKS_ERR read only. IRQ_ENABLE has the same bits for the interrupt's sources.
inline constexpr unsigned kSeqDoneBit = 0, kPlanarDoneBit = 1, kCfgErrBit = 2, kBusyBit = 3;
inline constexpr unsigned kTasksDoneBit = 4, kTasksErrBit = 5;
/// The STATUS bits that raise the interrupt under IRQ_ENABLE.
inline constexpr uint32_t kIrqSources = (1U << kSeqDoneBit) | (1U << kPlanarDoneBit) |
                                        (1U << kCfgErrBit) | (1U << kTasksDoneBit) |
                                        (1U << kTasksErrBit);
/// INFO: L, and log2 of the words of a buffer rounded up.
inline constexpr unsigned kInfoLanesLsb = 0, kInfoActBitsLsb = 8;

regmap::RegisterMap register_map(const NpuDesign& d);
}  // namespace npu_csr

}  // namespace npugen::golden
