// The NPU top (docs/npu.md; section `npu`): the sequencer (the neural engine) and
// the planar engine, which reads and writes the sequencer's activation buffers A and B
// through its host port, the task unit in front of them (descriptors in system memory,
// replayed into the engines' registers by two command processors), under one APB port,
// one host data port, a system-memory read port and an interrupt. The three blocks are
// enabled in the same configuration and generated as they are; the top adds the host-port
// arbiter, the command processors, the system-memory arbiter, the APB decoder and its own
// registers.
#pragma once

#include <string>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "npugen/golden/npu/params.hpp"

namespace npugen::blocks::npu {

const Block& block();

/// The `npu` section.
struct NpuConfig {
  bool enabled = false;
  unsigned reads_in_flight = 8;  ///< system-memory reads outstanding at most
};
const NpuConfig& config_of(const config::Config& config);

class Design : public BlockDesign {
 public:
  golden::NpuDesign design;  ///< also what the co-simulation's golden model gets

  std::string npu_module;                 ///< the top
  std::string package;                    ///< its package
  std::string seq_module, planar_module;  ///< the engines inside
  std::string tasks_module;               ///< the task unit (the front end)
  std::string cmd_module;                 ///< a command processor (one per engine)
  std::string vq_load_module;             ///< the VQ weight loader (with VQ)
  std::string dma_module;                 ///< the DMA

  [[nodiscard]] elab::SvConstants constants() const;

  [[nodiscard]] const Block& block() const override { return npu::block(); }
  [[nodiscard]] std::string top() const override { return npu_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

}  // namespace npugen::blocks::npu
