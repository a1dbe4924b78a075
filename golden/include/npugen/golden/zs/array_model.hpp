// Bit-exact, cycle-aware model of the zero-skipping PE array, at its ports.
//
// outputs(in) is what the RTL presents during a cycle whose inputs are `in`; tick(in) is
// the rising edge that ends the cycle (the protocol of every block's model).
//
// Pipeline: the weight and control-bit buffers (a FIFO of step_buffer_depth steps) feed a
// load stage that shifts the activation window by the step's advance and reads the
// missing rows, R per cycle; when the window is complete the step moves into the compute
// registers, and the next cycle its products enter the adder trees. After the trees'
// pipeline the result demultiplexers add each tile's sum into accumulator t + dx.
//
// Streams (valid/ready): a step enters the buffers at an edge where step_valid and
// step_ready are high; a job's dot products leave at an edge where acc_valid and acc_ready
// are high. While they wait (acc_valid high, acc_ready low) everything after the buffers
// holds: no rows are read, no step moves; the buffers still take steps while not full.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "npugen/golden/common/pipeline.hpp"
#include "npugen/golden/zs/params.hpp"

namespace npugen::golden {

struct ZeroSkipInputs {
  bool step_valid = false;
  const StreamStep* step = nullptr;       ///< the step offered when step_valid
  std::span<const uint32_t> act_rd_data;  ///< R rows of L raw activations, row k at [k*L]
  bool acc_ready = true;                  ///< the finished job's results may leave
};

struct ZeroSkipOutputs {
  bool step_ready = false;
  bool act_rd_en = false;
  uint32_t act_rd_row = 0;    ///< first row read this cycle (job-relative)
  unsigned act_rd_count = 0;  ///< rows read, 0..R when act_rd_en
  /// Not a port: the job (counted from 0 since reset) whose rows are read, so that a
  /// testbench knows which activations to return.
  uint64_t act_rd_job = 0;
  bool acc_valid = false;
  std::span<const uint64_t> acc;
};

class ZeroSkipArrayModel {
 public:
  explicit ZeroSkipArrayModel(const ZeroSkipParams& params);

  void reset();
  [[nodiscard]] ZeroSkipOutputs outputs(const ZeroSkipInputs& in) const;
  void tick(const ZeroSkipInputs& in);

  [[nodiscard]] const ZeroSkipParams& params() const { return p_; }

 private:
  struct InFlight {
    bool valid = false;
    bool first = false;
    bool last = false;
    std::vector<uint64_t> sums;  // per tile, modulo 2^64
    std::vector<uint8_t> dest;   // per tile
  };
  struct Request {
    bool en = false;
    bool start = false;
    uint32_t new_base = 0;
    unsigned fresh = 0;  // rows the head step loads in all
    unsigned done = 0;   // rows loaded before this cycle
    unsigned count = 0;  // rows loaded this cycle
    uint32_t row = 0;
  };
  /// The load stage's request this cycle; `hold`: the results wait, nothing moves.
  [[nodiscard]] Request request(bool hold) const;
  void compute(InFlight& into);
  /// The buffers take the offered step when `ready` (they were not full).
  void push(const ZeroSkipInputs& in, bool ready);

  ZeroSkipParams p_;
  ControlLayout layout_;
  unsigned window_;
  uint64_t acc_mask_;
  // Step buffer: a ring of step_buffer_depth entries.
  std::vector<StreamStep> fifo_;
  size_t fifo_head_ = 0;
  size_t fifo_count_ = 0;
  // Load stage.
  bool loading_ = false;
  unsigned loaded_ = 0;
  uint32_t base_ = 0;
  std::vector<uint64_t> window_rows_;  // [W][L] extended activations
  uint64_t jobs_started_ = 0;
  // Compute registers.
  bool cmp_valid_ = false;
  StreamStep cmp_;
  // Adder-tree pipeline and accumulators.
  Pipeline<InFlight> tree_;
  std::vector<uint64_t> acc_;
  bool acc_valid_ = false;
};

}  // namespace npugen::golden
