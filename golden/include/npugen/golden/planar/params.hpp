// Parameters of the planar engine (seed 001's planar engine: npu.md row 001-1 and
// section 4.7), the task its register groups describe, why the hardware refuses a task, and
// its registers. The generator fills PlanarParams from the validated configuration (the
// `planar` section and the PE array's lanes); planar_csr::register_map() is the one
// definition of the registers. docs/planar.md describes the engine.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/common/regmap.hpp"
#include "npugen/golden/planar/divide.hpp"

namespace npugen::golden {

/// A planar task's operation (MODE.OP).
enum class PlanarOp : unsigned {
  kMaxPool = 0,     ///< the largest input over the window's valid positions, clamped
  kAvgPool = 1,     ///< their sum over their count, rounded half away from zero, clamped
  kAdd = 2,         ///< TFLite int8 ADD of inputs A and B
  kGainBias = 3,    ///< per channel clamp(MBQM(x - x_zp, M[c], shift[c]) + bias[c] + y_zp)
  kReduceSum = 4,   ///< sum of x - x_zp over H x W (per channel) or over the channels,
                    ///< requantized with OUT_MULTIPLIER and OUT_SHIFT
  kReduceMax = 5,   ///< the largest x over H x W or over the channels, clamped
  kActivation = 6,  ///< the clamp alone (relu: ACT_MIN = the zero point)
  kLut = 7,         ///< a 256-entry table, clamped: clamp(LUT[x + 128]) (the LUT: lut_byte)
};
inline constexpr unsigned kPlanarOpCount = 8;
/// "max_pool", "avg_pool", "add", "gain_bias", "reduce_sum", "reduce_max", "activation",
/// "lut".
const char* planar_op_name(PlanarOp op);
constexpr unsigned planar_op_bit(PlanarOp op) { return 1U << static_cast<unsigned>(op); }
/// Whether the operation slides a window (reads the WINDOW register).
constexpr bool is_pool(PlanarOp op) { return op == PlanarOp::kMaxPool || op == PlanarOp::kAvgPool; }
/// Whether the operation reduces (reads MODE.AXIS).
constexpr bool is_reduce(PlanarOp op) {
  return op == PlanarOp::kReduceSum || op == PlanarOp::kReduceMax;
}

/// What a reduction reduces (MODE.AXIS).
enum class PlanarAxis : unsigned {
  kSpatial = 0,   ///< over H x W, per channel: output N x 1 x 1 x C
  kChannels = 1,  ///< over the channels, per pixel: output N x H x W x 1
};

struct PlanarParams {
  static constexpr unsigned kDimBits = 16;   ///< H, W, C, N fields
  static constexpr unsigned kSmallBits = 4;  ///< kernel, stride and padding fields
  static constexpr unsigned kMaxDim = (1U << kDimBits) - 1;
  static constexpr unsigned kMaxSmall = (1U << kSmallBits) - 1;
  static constexpr unsigned kMaxWords = 16;
  /// Channels of a beat at most (W x L): its accumulators stay within 8 k bits.
  static constexpr unsigned kMaxBeatLanes = 256;
  /// H results a line-buffer bank holds at most (channels x output columns).
  static constexpr uint64_t kMaxBankLanes = uint64_t{1} << 20;
  /// The smallest shift the gain table's 6-bit field means: -32 is taken as -31.
  static constexpr int kMinTableShift = -31;
  static constexpr unsigned kMaxReadLatency = 8;
  static constexpr unsigned kShiftBits = 6;         ///< a signed shift, -31 to 30
  static constexpr unsigned kMaxLeftShift = 23;     ///< ADD's (x - zp) << left_shift fits int32
  static constexpr unsigned kHBits = 12;            ///< an H-filter result: 15 int8 taps summed
  static constexpr unsigned kAccBits = 32;          ///< the accumulators and ADD's sums
  static constexpr unsigned kMaxOutStages = 8;      ///< output pipeline registers at most
  static constexpr unsigned kLutEntries = 256;      ///< the LUT: one int8 for every int8 input
  static constexpr unsigned kLutBytesPerEntry = 8;  ///< LUT bytes in a gain-table entry

