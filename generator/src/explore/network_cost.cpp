#include "explore/network_cost.hpp"

#include <algorithm>

namespace npugen::explore {

int largest_batch(const golden::NpuDesign& d, const golden::net::Network& network, int images,
                  const compiler::CompileOptions& options) {
  const int most = static_cast<int>(std::min(d.seq.agu.max_batch, d.planar.max_batch));
  compiler::CompileOptions in_buffers = options;
  in_buffers.row_bands = false;
  int batch = std::min(images, most);
  for (; batch > 1; --batch) {
    try {
      (void)compiler::compile_network(d, network, batch, in_buffers);
      break;
    } catch (const compiler::CompileError&) {
    }
  }
  return std::max(1, batch);
}

NetworkCost network_cost(const golden::NpuDesign& d, const golden::net::Network& network,
                         const compiler::CompileOptions& options) {
  NetworkCost c;
  c.batch = largest_batch(d, network, 1 << 20, options);
  const golden::Program p = compiler::compile_network(d, network, c.batch, options);
  golden::reference::Tensor zero;
  zero.n = c.batch;
  zero.h = network.input.h;
  zero.w = network.input.w;
  zero.c = network.input.c;
  zero.data.assign(static_cast<size_t>(c.batch) * network.input.elements(), 0);
  c.cycles = golden::run_program(d, p, zero).cycles;
  return c;
}

}  // namespace npugen::explore
