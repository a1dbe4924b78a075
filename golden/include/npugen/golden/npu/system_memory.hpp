// The system memory an NPU top reads (docs/npu.md): 32-bit words from an image, served on
// the top's port (sys_req_* / sys_rsp_*) the way the port's contract allows a memory to: a
// request is taken at an edge where the top offers it and the memory is ready; a write
// changes its word at that edge; a read's word comes back in request order, `latency` cycles or
// more after (1 at least; one response a cycle). The co-simulation draws ready and the latencies at
// random from a seed; run_program uses a fixed timing. Words beyond the image read 0.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "npugen/golden/npu/model.hpp"

namespace npugen::golden {

struct MemoryTiming {
  unsigned min_latency = 4, max_latency = 4;  ///< cycles from a taken request to its data
  unsigned ready_percent = 100;               ///< chance the memory takes a request
  uint64_t seed = 1;
};

class SystemMemory {
 public:
  SystemMemory(std::vector<uint32_t> words, const MemoryTiming& timing);
  /// This cycle's ready and response (from the memory's state only).
  void serve(NpuInputs& in) const;
  /// The edge: a request taken (out.sys_req_valid && in.sys_req_ready), a response given.
  void tick(const NpuInputs& in, const NpuOutputs& out);
  [[nodiscard]] uint64_t reads() const { return reads_; }
  [[nodiscard]] uint64_t writes() const { return writes_; }
  /// The memory's words now (the image and what was written; beyond it, 0).
  [[nodiscard]] const std::vector<uint32_t>& words() const { return words_; }
  [[nodiscard]] uint64_t waits() const { return waits_; }  ///< offered, not taken
  /// No read outstanding.
  [[nodiscard]] bool idle() const { return pending_.empty(); }

 private:
  struct Pending {
    uint64_t due;
    uint32_t data;
  };
  std::vector<uint32_t> words_;
  MemoryTiming timing_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
  bool ready_ = true;
  std::deque<Pending> pending_;
  uint64_t reads_ = 0, writes_ = 0, waits_ = 0;
};

}  // namespace npugen::golden
