// Parameters of the address generator (convolution as a matrix multiply), the
// layer it is programmed with (its register groups are the neural engine's layer
// registers), and the address sets it streams, as the golden model, the plain reference
// and the testbench see them. The generator fills AguParams from the validated
// configuration (the `agu` section and the PE array's tiles and lanes).
// agu_csr::register_map() is the one definition of the registers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/common/regmap.hpp"

namespace npugen::golden {

/// How a layer uses the PE array (seed 003, figures 11 to 13; docs/sequencer.md). The
/// address generator streams conv and fc in im2col order and fc_batch in its own order.
enum class Dataflow : unsigned {
  kConv = 0,     ///< activations broadcast, each tile's filter weights from its cache
  kFc = 1,       ///< activations broadcast, weights streamed from the store
  kFcBatch = 2,  ///< weights broadcast, tile t holding image t's features (batch mode)
  /// conv on the sequencer's zero-skipping array: the address generator streams each output
  /// pixel's window once (in im2col order, as fc), the sequencer stages it and replays the
  /// layer's preprocessed steps against it (docs/sequencer.md, "Zero skipping").
  kZeroSkip = 3,
};
inline constexpr unsigned kDataflowCount = 4;
/// The dataflows generated when agu.dataflows is absent: conv, fc and fc_batch.
inline constexpr unsigned kDefaultDataflows = 0b0111;
/// "conv", "fc", "fc_batch", "zero_skip".
const char* dataflow_name(Dataflow d);
/// Bit of a dataflow in AguParams::dataflows.
constexpr unsigned dataflow_bit(Dataflow d) { return 1U << static_cast<unsigned>(d); }

/// The order a conv layer's address sets come in (docs/agu.md). im2col: output pixels row
/// by row, each pixel's window whole. MEC (seed 004's memory-efficient convolution): output
/// pixels column by column, so that a pixel's window shares all but its last SY kernel rows
/// with the pixel above; those rows come from the sequencer's MEC window, not the buffer.
enum class Order : unsigned {
  kIm2col = 0,
  kMec = 1,
};
/// "im2col", "mec".
const char* order_name(Order o);

struct AguParams {
  // What the register fields hold (and so what the configuration schema allows).
  static constexpr unsigned kDimBits = 16;   ///< H, W, C, N, K fields
  static constexpr unsigned kSmallBits = 4;  ///< kernel, stride and padding fields
  static constexpr unsigned kMaxDim = (1U << kDimBits) - 1;
  static constexpr unsigned kMaxSmall = (1U << kSmallBits) - 1;
  static constexpr unsigned kMaxAddressBits = 32;
  static constexpr unsigned kMaxMecWindow = 65535;  ///< MEC_WINDOW.WORDS is 16 bits

  unsigned lanes = 8;               ///< L: channels in an activation word (pe_array.lanes)
  unsigned tiles = 8;               ///< T: filters computed at once (pe_array.tiles)
  unsigned max_height = 64;         ///< largest input height H
  unsigned max_width = 64;          ///< largest input width W
  unsigned max_channels = 256;      ///< largest input channel count C and filter count K
  unsigned max_batch = 4;           ///< largest batch N
  unsigned max_kernel = 7;          ///< largest kernel height and width
  unsigned max_stride = 4;          ///< largest stride
  unsigned max_pad = 3;             ///< largest padding on any side
  uint64_t act_words = 1U << 16;    ///< words of an activation buffer (a word: L channels)
  uint64_t weight_rows = 1U << 16;  ///< rows of the weight store (a row: L weights per tile)
  /// The dataflows generated (dataflow_bit of each); a layer asking for another is refused.
  unsigned dataflows = kDefaultDataflows;
  /// Words of the MEC window (the kernel rows a column of output pixels shares); 0: the MEC
  /// order is not generated.
  unsigned mec_window = 0;
  /// zero_skip: the largest pixel window (KH x KW x ceil(C/L) words) the sequencer stages
  /// (a slot of its staging memory, zs.max_rows / 3); 0 without zero_skip. A zero_skip
  /// layer has one filter block (at most T filters) and a window within it.
  unsigned zs_window = 0;

  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("lanes", lanes), f("tiles", tiles), f("max_height", max_height);
    f("max_width", max_width), f("max_channels", max_channels), f("max_batch", max_batch);
    f("max_kernel", max_kernel), f("max_stride", max_stride), f("max_pad", max_pad);
    f("act_words", act_words), f("weight_rows", weight_rows), f("dataflows", dataflows);
    f("mec_window", mec_window), f("zs_window", zs_window);
  }

