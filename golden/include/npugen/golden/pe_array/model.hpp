// Bit-exact, cycle-exact model of the dense PE array at its ports.
//
// The protocol every block model follows: outputs(in) is what the RTL presents during a
// cycle whose inputs are `in` (its registers, and the combinational paths its ports
// document: here step_ready_o follows acc_ready_i); tick(in) is the rising edge that ends
// the cycle.
//
// Streams (valid/ready): a step is taken at an edge where step_valid and step_ready are
// both high; the finished dot products leave at an edge where acc_valid and acc_ready are
// both high. While acc_valid is high and acc_ready low the whole array holds (its adder
// tree, its accumulators and acc_valid), and step_ready is low.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "npugen/golden/common/pipeline.hpp"
#include "npugen/golden/pe_array/params.hpp"

namespace npugen::golden {

/// Inputs of one clock cycle. Weights and activations are raw bit patterns in the low
/// bits of each word (as they appear on the RTL ports), indexed [t * L + l] and [l].
struct PeArrayInputs {
  bool valid = false;  ///< a step is offered (step_valid_i)
  bool first = false;  ///< first step of a dot product: accumulators load instead of add
  bool last = false;   ///< last step of a dot product: results follow
  std::span<const uint32_t> weights;  ///< T * L raw weights
  std::span<const uint32_t> acts;     ///< L raw activations
  bool acc_ready = true;              ///< the results may leave (acc_ready_i)
};

/// Outputs during a cycle.
struct PeArrayOutputs {
  bool step_ready = false;        ///< the offered step is taken at the edge
  bool acc_valid = false;         ///< acc holds finished dot products
  std::span<const uint64_t> acc;  ///< T raw accumulator values (acc_width bits each)
};

class PeArrayModel {
 public:
  explicit PeArrayModel(const PeArrayParams& params);

  /// Asynchronous reset: empties the pipeline and clears the accumulators.
  void reset();
  [[nodiscard]] PeArrayOutputs outputs(const PeArrayInputs& in) const;
  /// One rising clock edge.
  void tick(const PeArrayInputs& in);

  [[nodiscard]] const PeArrayParams& params() const { return params_; }

 private:
  // A step inside the adder tree's pipeline: its control bits and per-tile sums.
  struct InFlight {
    bool valid = false;
    bool first = false;
    bool last = false;
    std::vector<uint64_t> sums;  // per tile, modulo 2^64
  };

  void compute_sums(const PeArrayInputs& in, std::vector<uint64_t>& sums);

  PeArrayParams params_;
  uint64_t acc_mask_;
  Pipeline<InFlight> tree_;
  std::vector<uint64_t> acts_;  // current step's activations, extended to 64 bits
  std::vector<uint64_t> acc_;
  bool acc_valid_ = false;
};

}  // namespace npugen::golden
