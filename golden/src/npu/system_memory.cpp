#include "npugen/golden/npu/system_memory.hpp"

#include <algorithm>
#include <stdexcept>

namespace npugen::golden {

SystemMemory::SystemMemory(std::vector<uint32_t> words, const MemoryTiming& timing)
    : words_(std::move(words)), timing_(timing), rng_(timing.seed) {
  if (timing_.min_latency < 1 || timing_.max_latency < timing_.min_latency) {
    throw std::invalid_argument("SystemMemory: latencies must satisfy 1 <= min <= max");
  }
  ready_ = timing_.ready_percent >= 100 || rng_() % 100 < timing_.ready_percent;
}

void SystemMemory::serve(NpuInputs& in) const {
  in.sys_req_ready = ready_;
  in.sys_rsp_valid = !pending_.empty() && pending_.front().due <= cycle_;
  in.sys_rsp_data = in.sys_rsp_valid ? pending_.front().data : 0;
}

void SystemMemory::tick(const NpuInputs& in, const NpuOutputs& out) {
  if (in.sys_rsp_valid) pending_.pop_front();
  if (out.sys_req_valid && in.sys_req_ready && out.sys_req_write) {
    const uint64_t a = out.sys_req_addr;
    if (a >= words_.size()) words_.resize(a + 1, 0);
    words_[a] = out.sys_req_wdata;
    ++writes_;
  } else if (out.sys_req_valid && in.sys_req_ready) {
    const unsigned span = timing_.max_latency - timing_.min_latency + 1;
    const uint64_t latency = timing_.min_latency + (span > 1 ? rng_() % span : 0);
    uint64_t due = cycle_ + latency;
    if (!pending_.empty()) due = std::max(due, pending_.back().due + 1);
    const uint64_t a = out.sys_req_addr;
    pending_.push_back({due, a < words_.size() ? words_[a] : 0U});
    ++reads_;
  } else if (out.sys_req_valid) {
    ++waits_;
  }
  ++cycle_;
  ready_ = timing_.ready_percent >= 100 || rng_() % 100 < timing_.ready_percent;
}

}  // namespace npugen::golden