  unsigned lanes = 8;             ///< L: channels in a word (pe_array.lanes)
  unsigned words = 1;             ///< W: words a cycle in and out (a beat: W x L channels)
  unsigned max_window = 3;        ///< largest pooling kernel height and width
  unsigned max_stride = 2;        ///< largest pooling stride
  unsigned max_pad = 1;           ///< largest pooling padding on a side
  unsigned max_height = 32;       ///< largest input height H
  unsigned max_width = 32;        ///< largest input width W
  unsigned max_channels = 64;     ///< largest channel count C
  unsigned max_batch = 4;         ///< largest batch N
  uint64_t act_words = 1U << 16;  ///< words of the memory the ports address
  unsigned modes = (1U << kPlanarOpCount) - 1;  ///< planar_op_bit of each operation generated
  unsigned read_latency = 1;     ///< read latency the engine streams at full rate against
  unsigned pipeline_stages = 0;  ///< registers between stage B and the output register

  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("lanes", lanes), f("words", words), f("max_window", max_window);
    f("max_stride", max_stride), f("max_pad", max_pad), f("max_height", max_height);
    f("max_width", max_width), f("max_channels", max_channels), f("max_batch", max_batch);
    f("act_words", act_words), f("modes", modes), f("read_latency", read_latency);
    f("pipeline_stages", pipeline_stages);
  }

  [[nodiscard]] constexpr bool generates(PlanarOp op) const {
    return (modes & planar_op_bit(op)) != 0;
  }
  [[nodiscard]] constexpr bool has_pool() const {
    return generates(PlanarOp::kMaxPool) || generates(PlanarOp::kAvgPool);
  }
  /// V: channels of a beat (W words of L lanes).
  [[nodiscard]] constexpr unsigned beat_lanes() const { return words * lanes; }
  /// Beats of a pixel's channels at most: ceil(max_channels / V); the gain table's rows.
  [[nodiscard]] constexpr unsigned max_beats() const {
    return (max_channels + beat_lanes() - 1) / beat_lanes();
  }
  /// Bits of a word address.
  [[nodiscard]] constexpr unsigned act_addr_bits() const { return field_bits(act_words); }
  /// Entries of the read queues: the reads in flight plus those waiting (latency + 2 keeps
  /// a beat a cycle moving).
  [[nodiscard]] constexpr unsigned queue_depth() const { return read_latency + 2; }
  /// Line-buffer banks: a window's rows before its last (at least one bank).
  [[nodiscard]] constexpr unsigned lb_banks() const { return max_window > 1 ? max_window - 1 : 1; }
  /// Output columns of a pooling at most: W + max_pad (padding is below the kernel).
  [[nodiscard]] constexpr unsigned lb_columns() const { return max_width + max_pad; }
  /// Entries of a line-buffer bank: one per output column and beat of a row (at least two,
  /// so that an entry's index has a bit). Bounded by the configuration rule on
  /// bank_lanes().
  [[nodiscard]] constexpr unsigned lb_depth() const {
    return lb_columns() * max_beats() > 1 ? lb_columns() * max_beats() : 2;
  }
  /// H results of a bank: (max_width + max_pad) x max_beats() x V (64-bit: the rule).
  [[nodiscard]] constexpr uint64_t bank_lanes() const {
    return (uint64_t{max_width} + max_pad) * max_beats() * beat_lanes();
  }
  /// Rows of the gain table that hold the LUT (lut_byte): its 256 bytes are 8 an entry.
  [[nodiscard]] constexpr unsigned lut_rows() const {
    return (kLutEntries / kLutBytesPerEntry + beat_lanes() - 1) / beat_lanes();
  }
  /// Rows of the gain table (and of the column buffer's banks): max_beats(), at least two.
  [[nodiscard]] constexpr unsigned table_rows() const { return max_beats() > 1 ? max_beats() : 2; }
  /// Rows the parameter port writes: the gain table's, and with the LUT generated at least
  /// lut_rows() (rows beyond the gain table's hold LUT bytes only).
  [[nodiscard]] constexpr unsigned param_rows() const {
    const unsigned lut = generates(PlanarOp::kLut) ? lut_rows() : 0;
    return table_rows() > lut ? table_rows() : lut;
  }
  /// The average's reciprocal table (counts 1 to max_window^2).
  [[nodiscard]] PoolDivider divider() const {
    return PoolDivider::for_counts(max_window * max_window);
  }
};

