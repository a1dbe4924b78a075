#include "npugen/golden/planar/params.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "npugen/golden/common/refusal.hpp"

namespace npugen::golden {

const char* planar_op_name(PlanarOp op) {
  switch (op) {
    case PlanarOp::kMaxPool:
      return "max_pool";
    case PlanarOp::kAvgPool:
      return "avg_pool";
    case PlanarOp::kAdd:
      return "add";
    case PlanarOp::kGainBias:
      return "gain_bias";
    case PlanarOp::kReduceSum:
      return "reduce_sum";
    case PlanarOp::kReduceMax:
      return "reduce_max";
    case PlanarOp::kActivation:
      return "activation";
    case PlanarOp::kLut:
      return "lut";
  }
  return "?";
}

int8_t lut_byte(std::span<const PlanarGain> entries, unsigned i) {
  const PlanarGain& e = entries[i / PlanarParams::kLutBytesPerEntry];
  const unsigned k = i % PlanarParams::kLutBytesPerEntry;
  const auto word = static_cast<uint32_t>(k < 4 ? e.bias : e.multiplier);
  return static_cast<int8_t>(static_cast<uint8_t>(word >> (8 * (k % 4))));
}

std::vector<PlanarGain> lut_entries(const PlanarLut& lut) {
  std::vector<PlanarGain> e(PlanarParams::kLutEntries / PlanarParams::kLutBytesPerEntry);
  for (size_t n = 0; n < e.size(); ++n) {
    uint32_t word[2] = {0, 0};
    for (unsigned k = 0; k < PlanarParams::kLutBytesPerEntry; ++k) {
      word[k / 4] |= uint32_t{static_cast<uint8_t>(lut[n * PlanarParams::kLutBytesPerEntry + k])}
                     << (8 * (k % 4));
    }
    e[n] = PlanarGain{static_cast<int32_t>(word[0]), static_cast<int32_t>(word[1]), 0};
  }
  return e;
}

unsigned PlanarTask::out_height() const {
  if (is_pool(op)) return (height + pad_top + pad_bottom - kernel_h) / stride_y + 1;
  if (is_reduce(op) && axis == PlanarAxis::kSpatial) return 1;
  return height;
}

unsigned PlanarTask::out_width() const {
  if (is_pool(op)) return (width + pad_left + pad_right - kernel_w) / stride_x + 1;
  if (is_reduce(op) && axis == PlanarAxis::kSpatial) return 1;
  return width;
}

unsigned PlanarTask::out_channels() const {
  return is_reduce(op) && axis == PlanarAxis::kChannels ? 1 : channels;
}

uint64_t PlanarTask::in_words(unsigned lanes) const {
  return uint64_t{batch} * height * width * channel_words(lanes);
}

uint64_t PlanarTask::out_words(unsigned lanes) const {
  return uint64_t{batch} * out_height() * out_width() * ((out_channels() + lanes - 1) / lanes);
}

PlanarTask PlanarTask::dense(const PlanarParams& p, PlanarOp op, unsigned height, unsigned width,
                             unsigned channels, unsigned batch, uint64_t a_base, uint64_t b_base,
                             uint64_t out_base) {
  PlanarTask t;
  t.op = op, t.height = height, t.width = width, t.channels = channels, t.batch = batch;
  t.a_base = a_base, t.b_base = b_base, t.out_base = out_base;
  t.in_pixel_stride = t.channel_words(p.lanes);
  t.in_row_stride = t.in_pixel_stride * width;
  t.in_image_stride = t.in_row_stride * height;
  t.out_pixel_stride = (t.out_channels() + p.lanes - 1) / p.lanes;
  t.out_row_stride = t.out_pixel_stride * t.out_width();
  t.out_image_stride = t.out_row_stride * t.out_height();
  return t;
}

std::string planar_refusal(const PlanarParams& p, const PlanarTask& t) {
  const auto op = static_cast<unsigned>(t.op);
  if (op >= kPlanarOpCount) return fmt::format("operation {} is unknown", op);
  if (!p.generates(t.op)) return fmt::format("operation {} is not generated", planar_op_name(t.op));
  for (const std::string& why :
       {outside("height", t.height, 1, p.max_height, "planar.max_height"),
        outside("width", t.width, 1, p.max_width, "planar.max_width"),
        outside("channels", t.channels, 1, p.max_channels, "planar.max_channels"),
        outside("batch", t.batch, 1, p.max_batch, "planar.max_batch")}) {
    if (!why.empty()) return why;
  }
  if (is_pool(t.op)) {
    if (std::string why =
            window_refusal(t, p.max_window, p.max_stride, p.max_pad,
                           {"planar.max_window", "planar.max_stride", "planar.max_pad"});
        !why.empty()) {
      return why;
    }
  }
  if (t.op == PlanarOp::kAdd && t.left_shift > PlanarParams::kMaxLeftShift) {
    return fmt::format("left shift {} is above {}", t.left_shift, PlanarParams::kMaxLeftShift);
  }
  auto shift_ok = [](int s) { return s >= -31 && s <= 30; };
  if (t.op == PlanarOp::kAdd && (!shift_ok(t.a_shift) || !shift_ok(t.b_shift))) {
    return fmt::format("input shifts {}/{} are outside -31 to 30", t.a_shift, t.b_shift);
  }
  if ((t.op == PlanarOp::kAdd || t.op == PlanarOp::kReduceSum) && !shift_ok(t.out_shift)) {
    return fmt::format("output shift {} is outside -31 to 30", t.out_shift);
  }
  if (t.act_min > t.act_max) {
    return fmt::format("ACT_MIN {} is above ACT_MAX {}", t.act_min, t.act_max);
  }
  return "";
}

uint64_t planar_beats(const PlanarParams& p, const PlanarTask& t) {
  const uint64_t beats = (t.channels + p.beat_lanes() - 1) / p.beat_lanes();
  if (!is_pool(t.op))
    return uint64_t{t.batch} * t.height * t.width *
           beats;  // Pooling: every row a window reads for the first time, and in it every column
                   // an output
  // column reads for the first time (a beat each), or a beat for an output column whose
  // columns are all read (right padding); a window whose rows are all read already (bottom
  // padding) a beat per output column.
  const auto h = static_cast<int64_t>(t.height), w = static_cast<int64_t>(t.width);
  const auto kh = static_cast<int64_t>(t.kernel_h), kw = static_cast<int64_t>(t.kernel_w);
  uint64_t taps = 0;  // beats of a row read, per beat of a pixel
  int64_t next_col = 0;
  for (unsigned ow = 0; ow < t.out_width(); ++ow) {
    const int64_t x0 = int64_t{ow} * t.stride_x - t.pad_left;
    const int64_t last = std::min(x0 + kw, w) - 1;
    const int64_t first = std::max({x0, int64_t{0}, next_col});
    if (first <= last) {
      taps += static_cast<uint64_t>(last - first + 1);
      next_col = last + 1;
    } else {
      taps += 1;
    }
  }
  uint64_t per_image = 0;
  int64_t next_row = 0;
  for (unsigned oh = 0; oh < t.out_height(); ++oh) {
    const int64_t y0 = int64_t{oh} * t.stride_y - t.pad_top;
    const int64_t last = std::min(y0 + kh, h) - 1;
    const int64_t first = std::max(y0, next_row);
    if (first <= last) {
      per_image += static_cast<uint64_t>(last - first + 1) * taps * beats;
      next_row = last + 1;
    } else {
      per_image += uint64_t{t.out_width()} * beats;
    }
  }
  return per_image * t.batch;
}

uint64_t planar_cycles(const PlanarParams& p, const PlanarTask& t) {
  // One cycle to start from the enable, then a beat a cycle, then the pipeline.
  return 1 + planar_beats(p, t) + planar_pipeline_cycles(p);
}

namespace planar_csr {

using regmap::Access;
using regmap::Field;

regmap::RegisterMap register_map(const PlanarParams& p) {
  regmap::RegisterMap map;
  map.block = "planar";
  map.title = "Registers of the planar engine";
  map.doc = fmt::format(
      "Two task groups (ping-pong): software programs one while the task of the other runs; a "
      "group's CTRL.ENABLE hands it to the hardware, which clears it when the task's last "
      "output word is written. Tasks run in group order 0, 1, 0, ... with no cycle lost "
      "between them when the next group is enabled before the running task's last beat. A "
      "group is read-only while enabled (a write to it sets STATUS.CFG_ERR). Maxima of this "
      "design: H {}, W {}, C {}, N {}, window {}, stride {}, padding {}. The registers sit on "
      "an APB port with no wait states; an address with no register reads 0 and answers "
      "PSLVERR. The gain table (GAIN_BIAS's per-channel bias, multiplier and shift) is "
      "written through the parameter port, a row of W x L channels at a time.",
      p.max_height, p.max_width, p.max_channels, p.max_batch, p.max_window, p.max_stride,
      p.max_pad);
  auto ro = [](const char* name, unsigned lsb, unsigned width, uint32_t value, const char* doc) {
    return Field{name, lsb, width, Access::kRO, value, false, doc};
  };
  auto rw = [](const char* name, unsigned lsb, unsigned width, std::string doc) {
    return Field{name, lsb, width, Access::kRW, 0, false, std::move(doc)};
  };
  const unsigned a = p.act_addr_bits();
  map.registers = {
      {"STATUS",
       kStatus,
       "State of the engine; CFG_ERR is sticky, write 1 to clear (a flag set and cleared in "
       "the same cycle stays set).",
       {{"CFG_ERR", kStatusCfgErrBit, 1, Access::kW1C, 0, true,
         "a CTRL.ENABLE write named a task the hardware cannot do, or a write reached an "
         "enabled group; it was ignored"},
        {"BUSY", kStatusBusyBit, 1, Access::kRO, 0, true, "a group is enabled"},
        {"CURRENT", kStatusCurrentBit, 1, Access::kRO, 0, true,
         "the group the rasterizer reads now, or reads next"}}},
      {"INFO",
       kInfo,
       "The engine's width and operations (read only).",
       {ro("LANES", kInfoLanesLsb, 9, p.lanes, "L: channels in a word"),
        ro("WORDS", kInfoWordsLsb, 5, p.words, "W: words a beat reads and writes"),
        ro("MODES", kInfoModesLsb, kPlanarOpCount, p.modes,
           "operations generated, a bit each (MODE.OP's values)"),
        ro("MAX_WINDOW", kInfoMaxWindowLsb, 4, p.max_window,
           "largest pooling kernel height and width")}},
      {"LIMITS",
       kLimits,
       "Generated maxima (read only); values above them are refused.",
       {ro("MAX_STRIDE", kLimitsMaxStrideLsb, 4, p.max_stride, "largest pooling stride"),
        ro("MAX_PAD", kLimitsMaxPadLsb, 4, p.max_pad, "largest pooling padding on a side"),
        ro("MAX_BATCH", kLimitsMaxBatchLsb, 16, p.max_batch, "largest batch")}},
      {"MAX_SHAPE",
       kMaxShape,
       "Largest input height and width (read only).",
       {ro("HEIGHT", kLowLsb, 16, p.max_height, "largest H"),
        ro("WIDTH", kHighLsb, 16, p.max_width, "largest W")}},
      {"MAX_DEPTH",
       kMaxDepth,
       "Largest channel count (read only).",
       {ro("CHANNELS", kLowLsb, 16, p.max_channels, "largest C")}},
      {"TASKS_DONE",
       kTasksDone,
       "Tasks whose last output word was written since reset (wraps).",
       {{"COUNT", 0, 16, Access::kRO, 0, true, "completed tasks, modulo 65536"}}},
  };
  regmap::Group g;
  g.name = "GROUP";
  g.offset = kGroupOffset;
  g.count = kGroups;
  g.stride = kGroupStride;
  g.doc = "A task's registers; group i runs tasks i, i + 2, ... .";
  auto word = [&](const char* name, uint32_t offset, const char* doc) {
    return regmap::Register{name, offset, doc, {rw("WORDS", 0, a, "words")}};
  };
  auto base = [&](const char* name, uint32_t offset, const char* doc) {
    return regmap::Register{name, offset, doc, {rw("ADDR", 0, a, "word")}};
  };
  auto q31 = [&](const char* name, uint32_t offset, const char* doc) {
    return regmap::Register{
        name,
        offset,
        doc,
        {Field{"VALUE", 0, 32, Access::kRW, 1U << 30, false, "Q31 multiplier (2^30: 0.5)"}}};
  };
  g.registers = {
      {"CTRL",
       kCtrl,
       "Hands the group to the hardware.",
       {{"ENABLE", kCtrlEnableBit, 1, Access::kRW, 0, true,
         "write 1: the task is checked and queued (refused: ignored, STATUS.CFG_ERR set); "
         "reads 1 until its last output word is written"}}},
      {"MODE",
       kMode,
       "The operation.",
       {rw("OP", kOpLsb, 3,
           "0 max_pool, 1 avg_pool, 2 add, 3 gain_bias, 4 reduce_sum, 5 reduce_max, "
           "6 activation, 7 lut (INFO.MODES: those generated; another is refused)"),
        rw("AXIS", kAxisBit, 1,
           "reductions: 0 over H x W per channel, 1 over the channels per pixel"),
        Field{"LEFT_SHIFT", kLeftShiftLsb, 5, Access::kRW, 20, false,
              "add: the inputs' left shift (TFLite int8: 20), at most 23"}}},
      {"IN_SHAPE",
       kInShape,
       "Input height and width.",
       {rw("HEIGHT", kLowLsb, 16, fmt::format("H, 1 to {}", p.max_height)),
        rw("WIDTH", kHighLsb, 16, fmt::format("W, 1 to {}", p.max_width))}},
      {"IN_DEPTH",
       kInDepth,
       "Input channels and batch.",
       {rw("CHANNELS", kLowLsb, 16, fmt::format("C, 1 to {}", p.max_channels)),
        rw("BATCH", kHighLsb, 16, fmt::format("N, 1 to {}", p.max_batch))}},
      {"WINDOW",
       kWindow,
       "Pooling window: kernel, strides, padding (padded positions take no part).",
       {rw("KERNEL_H", kKernelHLsb, 4, fmt::format("kernel height, 1 to {}", p.max_window)),
        rw("KERNEL_W", kKernelWLsb, 4, fmt::format("kernel width, 1 to {}", p.max_window)),
        rw("STRIDE_Y", kStrideYLsb, 4, fmt::format("vertical stride, 1 to {}", p.max_stride)),
        rw("STRIDE_X", kStrideXLsb, 4, fmt::format("horizontal stride, 1 to {}", p.max_stride)),
        rw("PAD_TOP", kPadTopLsb, 4,
           fmt::format("rows above, 0 to {}, below the kernel height", p.max_pad)),
        rw("PAD_BOTTOM", kPadBottomLsb, 4,
           fmt::format("rows below, 0 to {}, below the kernel height", p.max_pad)),
        rw("PAD_LEFT", kPadLeftLsb, 4,
           fmt::format("columns left, 0 to {}, below the kernel width", p.max_pad)),
        rw("PAD_RIGHT", kPadRightLsb, 4,
           fmt::format("columns right, 0 to {}, below the kernel width", p.max_pad))}},
      base("A_BASE", kABase, "Word of input A's pixel (0, 0, 0), channels 0 to L-1."),
      base("B_BASE", kBBase, "Word of input B's (add), laid out as A."),
      base("OUT_BASE", kOutBase, "Word of output pixel (0, 0, 0)."),
      word("IN_PIXEL_STRIDE", kInPixelStride,
           "Words from an input pixel to the next in its row (dense: ceil(C/L))."),
      word("IN_ROW_STRIDE", kInRowStride, "Words from an input row to the next."),
      word("IN_IMAGE_STRIDE", kInImageStride, "Words from an input image to the next."),
      word("OUT_PIXEL_STRIDE", kOutPixelStride,
           "Words from an output pixel to the next (dense: ceil(output channels / L))."),
      word("OUT_ROW_STRIDE", kOutRowStride, "Words from an output row to the next."),
      word("OUT_IMAGE_STRIDE", kOutImageStride, "Words from an output image to the next."),
      {"ZERO_POINTS",
       kZeroPoints,
       "Zero points (int8).",
       {rw("A", kAZeroPointLsb, 8, "input A's (gain_bias and reduce_sum: the input's)"),
        rw("B", kBZeroPointLsb, 8, "input B's (add)"),
        rw("OUT", kOutZeroPointLsb, 8, "the output's (add, gain_bias, reduce_sum)")}},
      {"CLAMP",
       kClamp,
       "The output clamp (int8); ACT_MIN above ACT_MAX is refused.",
       {Field{"ACT_MIN", kActMinLsb, 8, Access::kRW, 0x80, false,
              "the smallest output (-128; relu: the zero point)"},
        Field{"ACT_MAX", kActMaxLsb, 8, Access::kRW, 0x7f, false, "the largest output (127)"}}},
      q31("A_MULTIPLIER", kAMultiplier, "add: input A's multiplier."),
      q31("B_MULTIPLIER", kBMultiplier, "add: input B's multiplier."),
      q31("OUT_MULTIPLIER", kOutMultiplier, "add and reduce_sum: the output's multiplier."),
      {"SHIFTS",
       kShifts,
       "Shifts of the multipliers (signed, -31 to 30; positive: left).",
       {rw("A", kAShiftLsb, PlanarParams::kShiftBits, "add: input A's"),
        rw("B", kBShiftLsb, PlanarParams::kShiftBits, "add: input B's"),
        rw("OUT", kOutShiftLsb, PlanarParams::kShiftBits, "add and reduce_sum: the output's")}},
  };
  map.groups = {g};
  return map;
}

namespace {
uint32_t byte(int v) { return static_cast<uint32_t>(v) & 0xffU; }
uint32_t shift6(int v) { return static_cast<uint32_t>(v) & ((1U << PlanarParams::kShiftBits) - 1); }
}  // namespace

std::vector<Write> task_writes(const PlanarTask& t) {
  auto lo_hi = [](unsigned lo, unsigned hi) { return lo << kLowLsb | hi << kHighLsb; };
  return {
      {kMode, static_cast<unsigned>(t.op) << kOpLsb | static_cast<unsigned>(t.axis) << kAxisBit |
                  t.left_shift << kLeftShiftLsb},
      {kInShape, lo_hi(t.height, t.width)},
      {kInDepth, lo_hi(t.channels, t.batch)},
      {kWindow, t.kernel_h << kKernelHLsb | t.kernel_w << kKernelWLsb | t.stride_y << kStrideYLsb |
                    t.stride_x << kStrideXLsb | t.pad_top << kPadTopLsb |
                    t.pad_bottom << kPadBottomLsb | t.pad_left << kPadLeftLsb |
                    t.pad_right << kPadRightLsb},
      {kABase, static_cast<uint32_t>(t.a_base)},
      {kBBase, static_cast<uint32_t>(t.b_base)},
      {kOutBase, static_cast<uint32_t>(t.out_base)},
      {kInPixelStride, static_cast<uint32_t>(t.in_pixel_stride)},
      {kInRowStride, static_cast<uint32_t>(t.in_row_stride)},
      {kInImageStride, static_cast<uint32_t>(t.in_image_stride)},
      {kOutPixelStride, static_cast<uint32_t>(t.out_pixel_stride)},
      {kOutRowStride, static_cast<uint32_t>(t.out_row_stride)},
      {kOutImageStride, static_cast<uint32_t>(t.out_image_stride)},
      {kZeroPoints, byte(t.a_zero_point) << kAZeroPointLsb |
                        byte(t.b_zero_point) << kBZeroPointLsb |
                        byte(t.out_zero_point) << kOutZeroPointLsb},
      {kClamp, byte(t.act_min) << kActMinLsb | byte(t.act_max) << kActMaxLsb},
      {kAMultiplier, static_cast<uint32_t>(t.a_multiplier)},
      {kBMultiplier, static_cast<uint32_t>(t.b_multiplier)},
      {kOutMultiplier, static_cast<uint32_t>(t.out_multiplier)},
      {kShifts, shift6(t.a_shift) << kAShiftLsb | shift6(t.b_shift) << kBShiftLsb |
                    shift6(t.out_shift) << kOutShiftLsb},
      {kCtrl, 1U << kCtrlEnableBit},
  };
}

PlanarTask task_of(const uint32_t* words) {
  auto word = [&](uint32_t offset) { return words[offset / 4]; };
  auto field = [&](uint32_t offset, unsigned lsb, unsigned width) {
    return (word(offset) >> lsb) & ((1U << width) - 1);
  };
  auto int8 = [&](uint32_t offset, unsigned lsb) {
    return static_cast<int>(static_cast<int8_t>(field(offset, lsb, 8)));
  };
  auto shift = [&](unsigned lsb) {
    const unsigned v = field(kShifts, lsb, PlanarParams::kShiftBits);
    return static_cast<int>(v) - (v >= 32 ? 64 : 0);
  };
  PlanarTask t;
  t.op = static_cast<PlanarOp>(field(kMode, kOpLsb, 3));
  t.axis = static_cast<PlanarAxis>(field(kMode, kAxisBit, 1));
  t.left_shift = field(kMode, kLeftShiftLsb, 5);
  t.height = field(kInShape, kLowLsb, 16), t.width = field(kInShape, kHighLsb, 16);
  t.channels = field(kInDepth, kLowLsb, 16), t.batch = field(kInDepth, kHighLsb, 16);
  t.kernel_h = field(kWindow, kKernelHLsb, 4), t.kernel_w = field(kWindow, kKernelWLsb, 4);
  t.stride_y = field(kWindow, kStrideYLsb, 4), t.stride_x = field(kWindow, kStrideXLsb, 4);
  t.pad_top = field(kWindow, kPadTopLsb, 4), t.pad_bottom = field(kWindow, kPadBottomLsb, 4);
  t.pad_left = field(kWindow, kPadLeftLsb, 4), t.pad_right = field(kWindow, kPadRightLsb, 4);
  t.a_base = word(kABase), t.b_base = word(kBBase), t.out_base = word(kOutBase);
  t.in_pixel_stride = word(kInPixelStride), t.in_row_stride = word(kInRowStride);
  t.in_image_stride = word(kInImageStride);
  t.out_pixel_stride = word(kOutPixelStride), t.out_row_stride = word(kOutRowStride);
  t.out_image_stride = word(kOutImageStride);
  t.a_zero_point = int8(kZeroPoints, kAZeroPointLsb);
  t.b_zero_point = int8(kZeroPoints, kBZeroPointLsb);
  t.out_zero_point = int8(kZeroPoints, kOutZeroPointLsb);
  t.act_min = int8(kClamp, kActMinLsb), t.act_max = int8(kClamp, kActMaxLsb);
  t.a_multiplier = static_cast<int32_t>(word(kAMultiplier));
  t.b_multiplier = static_cast<int32_t>(word(kBMultiplier));
  t.out_multiplier = static_cast<int32_t>(word(kOutMultiplier));
  t.a_shift = shift(kAShiftLsb), t.b_shift = shift(kBShiftLsb), t.out_shift = shift(kOutShiftLsb);
  return t;
}

}  // namespace planar_csr
}  // namespace npugen::golden
