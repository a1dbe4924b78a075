// Cycle-exact model of the NPU top's VQ weight loader (`<prefix>_npu_vq_load`,
// docs/npu.md): the dequantizer (golden VqDequantModel) on the way from the host port into
// the weight store. A host transfer to HostTarget::kVqRow carries one weight-store row as
// indices (T x L / m of them, index j at bits [j x log2 N +: log2 N] of the data; with the
// dequantizer's CTRL.VQ_EN low, the row's T x L raw int8 weights, weight j at [8j +: 8]);
// the loader feeds them to the dequantizer P indices a beat, shifts each beat's P x m
// weights into a row register (the first beat ends up at weight 0) and, after T x L / (P x
// m) beats, writes the row into the store through the host-port arbiter. A transfer to
// kVqCodebook writes a codebook row (M weights, weight j at [8j +: 8]) into every copy.
//
// Timing. A row transfer is taken at an edge where the loader is idle (in_ready); from the
// next cycle a beat is offered each cycle until all are taken (the dequantizer takes one a
// cycle: its output is always taken here); a beat's weights are shifted in at the edge
// after it was taken; after the last one the store write is requested (st_valid) until
// st_ready, and the loader is idle from the edge that writes it: B + 3 cycles a row with
// B = T x L / (P x m) beats. The beat count follows the dequantizer's CTRL as it is from
// the cycle after the transfer was taken (CTRL cannot change while the loader is busy: the
// top stalls APB accesses to the dequantizer then). A codebook write is taken while the
// loader is idle (cb_ready).
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/vq/dequant_model.hpp"

namespace npugen::golden {

struct VqLoadInputs {
  bool in_valid = false;  ///< a row transfer is offered (host target kVqRow, write)
  uint64_t row = 0;       ///< its weight-store row
  const std::vector<uint8_t>* data = nullptr;  ///< its data (the host port's bytes)
  bool cb_we = false;  ///< a codebook write is taken (the top checks cb_ready)
  unsigned cb_row = 0;
  const std::vector<uint8_t>* cb_data = nullptr;  ///< the row (M bytes)
  ApbRequest apb;         ///< the dequantizer's register port (psel 0 while busy)
  bool st_ready = false;  ///< the store write is taken at the edge
};

struct VqLoadOutputs {
  bool in_ready = false;  ///< a row transfer would be taken (idle)
  bool busy = false;      ///< a row is being decoded or written
  bool st_valid = false;  ///< the decoded row is offered to the store
  uint64_t st_row = 0;
  std::vector<uint8_t> st_data;  ///< T x L bytes
  ApbResponse apb;
  bool err = false;  ///< the dequantizer's STATUS.INDEX_ERR
};

class VqLoadModel {
 public:
  /// `row_weights`: T x L, a multiple of P x M.
  VqLoadModel(const VqParams& params, unsigned row_weights);

  [[nodiscard]] VqLoadOutputs outputs(const VqLoadInputs& in) const;
  void tick(const VqLoadInputs& in);

  [[nodiscard]] const VqDequantModel& dequant() const { return dq_; }
  /// Beats a row takes with the dequantizer's CTRL as it is.
  [[nodiscard]] unsigned beats() const;

 private:
  [[nodiscard]] VqInputs dequant_inputs(const VqLoadInputs& in) const;

  VqParams p_;
  unsigned row_weights_;
  VqDequantModel dq_;
  bool busy_ = false, written_ = false;  ///< holding a transfer; its row is complete
  uint64_t row_ = 0;
  std::vector<uint8_t> data_;         ///< the transfer's data
  unsigned taken_ = 0, shifted_ = 0;  ///< beats taken by the dequantizer, shifted in
  std::vector<uint8_t> acc_;          ///< the row register, T x L weights
};

}  // namespace npugen::golden
