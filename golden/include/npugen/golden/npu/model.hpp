// Cycle model of the generated NPU top at its ports (docs/npu.md): the sequencer's, the
// planar engine's, the task unit's and the command processors' own golden models composed
// with the arbiters of the sequencer's host port and of the system-memory port and the
// top's registers, bit-exact and cycle-exact; the co-simulation compares it with the RTL
// every cycle.
//
// The host-port arbiter, each cycle (combinational, fixed priority):
//   1. the planar engine's write (w_valid): a full word (W = 1) into buffer A or B;
//   2. its read A request (a_req_valid);
//   3. its read B request (b_req_valid);
//   4. the external host, when its target is 0 to 3.
// The chosen request goes to the sequencer's host port; a planar address p selects buffer
// A (p < act_words, word p) or B (word p - act_words). The chooser's ready is the
// sequencer's mem_ready, every other requester's ready is 0; a host request to target 4
// (the planar gain table) is always ready and writes the planar engine's param port at that
// edge, whatever else happens. A read taken at an edge is answered the next cycle on the
// port of the requester that made it (a register remembers A, B or the host): the
// sequencer's mem_rsp_valid / mem_rdata go to a_rsp_* (the word's L bytes), b_rsp_*, or the
// top's host_rsp_* (the whole data word).
//
// The planar engine's request valids do not depend on its readies, nor the sequencer's
// response outputs on its request inputs (both registered): the model evaluates the planar
// engine with no readies to learn its requests, arbitrates, evaluates the sequencer, then the
// planar engine again with its readies and responses.
//
// The front end: the task unit (golden TaskUnitModel) fetches descriptors from system memory;
// its grants start the command processors (CommandModel, one for the sequencer with the
// descriptor registers from npu_csr::kDescSequencer, one for the planar engine from
// kDescPlanar), which read a granted task's descriptor again and write its registers into
// the engine's APB port; their done goes to the task unit as the engine's. Each cycle the
// system-memory read port offers the request of the neural command processor, else the
// planar one's, else the task unit's, when fewer than reads_in_flight reads are outstanding
// (a queue of owners, in order: the responses come back in request order); the chosen one's
// ready is the port's, the others' 0; the port's address is the chosen requester's (0 with
// none). A response goes to the owner at the head of the queue.
//
// Own registers (npu_csr): STATUS.SEQ_DONE is set at an edge where the sequencer's
// layer_done is 1, PLANAR_DONE where the planar engine's task_done is 1, TASKS_DONE where
// the task unit is idle and was not in the cycle before (a set wins over a write-1-to-clear
// in the same cycle); TASKS_ERR is the task unit's err; irq = (STATUS & IRQ_ENABLE &
// kIrqSources) != 0; CYCLES counts every cycle BUSY is 1 (writable, a write wins). APB:
// psel reaches the window paddr selects (paddr[11] = 1 the task unit with paddr[10:0],
// else paddr[10] = 0 the sequencer with paddr[9:0], else paddr[9] = 0 the planar engine
// with paddr[8:0] below 2^(its address bits), no register above, else the own registers
// with paddr[8:0]; with VQ, [kVqWindow, kVqWindow + 2^(the dequantizer's address bits)) is the VQ
// loader's dequantizer); prdata and pslverr come from that window; pready is 1, except for an
// engine's window while its command processor holds the engine's port (then pready, prdata and
// pslverr are 0 and the engine sees the processor's transfer instead), and for the dequantizer's
// window while the VQ loader is busy.
//
// With VQ (docs/npu.md, golden VqLoadModel): a host write to target 5 (a row of indices) is
// taken by the VQ loader when it is idle, one to target 6 (a codebook row) likewise; reads of
// 5 and 6 and anything to 7 are taken at once and do nothing. The loader's decoded row is
// the host-port arbiter's fourth request, after the planar engine's three and before the
// host's: a write of the weight store (target 2). BUSY includes the loader's.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/npu/command.hpp"
#include "npugen/golden/npu/dma.hpp"
#include "npugen/golden/npu/params.hpp"
#include "npugen/golden/npu/vq_load.hpp"
#include "npugen/golden/planar/model.hpp"
#include "npugen/golden/sequencer/model.hpp"
#include "npugen/golden/tasks/unit_model.hpp"