  /// Bits of an activation word address (also output addresses: outputs are activations).
  [[nodiscard]] constexpr unsigned act_addr_bits() const { return field_bits(act_words); }
  /// Bits of a weight row address.
  [[nodiscard]] constexpr unsigned weight_addr_bits() const { return field_bits(weight_rows); }
  /// Bits of a lane inside an activation word (0 to L-1).
  [[nodiscard]] constexpr unsigned lane_bits() const { return field_bits(lanes); }
  /// Bits of a tile index (0 to T-1).
  [[nodiscard]] constexpr unsigned tile_bits() const { return field_bits(tiles); }
  /// Bits of a filter count in one block (1 to T).
  [[nodiscard]] constexpr unsigned filters_bits() const { return field_bits(uint64_t{tiles} + 1); }
  [[nodiscard]] constexpr bool generates(Dataflow d) const {
    return (dataflows & dataflow_bit(d)) != 0;
  }
  /// The largest C whose kh x kw window fits zs_window (as mec_max_channels for MEC).
  [[nodiscard]] constexpr unsigned zs_max_channels(unsigned kh, unsigned kw) const {
    const uint64_t fit = uint64_t{lanes} * (zs_window / (uint64_t{kh} * kw));
    return static_cast<unsigned>(fit < max_channels ? fit : max_channels);
  }
  /// Bits of a MEC window slot (0 to mec_window-1).
  [[nodiscard]] constexpr unsigned win_bits() const { return field_bits(mec_window); }
  /// The largest C whose kh x kw window (kh x kw x ceil(C/L) words) fits the MEC window:
  /// L x floor(mec_window / (kh x kw)), at most max_channels (the RTL's refusal table;
  /// agu_refusal states the rule directly, a unit test checks that the two agree).
  [[nodiscard]] constexpr unsigned mec_max_channels(unsigned kh, unsigned kw) const {
    const uint64_t fit = uint64_t{lanes} * (mec_window / (uint64_t{kh} * kw));
    return static_cast<unsigned>(fit < max_channels ? fit : max_channels);
  }
  /// Whether a MEC layer can read anything from the window: a kernel of KH >= 2 rows, one
  /// word wide, with stride 1, on an input whose padded height reaches KH + 1 (two pixels
  /// down a column), and a window of KH words.
  [[nodiscard]] constexpr bool mec_reuse_possible() const {
    for (unsigned kh = 2; kh <= max_kernel && kh <= mec_window; ++kh) {
      const unsigned pad = max_pad < kh - 1 ? max_pad : kh - 1;
      if (uint64_t{max_height} + 2 * uint64_t{pad} >= kh + 1) return true;
    }
    return false;
  }
};

/// One layer as the registers describe it. Addresses are in words (activations and
/// outputs: a word holds L channels of one pixel, NHWC with the channels padded to a
/// multiple of L) and weight rows.
struct AguLayer {
  unsigned height = 1, width = 1, channels = 1, batch = 1;  ///< input H, W, C, N
  unsigned filters = 1;                                     ///< K
  unsigned kernel_h = 1, kernel_w = 1;
  unsigned stride_y = 1, stride_x = 1;
  unsigned pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  uint64_t in_base = 0;           ///< word of pixel (n 0, row 0, column 0), channels 0..L-1
  uint64_t in_pixel_stride = 1;   ///< words from a pixel to the next in its row
  uint64_t in_row_stride = 1;     ///< words from a row to the next
  uint64_t in_image_stride = 1;   ///< words from an image to the next
  uint64_t wgt_base = 0;          ///< weight row of filter block 0's first step
  uint64_t out_base = 0;          ///< word of output (n 0, oh 0, ow 0, filters 0..L-1)
  uint64_t out_pixel_stride = 1;  ///< words from an output pixel to the next (ceil(K/L))
  uint64_t out_row_stride = 1;    ///< words from an output row to the next (OW x pixel stride);
                                  ///< image n+1 starts OH rows after image n
  // The rest of the layer's registers, passed on with every address set to the units
  // after the generator (the sequencer, the post unit).
  Dataflow dataflow = Dataflow::kConv;
  Order order = Order::kIm2col;  ///< conv: the order of the address sets
  unsigned in_buf = 0;           ///< activation buffer read (0: A, 1: B)
  unsigned out_buf = 1;          ///< activation buffer written
  int pad_value = 0;             ///< what padded positions read: the input zero point (int8)
  int zero_point = 0;            ///< the output's zero point (int8)
  int act_min = -128;            ///< the output clamp (int8)
  int act_max = 127;
  unsigned param_base = 0;  ///< the post unit's parameter-table group of filters 0..P-1

