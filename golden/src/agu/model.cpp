#include "npugen/golden/agu/model.hpp"

#include <algorithm>

namespace npugen::golden {
namespace {

uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

}  // namespace

AguModel::AguModel(const AguParams& params) : p_(params), map_(agu_csr::register_map(params)) {
  // Every group register at its reset value (OUTPUT's clamp is the whole int8 range).
  const regmap::Group& g = map_.groups.front();
  for (auto& words : words_) {
    for (const regmap::Register& r : g.registers) words[r.offset / 4] = r.reset_value();
  }
}

AguModel::Position AguModel::start(const AguLayer& l) {
  Position at;
  at.load = l.dataflow == Dataflow::kFcBatch;
  return at;
}

AddressSet AguModel::set_at(const AguLayer& l, const Position& at) const {
  // Signed input coordinates of the set; addresses wrap at their widths exactly as the
  // hardware's running sums do, so a padded set's address is the same number too.
  const int64_t ih = int64_t{at.oh} * l.stride_y + at.kh - l.pad_top;
  const int64_t iw = int64_t{at.ow} * l.stride_x + at.kw - l.pad_left;
  const int64_t cw = l.channel_words(p_.lanes);
  const bool batch = l.dataflow == Dataflow::kFcBatch;
  AddressSet s;
  s.pad = ih < 0 || ih >= l.height || iw < 0 || iw >= l.width;
  s.act_addr = static_cast<uint64_t>(static_cast<int64_t>(l.in_base) +
                                     at.n * static_cast<int64_t>(l.in_image_stride) +
                                     ih * static_cast<int64_t>(l.in_row_stride) +
                                     iw * static_cast<int64_t>(l.in_pixel_stride) + at.cb) &
               mask(p_.act_addr_bits());
  s.wrow = (l.wgt_base + uint64_t{at.kb} * l.kernel_h * l.kernel_w * cw +
            (uint64_t{at.kh} * l.kernel_w + at.kw) * cw + at.cb) &
           mask(p_.weight_addr_bits());
  s.first = at.kh == 0 && at.kw == 0 && at.cb == 0;
  s.last = at.kh + 1 == l.kernel_h && at.kw + 1 == l.kernel_w && at.cb + 1 == cw;
  // The output: conv and fc, pixel (n, oh, ow)'s word plus filter kb*T's place in it;
  // fc_batch, neuron kb*T + n's place in image 0's outputs (the feature loads: image n's
  // pixel word, lane 0).
  const uint64_t pixel_word = batch ? (at.load ? at.n : 0) * l.out_pixel_stride
                                    : (uint64_t{at.n} * l.out_height() + at.oh) * l.out_row_stride +
                                          uint64_t{at.ow} * l.out_pixel_stride;
  const uint64_t element = at.load ? 0 : uint64_t{at.kb} * p_.tiles + (batch ? at.n : 0);
  s.out_addr = (l.out_base + pixel_word + element / p_.lanes) & mask(p_.act_addr_bits());
  if (l.order == Order::kMec) {
    // A pixel's window takes KH x KW x ceil(C/L) slots in a row (mod the window); the pixel
    // below starts min(SY, KH) kernel rows on, on the slots of the rows it shares.
    const uint64_t row_words = uint64_t{l.kernel_w} * cw;
    const uint64_t pixel_step = std::min(l.stride_y, l.kernel_h) * row_words;
    s.win = static_cast<unsigned>((at.oh * pixel_step + at.kh * row_words + at.kw * cw + at.cb) %
                                  p_.mec_window);
    s.reuse = at.oh > 0 && at.kh + l.stride_y < l.kernel_h;
  }
  s.out_lane = static_cast<unsigned>(element % p_.lanes);
  s.filters = batch ? l.batch : std::min(p_.tiles, l.filters - at.kb * p_.tiles);
  s.tile = batch ? at.n : 0;
  s.load = at.load;
  const Position first = start(l);
  s.layer_first = at.kb == first.kb && at.n == 0 && at.oh == 0 && at.ow == 0 && at.kh == 0 &&
                  at.kw == 0 && at.cb == 0 && at.load == first.load;
  s.block_first =
      !at.load && at.n == 0 && at.oh == 0 && at.ow == 0 && at.kh == 0 && at.kw == 0 && at.cb == 0;
  s.block_last = !at.load && at.kb + 1 == l.filter_blocks(p_.tiles);
  Position next = at;
  s.layer_end = !advance(l, next);
  s.group = consumer_;
  s.layer = SetLayer::of(l);
  return s;
}

bool AguModel::advance(const AguLayer& l, Position& at) const {
  // Innermost first: channel word, kernel column, kernel row, output column, output row,
  // image (fc_batch: the image loaded, then the neuron of the block), filter block.
  if (++at.cb < l.channel_words(p_.lanes)) return true;
  at.cb = 0;
  if (++at.kw < l.kernel_w) return true;
  at.kw = 0;
  if (++at.kh < l.kernel_h) return true;
  at.kh = 0;
  if (l.order == Order::kMec) {  // down the column, then the next column
    if (++at.oh < l.out_height()) return true;
    at.oh = 0;
    if (++at.ow < l.out_width()) return true;
    at.ow = 0;
  } else {
    if (++at.ow < l.out_width()) return true;
    at.ow = 0;
    if (++at.oh < l.out_height()) return true;
    at.oh = 0;
  }
  const bool batch = l.dataflow == Dataflow::kFcBatch;
  const unsigned images =
      batch && !at.load ? std::min(p_.tiles, l.filters - at.kb * p_.tiles) : l.batch;
  if (++at.n < images) return true;
  at.n = 0;
  if (at.load) {
    at.load = false;  // the features are in the caches: the neurons stream
    return true;
  }
  return ++at.kb < l.filter_blocks(p_.tiles);
}

uint32_t AguModel::read(const regmap::RegisterAt& r) const {
  using namespace agu_csr;
  if (r.group != nullptr) {
    const uint32_t offset = r.reg->offset;
    if (offset == kCtrl) return enable_[r.instance] ? 1U << kCtrlEnableBit : 0;
    return words_[r.instance][offset / 4];
  }
  switch (r.offset) {
    case kStatus:
      return (cfg_err_ ? 1U << kStatusCfgErrBit : 0) | (active_ ? 1U << kStatusBusyBit : 0) |
             (consumer_ << kStatusConsumerBit);
    case kLayersDone:
      return layers_done_ & 0xffffU;
    default:
      return r.reg->reset_value();  // INFO, LIMITS: constants
  }
}

AguOutputs AguModel::outputs(const AguInputs& in) const {
  AguOutputs o;
  o.set_valid = active_;
  if (active_) o.set = set_at(layer_[consumer_], at_);
  o.apb = apb_response(map_, in.apb, [&](const regmap::RegisterAt& r) { return read(r); });
  o.cfg_err = cfg_err_;
  return o;
}

void AguModel::tick(const AguInputs& in) {
  using namespace agu_csr;
  // Everything below reads the state before the edge.
  const auto enable_before = enable_;
  const bool taken = active_ && in.set_ready;
  const bool layer_end = taken && set_at(layer_[consumer_], at_).layer_end;

  // The register port.
  bool cfg_err_set = false;
  bool clear_cfg_err = false;
  std::array<bool, kGroups> enable_now = {};
  if (const auto target = apb_target(map_, in.apb); target && in.apb.pwrite) {
    if (target->group != nullptr) {
      const unsigned g = target->instance;
      const uint32_t offset = target->reg->offset;
      if (enable_before[g]) {
        cfg_err_set = true;  // the group is the hardware's until its layer ends
      } else if (offset == kCtrl) {
        if ((in.apb.pwdata >> kCtrlEnableBit) & 1U) {
          const AguLayer l = layer_of(words_[g].data());
          if (agu_refusal(p_, l).empty()) {
            enable_now[g] = true;
            layer_[g] = l;
          } else {
            cfg_err_set = true;
          }
        }
      } else {
        words_[g][offset / 4] = target->reg->after_write(words_[g][offset / 4], in.apb.pwdata);
      }
    } else if (target->offset == kStatus) {
      clear_cfg_err = (in.apb.pwdata >> kStatusCfgErrBit) & 1U;
    }
  }

  // The stream.
  if (taken) {
    if (layer_end) {
      enable_[consumer_] = false;
      ++layers_done_;
      consumer_ ^= 1U;
      active_ = enable_before[consumer_];
      at_ = start(layer_[consumer_]);
    } else {
      (void)advance(layer_[consumer_], at_);
    }
  } else if (!active_ && enable_before[consumer_]) {
    active_ = true;
    at_ = start(layer_[consumer_]);
  }
  for (unsigned g = 0; g < kGroups; ++g) enable_[g] = enable_[g] || enable_now[g];
  cfg_err_ = (cfg_err_ && !clear_cfg_err) || cfg_err_set;
  layers_done_ &= 0xffffU;
}

}  // namespace npugen::golden
