// What every co-simulation bench does to its verilated model: reset it while comparing its
// outputs, and write an FST waveform of a window of cycles (only in a build with tracing,
// NPUGEN_TRACE).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <memory>
#include <string>
#ifdef NPUGEN_TRACE
#include <verilated_fst_c.h>
#endif

namespace npugen::tb {

/// Clock edges reset is held for.
inline constexpr unsigned kResetCycles = 2;

/// Asserts reset and holds it for kResetCycles clock edges while `drive()` puts arbitrary
/// inputs on the ports (a block in reset must ignore them), then releases it. `check(k)`
/// runs after every evaluation in reset (k = 0 before the first edge, k = kResetCycles
/// after the last), so that a bench compares every output with its golden model's reset
/// state from the very first cycle: an output that comes out of reset wrong is caught.
template <typename Dut, typename Drive, typename Check>
void reset_dut(Dut& dut, Drive drive, Check check) {
  // Power up with reset released, then assert it: its falling edge resets every register
  // at once (asynchronously), before any clock edge.
  dut.clk_i = 0;
  dut.rst_ni = 1;
  dut.eval();
  dut.rst_ni = 0;
  for (unsigned k = 0;; ++k) {
    drive();
    dut.eval();
    check(k);
    if (k == kResetCycles) break;
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
    dut.eval();
  }
  dut.rst_ni = 1;
  dut.eval();
}

/// An FST waveform of the cycles from `from` on; does nothing when `file` is empty.
class Waveform {
 public:
  template <typename Dut>
  Waveform(VerilatedContext& context, Dut* dut, const std::string& file, uint64_t from)
      : context_(context), from_(from) {
#ifdef NPUGEN_TRACE
    if (!file.empty() && dut != nullptr) {
      context.traceEverOn(true);
      tracer_ = std::make_unique<VerilatedFstC>();
      dut->trace(tracer_.get(), 99);
      tracer_->open(file.c_str());
    }
#else
    (void)dut;
    (void)file;
#endif
  }
  Waveform(const Waveform&) = delete;
  Waveform& operator=(const Waveform&) = delete;
  ~Waveform() { close(); }

  /// Records the signals now, if `cycle` is inside the window.
  void dump(uint64_t cycle) {
#ifdef NPUGEN_TRACE
    if (tracer_ && cycle >= from_) tracer_->dump(context_.time());
#else
    (void)cycle;
#endif
  }
  void close() {
#ifdef NPUGEN_TRACE
    if (tracer_) tracer_->close();
    tracer_.reset();
#endif
  }

 private:
  VerilatedContext& context_;
  uint64_t from_;
#ifdef NPUGEN_TRACE
  std::unique_ptr<VerilatedFstC> tracer_;
#endif
};

}  // namespace npugen::tb