  /// Output height and width: (H + pads - kernel) / stride + 1.
  [[nodiscard]] unsigned out_height() const {
    return (height + pad_top + pad_bottom - kernel_h) / stride_y + 1;
  }
  [[nodiscard]] unsigned out_width() const {
    return (width + pad_left + pad_right - kernel_w) / stride_x + 1;
  }
  /// Activation words a pixel's channels take: ceil(C / L).
  [[nodiscard]] unsigned channel_words(unsigned lanes) const {
    return (channels + lanes - 1) / lanes;
  }
  /// Filter blocks: ceil(K / T).
  [[nodiscard]] unsigned filter_blocks(unsigned tiles) const {
    return (filters + tiles - 1) / tiles;
  }
  /// Address sets of the layer: conv and fc ceil(K/T) x N x OH x OW x KH x KW x ceil(C/L)
  /// (one dot-product step each: the mapping bound of the issue); fc_batch N x ceil(C/L)
  /// feature loads and then K x ceil(C/L) steps.
  [[nodiscard]] uint64_t address_sets(const AguParams& p) const;
  /// Dot-product steps of the layer (the sets that are not feature loads).
  [[nodiscard]] uint64_t steps(const AguParams& p) const;

  /// A layer with the tensors packed densely (NHWC, a pixel's channels in ceil(C/L)
  /// words, outputs in ceil(K/L) words per pixel) at the given bases; conv dataflow,
  /// reading buffer A and writing buffer B.
  static AguLayer dense(const AguParams& p, unsigned height, unsigned width, unsigned channels,
                        unsigned batch, unsigned filters, unsigned kernel_h, unsigned kernel_w,
                        unsigned stride_y, unsigned stride_x, unsigned pad_top, unsigned pad_bottom,
                        unsigned pad_left, unsigned pad_right, uint64_t in_base = 0,
                        uint64_t wgt_base = 0, uint64_t out_base = 0);
};

/// Why the hardware refuses the layer (the enable write is ignored and STATUS.CFG_ERR set),
/// or "" when it takes it: a value above a generated maximum, a zero dimension or stride,
/// padding not below the kernel, a kernel larger than the padded input, a dataflow not
/// generated, an fc_batch layer that is not 1 x 1 or has more images than tiles, the MEC
/// order not generated, asked of a layer that is not conv, or with a window (KH x KW x
/// ceil(C/L) words) larger than the MEC window, a zero_skip layer of more than T filters or
/// with a window larger than zs_window, reading and writing one buffer, an output clamp
/// whose minimum is above its maximum.
std::string agu_refusal(const AguParams& p, const AguLayer& layer);

/// The layer's registers an address set carries for the units after the generator.
struct SetLayer {
  Dataflow dataflow = Dataflow::kConv;
  Order order = Order::kIm2col;
  unsigned in_buf = 0, out_buf = 0;
  int pad_value = 0;
  int zero_point = 0, act_min = 0, act_max = 0;
  unsigned param_base = 0;
  uint64_t out_stride = 0;  ///< OUT_PIXEL_STRIDE: fc_batch writes image t at out + t x it

  bool operator==(const SetLayer&) const = default;
  static SetLayer of(const AguLayer& l);
};

/// One address set: what the step of one cycle reads and where its result goes.
///
/// conv and fc (im2col order): a dot-product step reading activation word act_addr (or the
/// pad value) and weight row wrow; the pixel's results, filters kb*T onwards, go to output
/// word out_addr from lane out_lane on. fc_batch: first N x ceil(C/L) feature loads (`load`:
/// activation word act_addr goes to tile `tile`'s cache, row = the word's index in the
/// image), then for each neuron z = kb*T + tile the steps broadcasting tile `tile`'s slice
/// of weight row wrow; neuron z's result of image t goes to word out_addr + t x
/// out_stride, lane out_lane.
///
/// MEC order: the same sets as im2col, output pixels column by column. A set of a pixel
/// below the column's first whose kernel row kh is below KH - SY is `reuse`: its word was
/// read for the pixel above (kernel row kh + SY) and sits in MEC window slot `win`; any
/// other set that reads the buffer also writes the word to slot `win`. Slots run on by one a
/// set through a pixel's window and wrap at the window's size; the pixel below starts at
/// the slot of this pixel's kernel row SY (or, when SY >= KH, after this pixel's last).
/// im2col order: reuse false, win 0.
struct AddressSet {
  uint64_t act_addr = 0;     ///< activation word (meaningless when pad)
  bool pad = false;          ///< a padded position: the lanes read the pad value
  bool reuse = false;        ///< MEC: the word is in the MEC window at slot win
  unsigned win = 0;          ///< MEC: its window slot (written there when not reuse)
  uint64_t wrow = 0;         ///< weight row
  bool first = false;        ///< the first step of a dot product (or of an image's loads)
  bool last = false;         ///< its last step
  uint64_t out_addr = 0;     ///< output word of the pixel's first result
  unsigned out_lane = 0;     ///< its lane in that word
  unsigned filters = 0;      ///< results of the dot product: the block's filters (T, or
                             ///< fewer in the last block), or the images (fc_batch)
  unsigned tile = 0;         ///< fc_batch: the image loaded, or the neuron in its block
  bool load = false;         ///< fc_batch: a feature load, not a step
  bool layer_first = false;  ///< the layer's first set
  bool block_first = false;  ///< the first step of a filter block
  bool block_last = false;   ///< a step of the layer's last filter block
  bool layer_end = false;    ///< the layer's last set
  unsigned group = 0;        ///< the register group the layer came from
  SetLayer layer;            ///< the layer's registers for the units downstream

