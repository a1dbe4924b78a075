#include "npugen/golden/sequencer/conv_run.hpp"

#include <stdexcept>

#include "npugen/golden/agu/model.hpp"
#include "npugen/golden/sequencer/lowering.hpp"

namespace npugen::golden {
namespace {

void write(AguModel& m, uint32_t addr, uint32_t value) {
  AguInputs in;
  in.apb = ApbRequest{true, true, true, addr, value};
  m.tick(in);
}

int32_t wrap_add(int32_t a, int64_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

}  // namespace

reference::Tensor conv_run(const AguParams& p, const reference::Tensor& in,
                           const reference::ConvLayer& l, ConvRunStats* stats) {
  const unsigned lanes = p.lanes, tiles = p.tiles;
  // The buffer words, weight rows and folded biases as software lays them out for the
  // sequencer (lowering.hpp). The lowering takes one output range for the layer; this path
  // requantizes each channel with its own, so it lowers a copy whose ranges agree.
  SequencerDesign d;
  d.agu = p;
  d.array.tiles = tiles, d.array.lanes = lanes;
  d.post.lanes = 1, d.post.max_channels = static_cast<unsigned>(l.filters);
  reference::ConvLayer same_range = l;
  for (Requant& r : same_range.output) r = l.output.front();
  const LoweredLayer low = lower_layer(d, Dataflow::kConv, in, same_range, LayerPlacement{});
  const AguLayer& layer = low.regs;
  if (!agu_refusal(p, layer).empty()) throw std::invalid_argument(agu_refusal(p, layer));
  const auto act = tensor_words(in, lanes);
  std::vector<int64_t> bias(static_cast<size_t>(l.filters));
  for (size_t k = 0; k < bias.size(); ++k) bias[k] = low.params[k][0].bias;

  reference::Tensor out;
  out.n = in.n;
  out.h = static_cast<int>(layer.out_height());
  out.w = static_cast<int>(layer.out_width());
  out.c = l.filters;
  out.data.assign(static_cast<size_t>(out.n) * out.h * out.w * out.c, 0);

  AguModel agu(p);
  for (const auto& w : agu_csr::layer_writes(layer))
    write(agu, agu_csr::kGroupOffset + w.offset, w.value);
  AguInputs ready;
  ready.set_ready = true;
  std::vector<int32_t> acc(tiles, 0);
  ConvRunStats s;
  for (bool done = false; !done;) {
    const AguOutputs o = agu.outputs(ready);
    agu.tick(ready);
    if (!o.set_valid) continue;
    const AddressSet& a = o.set;
    ++s.steps;
    ++s.weight_reads;
    s.act_reads += a.pad ? 0 : 1;
    for (unsigned t = 0; t < tiles; ++t) {
      int64_t step = 0;
      for (unsigned ln = 0; ln < lanes; ++ln) {
        const int64_t x = a.pad ? int64_t{l.input_zero_point}
                                : static_cast<int8_t>(act[static_cast<size_t>(a.act_addr)][ln]);
        step +=
            x * static_cast<int8_t>(low.weight_rows[static_cast<size_t>(a.wrow)][t * lanes + ln]);
      }
      acc[t] = a.first ? static_cast<int32_t>(static_cast<uint32_t>(step)) : wrap_add(acc[t], step);
    }
    if (a.last) {
      // The output buffer holds a pixel's K channels in ceil(K/L) words: filter k of the
      // pixel at word out_addr is element out_addr * L + out_lane + t of the buffer.
      const size_t pixel_elements = static_cast<size_t>(layer.out_pixel_stride) * lanes;
      for (unsigned t = 0; t < a.filters; ++t) {
        const size_t e = static_cast<size_t>(a.out_addr) * lanes + a.out_lane + t;
        const size_t pixel = e / pixel_elements, k = e % pixel_elements;
        out.data[pixel * static_cast<size_t>(out.c) + k] =
            static_cast<int8_t>(requantize(wrap_add(acc[t], bias[k]), l.output[k]));
      }
    }
    done = a.layer_end;
  }
  s.macs =
      static_cast<uint64_t>(l.filters) * out.n * out.h * out.w * l.kernel_h * l.kernel_w * in.c;
  if (stats != nullptr) *stats = s;
  return out;
}

}  // namespace npugen::golden