/// A channel's entry of the gain table (GAIN_BIAS).
struct PlanarGain {
  int32_t bias = 0;
  int32_t multiplier = 1 << 30;
  int shift = 0;  ///< -31 to 30
  bool operator==(const PlanarGain&) const = default;
};

/// The LUT (PlanarOp::kLut): the output for every int8 input x at index x + 128.
using PlanarLut = std::array<int8_t, PlanarParams::kLutEntries>;

/// The LUT's byte i (x + 128) in the gain table's entries (row-major: entry e is row e / V,
/// lane e % V): entry i / 8, byte i % 8 of its bias (bytes 0 to 3, little-endian) and its
/// multiplier (4 to 7). The engine keeps those bytes, as they are written, in flip-flops
/// that every lane reads at once; the shift fields are not used.
int8_t lut_byte(std::span<const PlanarGain> entries, unsigned i);
/// The entries (kLutEntries / kLutBytesPerEntry of them, shifts 0) that hold `lut`.
std::vector<PlanarGain> lut_entries(const PlanarLut& lut);

/// One task as a register group describes it. Addresses and strides are in words (a word:
/// L channels of a pixel, NHWC); a beat is W consecutive words of one pixel.
struct PlanarTask {
  PlanarOp op = PlanarOp::kActivation;
  PlanarAxis axis = PlanarAxis::kSpatial;
  unsigned left_shift = 20;  ///< ADD's left shift
  unsigned height = 1, width = 1, channels = 1, batch = 1;
  unsigned kernel_h = 1, kernel_w = 1, stride_y = 1, stride_x = 1;
  unsigned pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  uint64_t a_base = 0, b_base = 0, out_base = 0;
  uint64_t in_pixel_stride = 1, in_row_stride = 1, in_image_stride = 1;  ///< A's and B's
  uint64_t out_pixel_stride = 1, out_row_stride = 1, out_image_stride = 1;
  int a_zero_point = 0, b_zero_point = 0, out_zero_point = 0;
  int act_min = -128, act_max = 127;
  int32_t a_multiplier = 1 << 30, b_multiplier = 1 << 30, out_multiplier = 1 << 30;
  int a_shift = 0, b_shift = 0, out_shift = 0;

  /// Output shape: pooling (H + pads - kernel) / stride + 1; a spatial reduction 1 x 1
  /// (C channels); a channel reduction H x W (1 channel); else the input's.
  [[nodiscard]] unsigned out_height() const;
  [[nodiscard]] unsigned out_width() const;
  [[nodiscard]] unsigned out_channels() const;
  /// Words of a pixel's channels: ceil(C / L).
  [[nodiscard]] unsigned channel_words(unsigned lanes) const {
    return (channels + lanes - 1) / lanes;
  }
  /// Input and output words (one input's: ADD reads as many from B).
  [[nodiscard]] uint64_t in_words(unsigned lanes) const;
  [[nodiscard]] uint64_t out_words(unsigned lanes) const;

  /// A task on dense NHWC tensors: A at a_base (B after it), the output after those.
  static PlanarTask dense(const PlanarParams& p, PlanarOp op, unsigned height, unsigned width,
                          unsigned channels, unsigned batch, uint64_t a_base = 0,
                          uint64_t b_base = 0, uint64_t out_base = 0);
};

/// Why the hardware refuses the task (the enable write is ignored and STATUS.CFG_ERR set),
/// or "" when it takes it: an operation unknown or not generated; H, W, C or N zero or above
/// its maximum; for pooling a kernel or stride zero or above its maximum, padding above its
/// maximum or not below the kernel, a kernel larger than the padded input; ADD's left shift
/// above 23; a shift the operation uses outside -31 to 30; ACT_MIN above ACT_MAX.
std::string planar_refusal(const PlanarParams& p, const PlanarTask& t);

/// Beats the rasterizer issues for the task: one a cycle while streaming (each reads W words
/// of A, and of B for ADD, or none: a pooling window whose rows are all in the line buffer).
uint64_t planar_beats(const PlanarParams& p, const PlanarTask& t);
/// Cycles from the task's first beat to its last output word with no back-pressure and reads
/// answered after read_latency cycles: the beats plus the pipeline's depth.
uint64_t planar_cycles(const PlanarParams& p, const PlanarTask& t);
/// Cycles from a beat's making to its output word on the write port (no back-pressure): the
/// request queue, the read, the response queue, stage A, stage B, the output pipeline's
/// registers and the output register.
constexpr unsigned planar_pipeline_cycles(const PlanarParams& p) {
  return p.read_latency + 4 + p.pipeline_stages;
}

