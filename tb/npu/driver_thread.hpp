// Runs the NPU's C driver (sw/<design>_npu_driver.c) on its own thread, in lockstep with the
// co-simulation's cycle loop: each register access the driver makes through its HAL
// becomes a request the bench turns into an APB transfer (or a wait for the interrupt);
// the driver's thread sleeps until the bench completes it. Only one side runs at a time,
// so a run is as deterministic as a single-threaded one.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace npugen::tb {

class DriverThread {
 public:
  enum class Kind : uint8_t { kWrite, kRead, kWaitIrq, kDone };
  struct Request {
    Kind kind = Kind::kDone;
    uint32_t addr = 0, data = 0;
  };

  /// Starts `body` (the driver's calls; its result is the run's) on a thread.
  explicit DriverThread(std::function<int(DriverThread&)> body) {
    thread_ = std::thread([this, body = std::move(body)] {
      int result = 0;
      try {
        result = body(*this);
      } catch (const Abandoned&) {
        return;
      }
      std::unique_lock lock(m_);
      req_ = Request{};
      result_ = result;
      posted_ = true;
      cv_.notify_all();
    });
  }
  DriverThread(const DriverThread&) = delete;
  DriverThread& operator=(const DriverThread&) = delete;
  ~DriverThread() {
    {
      std::unique_lock lock(m_);
      abandoned_ = true;
      cv_.notify_all();
    }
    thread_.join();
  }

  /// The driver's pending request (waits until it makes one; kDone when it returned).
  const Request& request() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return posted_; });
    return req_;
  }
  /// Completes the pending request (`rdata`: a read's data); the driver runs on.
  void complete(uint32_t rdata = 0) {
    std::unique_lock lock(m_);
    posted_ = false;
    rdata_ = rdata;
    answered_ = true;
    cv_.notify_all();
  }
  /// What the driver returned (after kDone).
  [[nodiscard]] int result() {
    std::unique_lock lock(m_);
    return result_;
  }

  // The HAL's functions (ctx: the DriverThread).
  static void write32(void* ctx, uint32_t addr, uint32_t value) {
    static_cast<DriverThread*>(ctx)->call({Kind::kWrite, addr, value});
  }
  static uint32_t read32(void* ctx, uint32_t addr) {
    return static_cast<DriverThread*>(ctx)->call({Kind::kRead, addr, 0});
  }
  static void wait_irq(void* ctx) { static_cast<DriverThread*>(ctx)->call({Kind::kWaitIrq}); }

 private:
  struct Abandoned {};
  uint32_t call(const Request& r) {
    std::unique_lock lock(m_);
    req_ = r;
    posted_ = true;
    answered_ = false;
    cv_.notify_all();
    cv_.wait(lock, [&] { return answered_ || abandoned_; });
    if (!answered_) throw Abandoned{};
    return rdata_;
  }

  std::thread thread_;
  std::mutex m_;
  std::condition_variable cv_;
  Request req_;
  bool posted_ = false, answered_ = false, abandoned_ = false;
  uint32_t rdata_ = 0;
  int result_ = 0;
};

}  // namespace npugen::tb
