// The network compiler's entry point (docs/compiler.md): a quantized network compiled for an
// NPU top into a golden::Program (where every tensor, weight row and parameter group goes,
// the layers' engine tasks, the host's steps), which the golden executor and the
// co-simulation run.
//
// The passes (compiler/src/passes.hpp), over one IR (compiler/src/ir.hpp):
//   legalize   every layer checked against its operation's rule (op_table.hpp) and the
//              design's limits; the kernel as the engine runs it (fc over its whole input,
//              the packed first layer 1 x 1); a planar layer's task
//   partition  a neural layer's tiles of output channels, each lowered to weight rows and
//              post parameters (dense or zero-skipping), placed in the weight store and the
//              post table; the gain table
//   allocate   tensors in the activation buffers (live ranges) or system memory, row bands
//              and their staging areas, the DMA's data area
//   lower      every layer's engine register writes as tasks (or APB writes), the host's
//              writes of weights, parameters and gains, the DMA's loads
//   encode     descriptors and the data area into the system-memory image, the host's
//              queueing and waits
#pragma once

#include <stdexcept>
#include <string>

#include "npugen/golden/network/network.hpp"
#include "npugen/golden/npu/program.hpp"

namespace npugen::compiler {

/// A network the design cannot run: the message names the layer (or the input) and the limit
/// ("layer conv3: 4096 weight rows do not fit the weight store (2048 rows, 1024 in use;
/// agu.weight_rows)").
struct CompileError : std::runtime_error {
  CompileError(const std::string& message, int layer_index, bool store_full = false)
      : std::runtime_error(message), layer(layer_index), store_full(store_full) {}
  int layer;        ///< -1: the input
  bool store_full;  ///< the weight store, the post table or the gain table is full
};

/// How compile_network lowers a network.
struct CompileOptions {
  golden::Sequencing sequencing = golden::Sequencing::kTasks;
  /// Write the input im2col'd for its reader when that is a convolution that then reads
  /// fewer rows a pixel and the packed input fits buffer A (InputPacking).
  bool pack_input = true;
  /// (kTasks) The input and the network's output go through system memory and the DMA
  /// (Program::input_at, output_at); otherwise the host writes the input and the output
  /// stays in its buffer.
  bool dma = true;
  /// With the zero-skipping array: run a conv or fc layer (its window within zs.max_rows,
  /// its weights not VQ-loaded) on it when its preprocessed steps take fewer cycles a pixel
  /// than the dense array's rows (zs_pixel_cycles); otherwise every layer runs dense.
  bool zero_skip = true;
  /// (kTasks with the DMA) A tensor that does not fit a buffer lives in system memory, and
  /// the layers that write or read it run in row bands, each band's input loaded and its
  /// output stored by the DMA (docs/npu.md "Row bands"); otherwise such a network is refused.
  bool row_bands = true;
  /// (kTasks with the DMA) Each layer's weight rows, post parameters and planar gains are
  /// loaded by the DMA just before it runs, from row 0 (a load task on its engine before its
  /// task; a layer above the weight store in tiles of output channels, each tile's loaded in
  /// turn), rather than written by the host before the list starts. compile_network chooses
  /// it when the host's way is refused because the tables do not hold every layer's at once.
  bool weights_by_dma = false;
  /// The register group (0 or 1) each engine takes next: 0 from reset; a program that
  /// follows another on the same top starts where that one left the engines (their layers
  /// take the two groups in turn).
  unsigned neural_group = 0, planar_group = 0;
};

/// Compiles `network` (with its arithmetic) for `batch` images. Throws CompileError.
golden::Program compile_network(const golden::NpuDesign& d, const golden::net::Network& network,
                                int batch, const CompileOptions& options = {});

}  // namespace npugen::compiler