/// The planar engine's registers: byte offsets and field positions.
namespace planar_csr {
inline constexpr uint32_t kStatus = 0x00;
inline constexpr uint32_t kInfo = 0x04;
inline constexpr uint32_t kLimits = 0x08;
inline constexpr uint32_t kMaxShape = 0x0c;
inline constexpr uint32_t kMaxDepth = 0x10;
inline constexpr uint32_t kTasksDone = 0x14;
inline constexpr uint32_t kGroupOffset = 0x80;
inline constexpr uint32_t kGroupStride = 0x80;
inline constexpr unsigned kGroups = 2;
// Registers of a group, offsets inside it.
inline constexpr uint32_t kCtrl = 0x00;
inline constexpr uint32_t kMode = 0x04;
inline constexpr uint32_t kInShape = 0x08;
inline constexpr uint32_t kInDepth = 0x0c;
inline constexpr uint32_t kWindow = 0x10;
inline constexpr uint32_t kABase = 0x14;
inline constexpr uint32_t kBBase = 0x18;
inline constexpr uint32_t kOutBase = 0x1c;
inline constexpr uint32_t kInPixelStride = 0x20;
inline constexpr uint32_t kInRowStride = 0x24;
inline constexpr uint32_t kInImageStride = 0x28;
inline constexpr uint32_t kOutPixelStride = 0x2c;
inline constexpr uint32_t kOutRowStride = 0x30;
inline constexpr uint32_t kOutImageStride = 0x34;
inline constexpr uint32_t kZeroPoints = 0x38;
inline constexpr uint32_t kClamp = 0x3c;
inline constexpr uint32_t kAMultiplier = 0x40;
inline constexpr uint32_t kBMultiplier = 0x44;
inline constexpr uint32_t kOutMultiplier = 0x48;
inline constexpr uint32_t kShifts = 0x4c;
inline constexpr unsigned kGroupWords = 20;  ///< registers of a group
// Field positions (lowest bit).
inline constexpr unsigned kStatusCfgErrBit = 0, kStatusBusyBit = 1, kStatusCurrentBit = 2;
inline constexpr unsigned kCtrlEnableBit = 0;
inline constexpr unsigned kInfoLanesLsb = 0, kInfoWordsLsb = 10, kInfoModesLsb = 16,
                          kInfoMaxWindowLsb = 24;
inline constexpr unsigned kLimitsMaxStrideLsb = 0, kLimitsMaxPadLsb = 4, kLimitsMaxBatchLsb = 16;
inline constexpr unsigned kLowLsb = 0, kHighLsb = 16;  ///< IN_SHAPE, IN_DEPTH, MAX_SHAPE
inline constexpr unsigned kOpLsb = 0, kAxisBit = 4, kLeftShiftLsb = 8;  ///< MODE
inline constexpr unsigned kKernelHLsb = 0, kKernelWLsb = 4, kStrideYLsb = 8, kStrideXLsb = 12,
                          kPadTopLsb = 16, kPadBottomLsb = 20, kPadLeftLsb = 24,
                          kPadRightLsb = 28;  ///< WINDOW
inline constexpr unsigned kAZeroPointLsb = 0, kBZeroPointLsb = 8, kOutZeroPointLsb = 16;
inline constexpr unsigned kActMinLsb = 0, kActMaxLsb = 8;                     ///< CLAMP
inline constexpr unsigned kAShiftLsb = 0, kBShiftLsb = 8, kOutShiftLsb = 16;  ///< SHIFTS

/// The register map of a planar engine with parameters p.
regmap::RegisterMap register_map(const PlanarParams& p);

/// The register writes (group-relative byte offset, value) that program `task`, CTRL last.
struct Write {
  uint32_t offset;
  uint32_t value;
};
std::vector<Write> task_writes(const PlanarTask& task);
/// The task a group's register values describe: words[i] is the register at offset 4 i.
PlanarTask task_of(const uint32_t* words);
}  // namespace planar_csr

}  // namespace npugen::golden
