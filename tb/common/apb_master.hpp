// The testbench's side of a block's APB register port (npugen/golden/common/apb.hpp): a
// requester that runs queued transfers through their setup and access phases and drives
// arbitrary address and data while idle (the completer must ignore them). Depends on no
// design (common/apb_port.hpp connects it to a verilated model).
#pragma once

#include <cstdint>
#include <deque>
#include <random>

#include "npugen/golden/common/apb.hpp"

namespace npugen::tb {

/// Arbitrary values on every request signal, from the raw draw `r`, at address `paddr`
/// (what the ports see in reset).
inline golden::ApbRequest arbitrary_request(uint64_t r, uint32_t paddr) {
  return golden::ApbRequest{(r & 1U) != 0, (r & 2U) != 0, (r & 4U) != 0, paddr,
                            static_cast<uint32_t>(r >> 32)};
}

class ApbMaster {
 public:
  struct Transfer {
    bool write = false;
    uint32_t addr = 0;  ///< byte address
    uint32_t wdata = 0;
  };

  /// `addr_bits`: width of the completer's address port.
  explicit ApbMaster(unsigned addr_bits)
      : addr_mask_(addr_bits >= 32 ? ~0U : (1U << addr_bits) - 1) {}

  /// Queues a transfer; transfers run in order, one at a time.
  void push(const Transfer& t) { queue_.push_back(t); }
  /// A transfer is under way or queued.
  [[nodiscard]] bool busy() const { return phase_ != Phase::kIdle || !queue_.empty(); }

  /// The request of this cycle: the next phase of the transfer under way, the setup phase
  /// of the next one queued, or idle (PSEL low, the other signals arbitrary).
  const golden::ApbRequest& plan(std::mt19937_64& rng) {
    if (phase_ == Phase::kIdle && !queue_.empty()) {
      current_ = queue_.front();
      queue_.pop_front();
      phase_ = Phase::kSetup;
    }
    switch (phase_) {
      case Phase::kIdle: {
        const uint64_t r = rng();
        request_ = golden::ApbRequest{false, false, (r & 2U) != 0,
                                      static_cast<uint32_t>(r >> 8) & addr_mask_,
                                      static_cast<uint32_t>(r >> 32)};
        break;
      }
      case Phase::kSetup:
      case Phase::kAccess:
        request_ =
            golden::ApbRequest{true, phase_ == Phase::kAccess, current_.write,
                               current_.addr & addr_mask_, current_.write ? current_.wdata : 0};
        break;
    }
    return request_;
  }
  [[nodiscard]] const golden::ApbRequest& request() const { return request_; }

  /// After the clock edge, with the response of the cycle that ended.
  void advance(const golden::ApbResponse& response) {
    if (phase_ == Phase::kSetup) {
      phase_ = Phase::kAccess;
    } else if (phase_ == Phase::kAccess && response.pready) {
      phase_ = Phase::kIdle;
      ++(current_.write ? writes_ : reads_);
      if (response.pslverr) ++errors_;
    }
  }

  [[nodiscard]] uint64_t writes() const { return writes_; }
  [[nodiscard]] uint64_t reads() const { return reads_; }
  /// Transfers answered with PSLVERR.
  [[nodiscard]] uint64_t errors() const { return errors_; }

 private:
  enum class Phase : uint8_t { kIdle, kSetup, kAccess };
  uint32_t addr_mask_;
  std::deque<Transfer> queue_;
  Phase phase_ = Phase::kIdle;
  Transfer current_;
  golden::ApbRequest request_;
  uint64_t writes_ = 0;
  uint64_t reads_ = 0;
  uint64_t errors_ = 0;
};

}  // namespace npugen::tb
