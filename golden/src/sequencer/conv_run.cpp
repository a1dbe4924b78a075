#include "npugen/golden/sequencer/conv_run.hpp"

#include <stdexcept>

#include "npugen/golden/agu/model.hpp"

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
  const unsigned words = (static_cast<unsigned>(in.c) + lanes - 1) / lanes;  // per pixel
  const AguLayer layer = AguLayer::dense(
      p, static_cast<unsigned>(in.h), static_cast<unsigned>(in.w), static_cast<unsigned>(in.c),
      static_cast<unsigned>(in.n), static_cast<unsigned>(l.filters),
      static_cast<unsigned>(l.kernel_h), static_cast<unsigned>(l.kernel_w),
      static_cast<unsigned>(l.stride_y), static_cast<unsigned>(l.stride_x),
      static_cast<unsigned>(l.pad_top), static_cast<unsigned>(l.pad_bottom),
      static_cast<unsigned>(l.pad_left), static_cast<unsigned>(l.pad_right));
  if (!agu_refusal(p, layer).empty()) throw std::invalid_argument(agu_refusal(p, layer));

  // The activation buffer: word (pixel * words + cb), lane l = channel cb * L + l (0 beyond C).
  std::vector<int8_t> act(static_cast<size_t>(in.n) * in.h * in.w * words * lanes, 0);
  for (int px = 0; px < in.n * in.h * in.w; ++px) {
    for (int c = 0; c < in.c; ++c) {
      act[static_cast<size_t>(px) * words * lanes + static_cast<size_t>(c)] =
          in.data[static_cast<size_t>(px) * in.c + static_cast<size_t>(c)];
    }
  }
  // The weight store: row (kb * KH * KW * words + (kh * KW + kw) * words + cb), tile t,
  // lane l = filter kb * T + t, channel cb * L + l (0 beyond K or C). And the folded bias.
  const unsigned blocks = layer.filter_blocks(tiles);
  const size_t rows = static_cast<size_t>(blocks) * l.kernel_h * l.kernel_w * words;
  std::vector<int8_t> wgt(rows * tiles * lanes, 0);
  std::vector<int64_t> bias(static_cast<size_t>(l.filters));
  for (int k = 0; k < l.filters; ++k) {
    int64_t sum = 0;
    for (int kh = 0; kh < l.kernel_h; ++kh) {
      for (int kw = 0; kw < l.kernel_w; ++kw) {
        for (int c = 0; c < in.c; ++c) {
          const int8_t w =
              l.weights[static_cast<size_t>(((k * l.kernel_h + kh) * l.kernel_w + kw) * in.c + c)];
          const size_t row = (static_cast<size_t>(k) / tiles) * l.kernel_h * l.kernel_w * words +
                             static_cast<size_t>(kh * l.kernel_w + kw) * words +
                             static_cast<size_t>(c) / lanes;
          wgt[(row * tiles + static_cast<size_t>(k) % tiles) * lanes +
              static_cast<size_t>(c) % lanes] = w;
          sum += w;
        }
      }
    }
    bias[static_cast<size_t>(k)] =
        l.bias[static_cast<size_t>(k)] - int64_t{l.input_zero_point} * sum;
  }

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
        const int64_t x =
            a.pad ? int64_t{l.input_zero_point} : act[static_cast<size_t>(a.act_addr) * lanes + ln];
        step += x * wgt[(static_cast<size_t>(a.wrow) * tiles + t) * lanes + ln];
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
