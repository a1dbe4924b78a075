// Cycle model of the generated address generator at its ports: the layer registers in two
// groups on an APB port (npugen/golden/common/apb.hpp) and the address-set stream out
// (valid/ready). Bit-exact and cycle-exact: the co-simulation compares it with the RTL
// every cycle.
//
// Timing. A group's CTRL.ENABLE write is checked (agu_refusal) against the group's
// registers before the write's clock edge; taken, the group is enabled from that edge. A
// layer streams from the group STATUS.CONSUMER names: when no layer streams and that group
// is enabled, the first set is offered from the next cycle; a set is offered every cycle
// until set_ready_i takes it; when the layer's last set is taken, the group's ENABLE
// clears, CONSUMER moves to the other group and, if that group was enabled before the
// edge, its first set is offered in the very next cycle (no cycle lost).
#pragma once

#include <array>
#include <cstdint>

#include "npugen/golden/agu/params.hpp"
#include "npugen/golden/common/apb.hpp"

namespace npugen::golden {

struct AguInputs {
  bool set_ready = false;
  ApbRequest apb;
};

struct AguOutputs {
  bool set_valid = false;
  AddressSet set;  ///< meaningful while set_valid
  ApbResponse apb;
  bool cfg_err = false;  ///< STATUS.CFG_ERR
};

class AguModel {
 public:
  explicit AguModel(const AguParams& params);

  [[nodiscard]] AguOutputs outputs(const AguInputs& in) const;
  void tick(const AguInputs& in);

  [[nodiscard]] const AguParams& params() const { return p_; }
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }
  /// Whether group g holds a layer not yet finished (its CTRL.ENABLE).
  [[nodiscard]] bool enabled(unsigned g) const { return enable_[g]; }
  /// A layer streams.
  [[nodiscard]] bool busy() const { return active_; }
  [[nodiscard]] unsigned consumer() const { return consumer_; }
  [[nodiscard]] uint32_t layers_done() const { return layers_done_; }

 private:
  /// The loop counters of the running layer (im2col order, MEC with oh and ow swapped;
  /// fc_batch: `load` while the features load, n the image, then n the neuron of the
  /// block).
  struct Position {
    unsigned kb = 0, n = 0, oh = 0, ow = 0, kh = 0, kw = 0, cb = 0;
    bool load = false;
  };
  [[nodiscard]] static Position start(const AguLayer& l);
  [[nodiscard]] AddressSet set_at(const AguLayer& l, const Position& at) const;
  /// Steps `at` to the next set; false after the layer's last.
  [[nodiscard]] bool advance(const AguLayer& l, Position& at) const;
  [[nodiscard]] uint32_t read(const regmap::RegisterAt& r) const;

  AguParams p_;
  regmap::RegisterMap map_;
  std::array<std::array<uint32_t, agu_csr::kGroupWords>, agu_csr::kGroups> words_{};
  std::array<AguLayer, agu_csr::kGroups> layer_{};  ///< decoded when enabled
  std::array<bool, agu_csr::kGroups> enable_{};
  unsigned consumer_ = 0;
  bool active_ = false;
  bool cfg_err_ = false;
  uint32_t layers_done_ = 0;
  Position at_;
};

}  // namespace npugen::golden
