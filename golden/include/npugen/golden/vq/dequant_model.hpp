// Cycle model of the generated dequantizer at its ports: configuration
// registers on an APB port (npugen/golden/common/apb.hpp), a codebook write port that fills every
// copy, an index stream in and a weight stream out, both valid/ready. Bit-exact and cycle-exact:
// the co-simulation compares it with the RTL every cycle.
//
// Timing. A lookup beat (P indices) is accepted when in_valid_i and in_ready_o; its
// weights are on out_weights_o from the next cycle until out_ready_i takes them.
// in_ready_o = !cb_we_i && (!out_valid_o || out_ready_i): a full pipe of one beat that
// accepts a new beat in the cycle the old one leaves, so a continuous stream runs at one
// beat per cycle. Codebook writes and lookups never share a cycle.
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/vq/params.hpp"

namespace npugen::golden {

struct VqInputs {
  bool in_valid = false;
  std::vector<uint32_t> index;  ///< P indices (low log2 N bits used)
  std::vector<uint32_t> raw;    ///< P x M raw weights (used when VQ is off)
  bool out_ready = false;
  bool cb_we = false;
  unsigned cb_row = 0;
  std::vector<uint32_t> cb_data;  ///< M weights of the row
  ApbRequest apb;                 ///< the register port
};

struct VqOutputs {
  bool in_ready = false;
  bool out_valid = false;
  std::vector<uint32_t> out_weights;  ///< P x M; a VQ beat holds P x m weights, packed from 0
  unsigned out_vlen_log2 = 0;         ///< log2 m of the beat (log2 M for a raw beat)
  bool out_vq = false;                ///< the beat was looked up (not raw)
  bool out_err = false;               ///< one of its lookups fell outside the table
  bool err = false;                   ///< STATUS.INDEX_ERR
  ApbResponse apb;                    ///< the register port
};

class VqDequantModel {
 public:
  explicit VqDequantModel(const VqParams& params);

  /// Outputs during a cycle with these inputs (in_ready and csr_rdata depend on them).
  [[nodiscard]] VqOutputs outputs(const VqInputs& in) const;
  /// The clock edge at the end of that cycle.
  void tick(const VqInputs& in);

  [[nodiscard]] const VqParams& params() const { return p_; }
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }
  /// CTRL now (the RTL's vq_en_o and vlen_log2_o): the settings a beat accepted at the
  /// next edge gets.
  [[nodiscard]] bool vq_enabled() const { return ((ctrl_ >> vq_csr::kCtrlVqEnBit) & 1U) != 0; }
  [[nodiscard]] unsigned vlen_log2() const {
    return (ctrl_ >> vq_csr::kCtrlVlenLsb) & ((1U << vq_csr::kCtrlVlenBits) - 1);
  }

 private:
  [[nodiscard]] bool in_ready(const VqInputs& in) const;
  [[nodiscard]] uint32_t read(uint32_t offset) const;

  VqParams p_;
  regmap::RegisterMap map_;
  uint32_t ctrl_;
  uint32_t base_ = 0;
  uint32_t status_ = 0;
  std::vector<uint32_t> table_;  ///< N x M; every copy holds the same

  bool beat_valid_ = false;
  std::vector<uint32_t> beat_weights_;
  unsigned beat_vlen_ = 0;
  bool beat_vq_ = false;
  bool beat_err_ = false;
};

}  // namespace npugen::golden
