#include "npugen/golden/agu/params.hpp"

#include <fmt/format.h>

#include "npugen/golden/common/refusal.hpp"

namespace npugen::golden {

const char* dataflow_name(Dataflow d) {
  switch (d) {
    case Dataflow::kConv:
      return "conv";
    case Dataflow::kFc:
      return "fc";
    case Dataflow::kFcBatch:
      return "fc_batch";
    case Dataflow::kZeroSkip:
      return "zero_skip";
  }
  return "?";
}

const char* order_name(Order o) {
  switch (o) {
    case Order::kIm2col:
      return "im2col";
    case Order::kMec:
      return "mec";
  }
  return "?";
}

uint64_t AguLayer::steps(const AguParams& p) const {
  if (dataflow == Dataflow::kFcBatch) return uint64_t{filters} * channel_words(p.lanes);
  return uint64_t{filter_blocks(p.tiles)} * batch * out_height() * out_width() * kernel_h *
         kernel_w * channel_words(p.lanes);
}

uint64_t AguLayer::address_sets(const AguParams& p) const {
  const uint64_t loads =
      dataflow == Dataflow::kFcBatch ? uint64_t{batch} * channel_words(p.lanes) : 0;
  return loads + steps(p);
}

SetLayer SetLayer::of(const AguLayer& l) {
  SetLayer s;
  s.dataflow = l.dataflow, s.order = l.order, s.in_buf = l.in_buf, s.out_buf = l.out_buf;
  s.pad_value = l.pad_value, s.zero_point = l.zero_point;
  s.act_min = l.act_min, s.act_max = l.act_max, s.param_base = l.param_base;
  s.out_stride = l.out_pixel_stride;
  return s;
}

AguLayer AguLayer::dense(const AguParams& p, unsigned height, unsigned width, unsigned channels,
                         unsigned batch, unsigned filters, unsigned kernel_h, unsigned kernel_w,
                         unsigned stride_y, unsigned stride_x, unsigned pad_top,
                         unsigned pad_bottom, unsigned pad_left, unsigned pad_right,
                         uint64_t in_base, uint64_t wgt_base, uint64_t out_base) {
  AguLayer l;
  l.height = height, l.width = width, l.channels = channels, l.batch = batch;
  l.filters = filters, l.kernel_h = kernel_h, l.kernel_w = kernel_w;
  l.stride_y = stride_y, l.stride_x = stride_x;
  l.pad_top = pad_top, l.pad_bottom = pad_bottom, l.pad_left = pad_left, l.pad_right = pad_right;
  l.in_base = in_base, l.wgt_base = wgt_base, l.out_base = out_base;
  l.in_pixel_stride = (channels + p.lanes - 1) / p.lanes;
  l.in_row_stride = l.in_pixel_stride * width;
  l.in_image_stride = l.in_row_stride * height;
  l.out_pixel_stride = (filters + p.lanes - 1) / p.lanes;
  l.out_row_stride = l.out_pixel_stride * l.out_width();
  return l;
}

std::string agu_refusal(const AguParams& p, const AguLayer& l) {
  for (const std::string& why :
       {outside("height", l.height, 1, p.max_height, "agu.max_height"),
        outside("width", l.width, 1, p.max_width, "agu.max_width"),
        outside("channels", l.channels, 1, p.max_channels, "agu.max_channels"),
        outside("batch", l.batch, 1, p.max_batch, "agu.max_batch"),
        outside("filters", l.filters, 1, p.max_channels, "agu.max_channels"),
        window_refusal(l, p.max_kernel, p.max_stride, p.max_pad,
                       {"agu.max_kernel", "agu.max_stride", "agu.max_pad"})}) {
    if (!why.empty()) return why;
  }
  const auto flow = static_cast<unsigned>(l.dataflow);
  if (flow >= kDataflowCount || !p.generates(l.dataflow)) {
    return fmt::format("dataflow {} is not generated", flow);
  }
  if (l.dataflow == Dataflow::kFcBatch) {
    if (l.height != 1 || l.width != 1 || l.kernel_h != 1 || l.kernel_w != 1) {
      return fmt::format("an fc_batch layer has a 1 x 1 input and kernel, not {} x {} and {} x {}",
                         l.height, l.width, l.kernel_h, l.kernel_w);
    }
    if (l.batch > p.tiles) {
      return fmt::format("an fc_batch layer has at most {} images (one a tile), not {}", p.tiles,
                         l.batch);
    }
  }
  if (l.dataflow == Dataflow::kZeroSkip) {
    if (l.filters > p.tiles) {
      return fmt::format("a zero_skip layer is one filter block: at most {} filters (T), not {}",
                         p.tiles, l.filters);
    }
    const uint64_t window = uint64_t{l.kernel_h} * l.kernel_w * l.channel_words(p.lanes);
    if (window > p.zs_window) {
      return fmt::format(
          "a zero_skip layer's window of {} words ({} x {} x ceil({} / {})) exceeds the "
          "staging slot of {} (zs.max_rows / 3)",
          window, l.kernel_h, l.kernel_w, l.channels, p.lanes, p.zs_window);
    }
  }
  if (l.order == Order::kMec) {
    if (p.mec_window == 0) return "the MEC order is not generated (agu.mec_window is 0)";
    if (l.dataflow != Dataflow::kConv) {
      return fmt::format("the MEC order is for conv layers, not {}", dataflow_name(l.dataflow));
    }
    const uint64_t window = uint64_t{l.kernel_h} * l.kernel_w * l.channel_words(p.lanes);
    if (window > p.mec_window) {
      return fmt::format(
          "a {} x {} window of {} channel words is {} words, more than the MEC window's {}",
          l.kernel_h, l.kernel_w, l.channel_words(p.lanes), window, p.mec_window);
    }
  }
  if (l.in_buf == l.out_buf) {
    return fmt::format("the layer reads and writes buffer {}", l.in_buf == 0 ? 'A' : 'B');
  }
  if (l.act_min > l.act_max) {
    return fmt::format("the output clamp's minimum {} is above its maximum {}", l.act_min,
                       l.act_max);
  }
  return "";
}

namespace agu_csr {

regmap::RegisterMap register_map(const AguParams& p) {
  using regmap::Access;
  using regmap::Field;
  const unsigned a = p.act_addr_bits(), w = p.weight_addr_bits();
  regmap::RegisterMap map;
  map.block = "agu";
  map.title = "Registers of the address generator";
  map.doc = fmt::format(
      "Two register groups (ping-pong): software programs one while the layer of the other "
      "runs; a group's CTRL.ENABLE hands it to the hardware, which clears it when the layer's "
      "last address set is taken. Layers run in group order 0, 1, 0, ... with no cycle lost "
      "between them when the next group is enabled before the running layer's last set. A "
      "group is read-only while enabled. Maxima of this design: H {}, W {}, C and K {}, N {}, "
      "kernel {}, stride {}, padding {}. The registers sit on an APB port with no wait "
      "states; an address with no register reads 0 and answers PSLVERR.",
      p.max_height, p.max_width, p.max_channels, p.max_batch, p.max_kernel, p.max_stride,
      p.max_pad);
  auto ro = [](const char* name, unsigned lsb, unsigned width, uint32_t value, const char* doc) {
    return Field{name, lsb, width, Access::kRO, value, false, doc};
  };
  auto rw = [](const char* name, unsigned lsb, unsigned width, std::string doc) {
    return Field{name, lsb, width, Access::kRW, 0, false, std::move(doc)};
  };
  map.registers = {
      {"STATUS",
       kStatus,
       "State of the generator; CFG_ERR is sticky, write 1 to clear (a flag set and cleared in "
       "the same cycle stays set).",
       {{"CFG_ERR", kStatusCfgErrBit, 1, Access::kW1C, 0, true,
         "a CTRL.ENABLE write named a layer the hardware cannot do, or a write reached an "
         "enabled group; it was ignored"},
        {"BUSY", kStatusBusyBit, 1, Access::kRO, 0, true, "a layer is streaming"},
        {"CONSUMER", kStatusConsumerBit, 1, Access::kRO, 0, true,
         "the group whose layer streams now, or streams next"}}},
      {"INFO",
       kInfo,
       "The array the address sets feed (read only).",
       {ro("LANES", kLowLsb, 16, p.lanes, "L: channels in an activation word"),
        ro("TILES", kHighLsb, 16, p.tiles, "T: filters computed at once")}},
      {"LIMITS",
       kLimits,
       "Generated maxima (read only); values above them are refused.",
       {ro("MAX_KERNEL", kMaxKernelLsb, 4, p.max_kernel, "largest kernel height and width"),
        ro("MAX_STRIDE", kMaxStrideLsb, 4, p.max_stride, "largest stride"),
        ro("MAX_PAD", kMaxPadLsb, 4, p.max_pad, "largest padding on a side"),
        ro("DATAFLOWS", kDataflowsLsb, kDataflowCount, p.dataflows,
           "the dataflows generated: bit 0 conv, 1 fc, 2 fc_batch"),
        ro("MAX_BATCH", kMaxBatchLsb, 16, p.max_batch, "largest batch")}},
      {"MEC_WINDOW",
       kMecWindow,
       "The MEC window (read only): a MEC layer's KH x KW x ceil(C/L) must fit it.",
       {ro("WORDS", 0, 16, p.mec_window,
           "words of the window; 0: the MEC order is not generated")}},
      {"LAYERS_DONE",
       kLayersDone,
       "Layers whose last address set was taken since reset (wraps).",
       {{"COUNT", 0, 16, Access::kRO, 0, true, "completed layers, modulo 65536"}}},
  };
  regmap::Group g;
  g.name = "GROUP";
  g.offset = kGroupOffset;
  g.count = kGroups;
  g.stride = kGroupStride;
  g.doc = "A layer's registers; group i runs layers i, i + 2, ... .";
  g.registers = {
      {"CTRL",
       kCtrl,
       "Hands the group to the hardware.",
       {{"ENABLE", kCtrlEnableBit, 1, Access::kRW, 0, true,
         "write 1: the layer is checked and queued (refused: ignored, STATUS.CFG_ERR set); "
         "reads 1 until its last address set is taken"}}},
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
      {"FILTER",
       kFilter,
       "Filters and kernel size.",
       {rw("FILTERS", kLowLsb, 16, fmt::format("K, 1 to {}", p.max_channels)),
        rw("KERNEL_H", kKernelHLsb, 4, fmt::format("kernel height, 1 to {}", p.max_kernel)),
        rw("KERNEL_W", kKernelWLsb, 4, fmt::format("kernel width, 1 to {}", p.max_kernel))}},
      {"WINDOW",
       kWindow,
       "Strides and padding (padded positions read the input zero point).",
       {rw("STRIDE_Y", kStrideYLsb, 4, fmt::format("vertical stride, 1 to {}", p.max_stride)),
        rw("STRIDE_X", kStrideXLsb, 4, fmt::format("horizontal stride, 1 to {}", p.max_stride)),
        rw("PAD_TOP", kPadTopLsb, 4,
           fmt::format("rows above, 0 to {}, below the kernel height", p.max_pad)),
        rw("PAD_BOTTOM", kPadBottomLsb, 4,
           fmt::format("rows below, 0 to {}, below the kernel height", p.max_pad)),
        rw("PAD_LEFT", kPadLeftLsb, 4,
           fmt::format("columns left, 0 to {}, below the kernel width", p.max_pad)),
        rw("PAD_RIGHT", kPadRightLsb, 4,
           fmt::format("columns right, 0 to {}, below the kernel width", p.max_pad))}},
      {"IN_BASE", kInBase, "Activation word of input pixel (0, 0, 0).", {rw("ADDR", 0, a, "word")}},
      {"IN_PIXEL_STRIDE",
       kInPixelStride,
       "Words from an input pixel to the next in its row (dense: ceil(C/L)).",
       {rw("WORDS", 0, a, "words")}},
      {"IN_ROW_STRIDE",
       kInRowStride,
       "Words from an input row to the next (dense: W x pixel stride).",
       {rw("WORDS", 0, a, "words")}},
      {"IN_IMAGE_STRIDE",
       kInImageStride,
       "Words from an input image to the next (dense: H x row stride).",
       {rw("WORDS", 0, a, "words")}},
      {"WGT_BASE",
       kWgtBase,
       "Weight row of the first step of filter block 0; a block's rows follow in the order "
       "kernel row, kernel column, channel word.",
       {rw("ROW", 0, w, "row")}},
      {"OUT_BASE",
       kOutBase,
       "Output word of (image 0, row 0, column 0), filters 0 to L-1.",
       {rw("ADDR", 0, a, "word")}},
      {"OUT_PIXEL_STRIDE",
       kOutPixelStride,
       "Words from an output pixel to the next (dense NHWC: ceil(K/L)); fc_batch: from an "
       "image's outputs to the next.",
       {rw("WORDS", 0, a, "words")}},
      {"OUT_ROW_STRIDE",
       kOutRowStride,
       "Words from an output row to the next (dense NHWC: OW x OUT_PIXEL_STRIDE); image n + 1 "
       "starts OH rows after image n, so for fc (OH = OW = 1) it is the image stride.",
       {rw("WORDS", 0, a, "words")}},
      {"MODE",
       kMode,
       "The layer's dataflow, buffers and pad value.",
       {rw("DATAFLOW", kDataflowLsb, 2,
           "0 conv, 1 fc, 2 fc_batch (LIMITS.DATAFLOWS: those generated; another is refused)"),
        rw("IN_BUF", kInBufBit, 1, "the activation buffer read: 0 A, 1 B"),
        rw("OUT_BUF", kOutBufBit, 1, "the activation buffer written; not IN_BUF"),
        rw("ORDER", kOrderBit, 1,
           "conv: 0 im2col, 1 MEC (output pixels column by column, shared kernel rows from "
           "the MEC window; refused when MEC_WINDOW.WORDS is 0)"),
        rw("PAD_VALUE", kPadValueLsb, 8,
           "what padded positions read: the input zero point (int8)")}},
      {"OUTPUT",
       kOutput,
       "The output's zero point and clamp (int8) for the post unit; ACT_MIN above ACT_MAX "
       "is refused.",
       {rw("ZERO_POINT", kZeroPointLsb, 8, "y_zp, added after scaling"),
        Field{"ACT_MIN", kActMinLsb, 8, Access::kRW, 0x80, false,
              "the smallest output (-128; y_zp for ReLU)"},
        Field{"ACT_MAX", kActMaxLsb, 8, Access::kRW, 0x7f, false, "the largest output (127)"}}},
      {"PARAM_BASE",
       kParamBase,
       "The post unit's parameter-table group holding the layer's first channels.",
       {rw("GROUP", 0, 16, "table group of channels 0 to P-1")}},
  };
  map.groups = {g};
  return map;
}

std::vector<Write> layer_writes(const AguLayer& l) {
  auto lo_hi = [](unsigned lo, unsigned hi) { return lo << kLowLsb | hi << kHighLsb; };
  return {
      {kInShape, lo_hi(l.height, l.width)},
      {kInDepth, lo_hi(l.channels, l.batch)},
      {kFilter, l.filters << kLowLsb | l.kernel_h << kKernelHLsb | l.kernel_w << kKernelWLsb},
      {kWindow, l.stride_y << kStrideYLsb | l.stride_x << kStrideXLsb | l.pad_top << kPadTopLsb |
                    l.pad_bottom << kPadBottomLsb | l.pad_left << kPadLeftLsb |
                    l.pad_right << kPadRightLsb},
      {kInBase, static_cast<uint32_t>(l.in_base)},
      {kInPixelStride, static_cast<uint32_t>(l.in_pixel_stride)},
      {kInRowStride, static_cast<uint32_t>(l.in_row_stride)},
      {kInImageStride, static_cast<uint32_t>(l.in_image_stride)},
      {kWgtBase, static_cast<uint32_t>(l.wgt_base)},
      {kOutBase, static_cast<uint32_t>(l.out_base)},
      {kOutPixelStride, static_cast<uint32_t>(l.out_pixel_stride)},
      {kOutRowStride, static_cast<uint32_t>(l.out_row_stride)},
      {kMode, static_cast<unsigned>(l.dataflow) << kDataflowLsb | l.in_buf << kInBufBit |
                  l.out_buf << kOutBufBit | static_cast<unsigned>(l.order) << kOrderBit |
                  (static_cast<uint32_t>(l.pad_value) & 0xffU) << kPadValueLsb},
      {kOutput, (static_cast<uint32_t>(l.zero_point) & 0xffU) << kZeroPointLsb |
                    (static_cast<uint32_t>(l.act_min) & 0xffU) << kActMinLsb |
                    (static_cast<uint32_t>(l.act_max) & 0xffU) << kActMaxLsb},
      {kParamBase, l.param_base},
      {kCtrl, 1U << kCtrlEnableBit},
  };
}

AguLayer layer_of(const uint32_t* words) {
  auto word = [&](uint32_t offset) { return words[offset / 4]; };
  auto field = [&](uint32_t offset, unsigned lsb, unsigned width) {
    return (word(offset) >> lsb) & ((1U << width) - 1);
  };
  AguLayer l;
  l.height = field(kInShape, kLowLsb, 16), l.width = field(kInShape, kHighLsb, 16);
  l.channels = field(kInDepth, kLowLsb, 16), l.batch = field(kInDepth, kHighLsb, 16);
  l.filters = field(kFilter, kLowLsb, 16);
  l.kernel_h = field(kFilter, kKernelHLsb, 4), l.kernel_w = field(kFilter, kKernelWLsb, 4);
  l.stride_y = field(kWindow, kStrideYLsb, 4), l.stride_x = field(kWindow, kStrideXLsb, 4);
  l.pad_top = field(kWindow, kPadTopLsb, 4), l.pad_bottom = field(kWindow, kPadBottomLsb, 4);
  l.pad_left = field(kWindow, kPadLeftLsb, 4), l.pad_right = field(kWindow, kPadRightLsb, 4);
  l.in_base = word(kInBase), l.in_pixel_stride = word(kInPixelStride);
  l.in_row_stride = word(kInRowStride), l.in_image_stride = word(kInImageStride);
  l.wgt_base = word(kWgtBase), l.out_base = word(kOutBase);
  l.out_pixel_stride = word(kOutPixelStride), l.out_row_stride = word(kOutRowStride);
  auto int8 = [&](uint32_t offset, unsigned lsb) {
    return static_cast<int>(static_cast<int8_t>(field(offset, lsb, 8)));
  };
  l.dataflow = static_cast<Dataflow>(field(kMode, kDataflowLsb, 2));
  l.in_buf = field(kMode, kInBufBit, 1), l.out_buf = field(kMode, kOutBufBit, 1);
  l.order = static_cast<Order>(field(kMode, kOrderBit, 1));
  l.pad_value = int8(kMode, kPadValueLsb);
  l.zero_point = int8(kOutput, kZeroPointLsb);
  l.act_min = int8(kOutput, kActMinLsb), l.act_max = int8(kOutput, kActMaxLsb);
  l.param_base = field(kParamBase, 0, 16);
  return l;
}

}  // namespace agu_csr
}  // namespace npugen::golden