  bool operator==(const AddressSet&) const = default;
};

/// The address generator's registers: byte offsets and field positions. register_map()
/// describes them whole.
namespace agu_csr {
inline constexpr uint32_t kStatus = 0x00;
inline constexpr uint32_t kInfo = 0x04;
inline constexpr uint32_t kLimits = 0x08;
inline constexpr uint32_t kLayersDone = 0x0c;
inline constexpr uint32_t kMecWindow = 0x10;
inline constexpr uint32_t kGroupOffset = 0x40;
inline constexpr uint32_t kGroupStride = 0x40;
inline constexpr unsigned kGroups = 2;
// Registers of a group, offsets inside it.
inline constexpr uint32_t kCtrl = 0x00;
inline constexpr uint32_t kInShape = 0x04;
inline constexpr uint32_t kInDepth = 0x08;
inline constexpr uint32_t kFilter = 0x0c;
inline constexpr uint32_t kWindow = 0x10;
inline constexpr uint32_t kInBase = 0x14;
inline constexpr uint32_t kInPixelStride = 0x18;
inline constexpr uint32_t kInRowStride = 0x1c;
inline constexpr uint32_t kInImageStride = 0x20;
inline constexpr uint32_t kWgtBase = 0x24;
inline constexpr uint32_t kOutBase = 0x28;
inline constexpr uint32_t kOutPixelStride = 0x2c;
inline constexpr uint32_t kMode = 0x30;
inline constexpr uint32_t kOutput = 0x34;
inline constexpr uint32_t kParamBase = 0x38;
inline constexpr uint32_t kOutRowStride = 0x3c;
inline constexpr unsigned kGroupWords = 16;  ///< registers of a group
// Field positions (lowest bit).
inline constexpr unsigned kStatusCfgErrBit = 0, kStatusBusyBit = 1, kStatusConsumerBit = 2;
inline constexpr unsigned kCtrlEnableBit = 0;
inline constexpr unsigned kLowLsb = 0, kHighLsb = 16;          ///< IN_SHAPE, IN_DEPTH, FILTER, INFO
inline constexpr unsigned kKernelHLsb = 16, kKernelWLsb = 20;  ///< FILTER
inline constexpr unsigned kStrideYLsb = 0, kStrideXLsb = 4, kPadTopLsb = 8, kPadBottomLsb = 12,
                          kPadLeftLsb = 16, kPadRightLsb = 20;  ///< WINDOW
inline constexpr unsigned kMaxKernelLsb = 0, kMaxStrideLsb = 4, kMaxPadLsb = 8, kDataflowsLsb = 12,
                          kMaxBatchLsb = 16;  ///< LIMITS
inline constexpr unsigned kDataflowLsb = 0, kInBufBit = 4, kOutBufBit = 5, kOrderBit = 6,
                          kPadValueLsb = 8;                                    ///< MODE
inline constexpr unsigned kZeroPointLsb = 0, kActMinLsb = 8, kActMaxLsb = 16;  ///< OUTPUT
/// OUTPUT after reset: zero point 0, the whole int8 range.
inline constexpr uint32_t kOutputReset = 0x80U << kActMinLsb | 0x7fU << kActMaxLsb;

/// The register map of an address generator with parameters p.
regmap::RegisterMap register_map(const AguParams& p);

/// The register writes (group-relative byte offset, value) that program `layer`, CTRL last
/// (its ENABLE bit hands the group to the hardware).
struct Write {
  uint32_t offset;
  uint32_t value;
};
std::vector<Write> layer_writes(const AguLayer& layer);
/// The layer a group's register values describe: words[i] is the register at byte offset
/// 4 i of the group.
AguLayer layer_of(const uint32_t* words);
}  // namespace agu_csr

}  // namespace npugen::golden