namespace npugen::golden {

struct HostRequest {
  bool valid = false;
  bool write = false;
  HostTarget target = HostTarget::kBufferA;
  uint64_t addr = 0;
  std::vector<uint8_t> data;  ///< host_data_bits, little-endian bytes (writes)
};

struct NpuInputs {
  ApbRequest apb;  ///< paddr: npu_csr::kAddrBits bits
  HostRequest host;
  bool sys_req_ready = false;  ///< system memory takes the read request at the edge
  bool sys_rsp_valid = false;  ///< the data of the oldest outstanding read
  uint32_t sys_rsp_data = 0;
};

/// A planar write into a buffer, as the observation port shows it.
struct PlanarWrite {
  bool valid = false;        ///< the planar engine's write is taken at the edge
  uint64_t addr = 0;         ///< in the planar address space (B at act_words onwards)
  std::vector<int8_t> data;  ///< L lanes
  bool operator==(const PlanarWrite&) const = default;
};

struct NpuOutputs {
  ApbResponse apb;
  bool host_ready = false;
  bool host_rsp_valid = false;
  std::vector<uint8_t> host_rdata;  ///< host_data_bits bytes (the sequencer's data, 0 above)
  bool irq = false;
  bool busy = false;              ///< an engine, a command processor or the task unit is busy
  bool seq_done = false;          ///< the sequencer's layer_done
  bool planar_done = false;       ///< the planar engine's task_done
  bool cfg_err = false;           ///< either engine's CFG_ERR
  bool step = false;              ///< observation: the array takes a step
  BufferWrite seq_write;          ///< observation: the sequencer's buffer write
  PlanarWrite planar_write;       ///< observation: the planar engine's buffer write
  bool sys_req_valid = false;     ///< a system-memory request is offered
  uint64_t sys_req_addr = 0;      ///< its word address (0 with no requester)
  bool sys_req_write = false;     ///< it writes (the DMA's stores)
  uint32_t sys_req_wdata = 0;     ///< the word it writes (0 for a read)
  bool tasks_idle = true;         ///< the task unit's idle
  bool tasks_err = false;         ///< the task unit's err (STATUS.TASKS_ERR)
  bool neural_task_done = false;  ///< the neural command processor's done (a task's end)
  bool planar_task_done = false;  ///< the planar command processor's done
};

class NpuModel {
 public:
  explicit NpuModel(const NpuDesign& design);

  [[nodiscard]] NpuOutputs outputs(const NpuInputs& in) const;
  void tick(const NpuInputs& in);

  [[nodiscard]] const NpuDesign& design() const { return d_; }
  [[nodiscard]] const SequencerModel& sequencer() const { return seq_; }
  [[nodiscard]] const PlanarModel& planar() const { return planar_; }
  [[nodiscard]] const TaskUnitModel& tasks() const { return tasks_; }
  /// Command processor k (0 neural, 1 planar).
  [[nodiscard]] const CommandModel& command(unsigned k) const { return cmd_[k]; }
  /// System-memory reads outstanding.
  [[nodiscard]] size_t reads_outstanding() const { return reads_.size(); }
  /// The DMA.
  [[nodiscard]] const DmaModel& dma() const { return dma_; }
  /// The VQ weight loader (designs with VQ).
  [[nodiscard]] const std::optional<VqLoadModel>& vq_loader() const { return vq_; }
  /// The top's own registers (npu_csr::register_map).
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }
  /// Buffer b's word (L bytes), as the sequencer's model holds it.
  [[nodiscard]] const uint8_t* buffer_word(unsigned b, uint64_t addr) const {
    return seq_.buffer_word(b, addr);
  }
  [[nodiscard]] uint64_t cycle() const { return cycle_; }

 private:
  enum class Owner : uint8_t { kNone, kPlanarA, kPlanarB, kHost, kDma };
  struct Cycle {
    SequencerInputs seq_in;
    PlanarInputs planar_in;
    SequencerOutputs seq_out;
    PlanarOutputs planar_out;
    Owner read_owner = Owner::kNone;  ///< a read taken at this edge: whose
    TaskUnitInputs tasks_in;
    CommandInputs cmd_in[2];
    std::optional<MemRequester> sys_taken;  ///< a system-memory read taken at this edge
    VqLoadInputs vq_in;
    DmaInputs dma_in;
    std::optional<unsigned> dma_taken;  ///< the command processor whose command the DMA takes
    NpuOutputs out;
  };
  [[nodiscard]] Cycle decide(const NpuInputs& in) const;

  NpuDesign d_;
  regmap::RegisterMap map_;
  SequencerModel seq_;
  PlanarModel planar_;
  TaskUnitModel tasks_;
  unsigned planar_apb_bits_;       ///< the planar engine's APB address bits
  CommandModel cmd_[2];            ///< neural, planar
  std::optional<VqLoadModel> vq_;  ///< with VQ
  DmaModel dma_;
  unsigned dma_owner_ = 0;  ///< the command processor of the DMA's command
  uint32_t base_[npu_csr::kBaseEntries] = {};
  unsigned vq_apb_bits_ = 0;        ///< the dequantizer's APB address bits
  std::deque<MemRequester> reads_;  ///< owners of the outstanding system-memory reads
  Owner owner_ = Owner::kNone;      ///< whose read the sequencer answers this cycle
  uint32_t status_ = 0, irq_enable_ = 0, cycles_ = 0;
  bool idle_before_ = true;  ///< the task unit's idle in the cycle before
  uint64_t cycle_ = 0;
};

}  // namespace npugen::golden
