// compile_network (compile.hpp): the passes in order, and its retries (weights by the DMA when
// the tables are full; the input unpacked when its packed rows do not fit); the target's
// refusals and hints.
#include "npugen/compiler/compile.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "passes.hpp"

namespace npugen::compiler {

Target::Target(const golden::NpuDesign& design, const golden::net::Network& network, int images,
               const CompileOptions& o)
    : d(design),
      n(network),
      batch(images),
      tasks(o.sequencing == golden::Sequencing::kTasks),
      pack(o.pack_input),
      dma(o.dma && tasks),
      bands(o.row_bands && dma),
      dma_weights(o.weights_by_dma && dma),
      zero_skip(o.zero_skip && design.seq.zs.has_value()),
      neural_group(o.neural_group % 2),
      planar_group(o.planar_group % 2),
      host_bytes((design.host_data_bits() + 7) / 8) {}

std::string Target::band_hint() const {
  if (!tasks) {
    return "; with the task unit (--sequencing tasks) it would stay in system memory and its "
           "layers run in row bands";
  }
  if (!dma) {
    return "; with the DMA (without --host-io) it would stay in system memory and its layers "
           "run in row bands";
  }
  return "";
}

namespace {

constexpr const char* kBandsAndTiles = "bands of rows and tiles of columns";

// The way out of a limit the task unit lifts (`how` it would run), when sequenced by the host.
std::string beyond_hint(bool tasks, bool beyond, const char* how = kBandsAndTiles) {
  return !tasks && beyond
             ? fmt::format("; with the task unit (--sequencing tasks) it would run in {}", how)
             : std::string();
}

}  // namespace

std::string Target::neural_refusal(golden::AguLayer r) const {
  const golden::AguParams& p = d.seq.agu;
  const bool over = r.height > p.max_height || r.width > p.max_width;
  if (tasks) r.height = std::min(r.height, p.max_height), r.width = std::min(r.width, p.max_width);
  const std::string why = golden::agu_refusal(p, r);
  return why.empty() ? why : why + beyond_hint(tasks, over);
}

std::string Target::planar_refusal(golden::PlanarTask t) const {
  const golden::PlanarParams& p = d.planar;
  const bool over = t.height > p.max_height || t.width > p.max_width;
  const bool deep = t.channels > p.max_channels && sliced_by_channels(t.op, t.axis);
  if (tasks) t.height = std::min(t.height, p.max_height), t.width = std::min(t.width, p.max_width);
  if (tasks && deep) t.channels = p.max_channels;
  const std::string why = golden::planar_refusal(p, t);
  if (why.empty()) return why;
  return why + (over ? beyond_hint(tasks, over) : beyond_hint(tasks, deep, "slices of channels"));
}

namespace {

golden::Program run(const Target& t) {
  Graph g = legalize(t);
  partition(t, g);
  allocate(t, g);
  lower(t, g);
  return encode(t, g);
}

// Whether the input is packed for its reader and kept in system memory.
bool packs_into_memory(const Target& t) {
  try {
    const Graph g = legalize(t);
    return g.packing.on && g.tensors[0].words(t.d.lanes()) > t.d.act_words();
  } catch (const CompileError&) {
    return false;
  }
}

// With the options as given, or with weights by the DMA when the tables are full.
golden::Program compile_as(const golden::NpuDesign& d, const golden::net::Network& network,
                           int batch, const CompileOptions& options) {
  try {
    return run(Target(d, network, batch, options));
  } catch (const CompileError& e) {
    // The store, the post table or the gain table does not hold every layer's at once: the
    // DMA loads each layer's just before it.
    if (!e.store_full || options.weights_by_dma) throw;
    CompileOptions by_dma = options;
    by_dma.weights_by_dma = true;
    return run(Target(d, network, batch, by_dma));
  }
}

}  // namespace

golden::Program compile_network(const golden::NpuDesign& d, const golden::net::Network& network,
                                int batch, const CompileOptions& options) {
  try {
    return compile_as(d, network, batch, options);
  } catch (const CompileError& packed) {
    // A packed input kept in system memory (above buffer A) is read in bands, and its rows,
    // KH x KW x C channels a pixel, are wider than the input's: a band's staging area may be
    // what does not fit. The input as it is, then; refused too, the refusal of the attempt
    // that got further through the network (the other's first layer may be what packing
    // makes run: a kernel above agu.max_kernel).
    if (!options.pack_input || !packs_into_memory(Target(d, network, batch, options))) throw;
    CompileOptions unpacked = options;
    unpacked.pack_input = false;
    try {
      return compile_as(d, network, batch, unpacked);
    } catch (const CompileError& as_is) {
      if (as_is.layer > packed.layer) throw;
      throw packed;
    }
  }
}

}  // namespace npugen::compiler
