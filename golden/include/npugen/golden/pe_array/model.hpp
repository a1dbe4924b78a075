// Bit-exact, cycle-aware model of the dense PE array.
//
// Each call to tick() is one rising clock edge: it takes the inputs that were
// presented before the edge and returns the outputs as they are after it, exactly
// as the generated RTL's registers present them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "npugen/golden/pe_array/params.hpp"

namespace npugen::golden {

/// Inputs of one clock cycle. Weights and activations are raw bit patterns in the
/// low bits of each word (as they appear on the RTL ports), indexed [t * L + l] and [l].
struct PeArrayStep {
  bool valid = false;  ///< a step is presented
  bool first = false;  ///< first step of a dot product: accumulators load instead of add
  bool last = false;   ///< last step of a dot product: results are presented afterwards
  std::span<const uint32_t> weights;  ///< T * L raw weights
  std::span<const uint32_t> acts;     ///< L raw activations
};

/// Outputs after one clock edge.
struct PeArrayOutputs {
  bool acc_valid = false;         ///< acc holds finished dot products
  std::span<const uint64_t> acc;  ///< T raw accumulator values (acc_width bits each)
};

class PeArrayModel {
 public:
  explicit PeArrayModel(const PeArrayParams& params);

  /// Asynchronous reset: empties the pipeline and clears the accumulators.
  void reset();
  /// One rising clock edge.
  PeArrayOutputs tick(const PeArrayStep& step);
  /// The outputs as they are now (after reset: nothing valid, accumulators zero).
  [[nodiscard]] PeArrayOutputs outputs() const { return PeArrayOutputs{acc_valid_, acc_}; }

  [[nodiscard]] const PeArrayParams& params() const { return params_; }

 private:
  // A step inside the adder tree's pipeline: its control bits and per-tile sums.
  struct InFlight {
    bool valid = false;
    bool first = false;
    bool last = false;
    std::vector<uint64_t> sums;  // per tile, modulo 2^64
  };

  void compute_sums(const PeArrayStep& step, std::vector<uint64_t>& sums);

  PeArrayParams params_;
  uint64_t acc_mask_;
  // Ring of tree_stages + 1 slots: the oldest leaves the tree as the newest enters.
  std::vector<InFlight> ring_;
  size_t head_ = 0;
  std::vector<uint64_t> acts_;  // current step's activations, extended to 64 bits
  std::vector<uint64_t> acc_;
  bool acc_valid_ = false;
};

}  // namespace npugen::golden
