// Parameters of the sequencer (the neural engine that runs convolution
// and fully connected layers on the PE array), its registers, its host memory port, and
// how it is built from the blocks it instantiates (the address generator, the dense PE
// array, the post unit). docs/sequencer.md describes the whole; sequencer_csr::register_map()
// is the one definition of its own registers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "npugen/golden/agu/params.hpp"
#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/common/regmap.hpp"
#include "npugen/golden/pe_array/params.hpp"
#include "npugen/golden/post/params.hpp"
#include "npugen/golden/zs/params.hpp"

namespace npugen::golden {

struct SequencerParams {
  static constexpr unsigned kMaxCacheRows = 1U << 16;
  static constexpr unsigned kMaxLanes = 64;          ///< lane masks fit 64 bits
  static constexpr unsigned kMaxMultipliers = 4096;  ///< T x L: the weight rows' width

  unsigned cache_rows = 64;  ///< rows of each tile's weight cache, per set (two sets)

  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("cache_rows", cache_rows);
  }
};

/// What a sequencer is built from: its own parameters and those of the blocks it
/// instantiates (their sections of the same configuration).
struct SequencerDesign {
  SequencerParams seq;
  AguParams agu;
  PeArrayParams array;
  PostParams post;
  /// The zero-skipping array (section zs) beside the dense one, when zero_skip is among the
  /// address generator's dataflows: its array parameters are `array`'s.
  std::optional<ZeroSkipParams> zs;

  [[nodiscard]] unsigned tiles() const { return array.tiles; }
  [[nodiscard]] unsigned lanes() const { return array.lanes; }
  /// Bytes of a weight row (and of a cache row): T x L.
  [[nodiscard]] unsigned row_bytes() const { return array.tiles * array.lanes; }
  /// Bits of a post parameter-table group as the host port writes it: P biases, P
  /// multipliers, P shifts.
  [[nodiscard]] unsigned param_bits() const { return post.lanes * (64 + PostParams::kShiftBits); }
  /// Zero skipping: a store row holds one preprocessed step, its T x L weights and, above
  /// them, its control word (zs/params.hpp ControlLayout), the filters of its job (on every
  /// step of the job) and a flag on the last step of an output pixel's last job. Without
  /// zs a row is the T x L weights alone.
  [[nodiscard]] unsigned zs_ctrl_bits() const { return zs ? ControlLayout::of(*zs).width() : 0; }
  [[nodiscard]] unsigned zs_ctrl_lsb() const { return row_bytes() * 8; }
  [[nodiscard]] unsigned zs_filters_lsb() const { return zs_ctrl_lsb() + zs_ctrl_bits(); }
  [[nodiscard]] unsigned zs_end_bit() const { return zs_filters_lsb() + agu.filters_bits(); }
  /// Bytes of a store row: T x L, and with zs the step's control bytes above.
  [[nodiscard]] unsigned store_row_bytes() const {
    return zs ? (zs_end_bit() + 1 + 7) / 8 : row_bytes();
  }
  /// The zero-skip path's staging memory: zs.max_rows words in kZsSlots slots, a pixel
  /// window each (three: one replayed, one staged next, one filling while the array still
  /// owes the results of the slot before).
  static constexpr unsigned kZsSlots = 3;
  [[nodiscard]] unsigned zs_stage_rows() const { return zs ? zs->max_rows : 0; }
  /// Rows of a slot (a pixel window at most): zs.max_rows / 3. The array addresses the whole
  /// memory: a job's first step is moved to its slot.
  [[nodiscard]] unsigned zs_slot_rows() const { return zs_stage_rows() / kZsSlots; }
  /// Bits of the host port's data: the widest of a store row and a table group.
  [[nodiscard]] unsigned mem_data_bits() const;
  /// Bits of the host port's address: the widest of the buffers, the store and the table.
  [[nodiscard]] unsigned mem_addr_bits() const;
  /// Entries of the queue of dot products in flight in the array (their results' places).
  [[nodiscard]] unsigned result_queue_depth() const { return array.latency() + 3; }
  /// Entries of the queue of beats in flight in the post unit: one a pipeline register and
  /// one more, so that the drain does not wait for a full post unit that is moving.
  [[nodiscard]] unsigned beat_queue_depth() const { return post.pipeline_stages + 1; }
  /// Bits of the cache row counter (0 to cache_rows, one beyond: "does not fit").
  [[nodiscard]] unsigned cache_row_bits() const { return field_bits(uint64_t{seq.cache_rows} + 1); }
};

/// Targets of the host memory port.
enum class MemTarget : unsigned {
  kBufferA = 0,  ///< activation buffer A: a word of L int8
  kBufferB = 1,  ///< activation buffer B
  kWeights = 2,  ///< the weight store: a row of T x L int8 (tile t's weights at t x L)
  kParams = 3,   ///< the post unit's parameter table: a group (write only; reads give 0)
};

/// The sequencer's port map: the blocks inside answer in windows of its APB port.
namespace sequencer_csr {
inline constexpr uint32_t kWindowBytes = 0x100;
inline constexpr uint32_t kAguWindow = 0x000;   ///< the address generator's registers
inline constexpr uint32_t kPostWindow = 0x100;  ///< the post unit's
inline constexpr uint32_t kOwnWindow = 0x200;   ///< the sequencer's own (below)
inline constexpr unsigned kAddrBits = 10;
// Own registers, offsets inside kOwnWindow.
inline constexpr uint32_t kStatus = 0x00;
inline constexpr uint32_t kInfo = 0x04;
inline constexpr uint32_t kLayersDone = 0x08;
inline constexpr uint32_t kCycles = 0x0c;
inline constexpr uint32_t kSteps = 0x10;
inline constexpr uint32_t kActReads = 0x14;
inline constexpr uint32_t kWeightReads = 0x18;
inline constexpr uint32_t kWrites = 0x1c;
inline constexpr uint32_t kWindowReads = 0x20;
inline constexpr unsigned kBusyBit = 0, kCacheBypassBit = 1;  ///< STATUS
inline constexpr unsigned kCacheRowsLsb = 0;                  ///< INFO

regmap::RegisterMap register_map(const SequencerDesign& d);
}  // namespace sequencer_csr

/// Where lane l of a post parameter-table group sits in the host port's data (P lanes): the
/// P biases, then the P multipliers, then the P shifts, as the post unit's param_* ports.
constexpr unsigned param_bias_lsb(unsigned /*lanes*/, unsigned l) { return l * 32; }
constexpr unsigned param_multiplier_lsb(unsigned lanes, unsigned l) { return (lanes + l) * 32; }
constexpr unsigned param_shift_lsb(unsigned lanes, unsigned l) {
  return lanes * 64 + l * PostParams::kShiftBits;
}

}  // namespace npugen::golden
