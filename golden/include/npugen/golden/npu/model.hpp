// Cycle model of the generated NPU top at its ports (docs/npu.md): the sequencer's and the
// planar engine's own golden models composed with the arbiter of the sequencer's host port
// and the top's registers, bit-exact and cycle-exact; the co-simulation compares it with the
// RTL every cycle.
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
// Own registers (npu_csr): STATUS.SEQ_DONE is set at an edge where the sequencer's
// layer_done is 1, PLANAR_DONE where the planar engine's task_done is 1 (a set wins over a
// write-1-to-clear in the same cycle); irq = (STATUS[1:0] & IRQ_ENABLE[1:0]) != 0;
// CYCLES counts every cycle the sequencer or the planar engine is busy (writable, a write
// wins). APB: psel reaches the window paddr selects (paddr[10] = 0 the sequencer with
// paddr[9:0], else paddr[9] = 0 the planar engine with paddr[8:0], else the own
// registers with paddr[8:0]); prdata and pslverr come from that window; pready is 1.
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/npu/params.hpp"
#include "npugen/golden/planar/model.hpp"
#include "npugen/golden/sequencer/model.hpp"

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
  bool busy = false;         ///< the sequencer or the planar engine is busy
  bool seq_done = false;     ///< the sequencer's layer_done
  bool planar_done = false;  ///< the planar engine's task_done
  bool cfg_err = false;      ///< either engine's CFG_ERR
  bool step = false;         ///< observation: the array takes a step
  BufferWrite seq_write;     ///< observation: the sequencer's buffer write
  PlanarWrite planar_write;  ///< observation: the planar engine's buffer write
};

class NpuModel {
 public:
  explicit NpuModel(const NpuDesign& design);

  [[nodiscard]] NpuOutputs outputs(const NpuInputs& in) const;
  void tick(const NpuInputs& in);

  [[nodiscard]] const NpuDesign& design() const { return d_; }
  [[nodiscard]] const SequencerModel& sequencer() const { return seq_; }
  [[nodiscard]] const PlanarModel& planar() const { return planar_; }
  /// The top's own registers (npu_csr::register_map).
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }
  /// Buffer b's word (L bytes), as the sequencer's model holds it.
  [[nodiscard]] const uint8_t* buffer_word(unsigned b, uint64_t addr) const {
    return seq_.buffer_word(b, addr);
  }
  [[nodiscard]] uint64_t cycle() const { return cycle_; }

 private:
  enum class Owner : uint8_t { kNone, kPlanarA, kPlanarB, kHost };
  struct Cycle {
    SequencerInputs seq_in;
    PlanarInputs planar_in;
    SequencerOutputs seq_out;
    PlanarOutputs planar_out;
    Owner read_owner = Owner::kNone;  ///< a read taken at this edge: whose
    NpuOutputs out;
  };
  [[nodiscard]] Cycle decide(const NpuInputs& in) const;

  NpuDesign d_;
  regmap::RegisterMap map_;
  SequencerModel seq_;
  PlanarModel planar_;
  Owner owner_ = Owner::kNone;  ///< whose read the sequencer answers this cycle
  uint32_t status_ = 0, irq_enable_ = 0, cycles_ = 0;
  uint64_t cycle_ = 0;
};

}  // namespace npugen::golden
