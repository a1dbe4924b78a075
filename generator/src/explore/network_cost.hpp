// What a network costs on a design's NPU top, from the golden model alone (no RTL): the
// batch npugen run would pick (the most images whose tensors fit the buffers, the engines'
// batch maxima permitting) and the golden executor's cycles for it on a zero input.
#pragma once

#include "npugen/compiler/compile.hpp"
#include "npugen/golden/network/network.hpp"
#include "npugen/golden/npu/program.hpp"

namespace npugen::explore {

struct NetworkCost {
  int batch = 1;
  uint64_t cycles = 0;  ///< of the batch, from the end of reset to the last step
  [[nodiscard]] double cycles_per_image() const {
    return static_cast<double>(cycles) / static_cast<double>(batch);
  }
};

/// The most images, up to `images`, that one program runs with every tensor in the buffers
/// (the engines' batch maxima permitting); 1 when not even two fit (then in row bands).
int largest_batch(const golden::NpuDesign& d, const golden::net::Network& network, int images,
                  const compiler::CompileOptions& options = {});

/// Throws compiler::CompileError when the network does not compile for the design.
NetworkCost network_cost(const golden::NpuDesign& d, const golden::net::Network& network,
                         const compiler::CompileOptions& options = {});

}  // namespace npugen::explore
