// What every co-simulation bench does to its verilated model: reset it, and write an
// FST waveform of a window of cycles (only in a build with tracing, NPUGEN_TRACE).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <memory>
#include <string>
#ifdef NPUGEN_TRACE
#include <verilated_fst_c.h>
#endif

namespace npugen::tb {

/// Two clock cycles of reset (with no step offered, for the PE arrays), then reset released.
template <typename Dut>
void reset_dut(Dut& dut) {
  dut.clk_i = 0;
  dut.rst_ni = 0;
  if constexpr (requires { dut.step_valid_i; }) dut.step_valid_i = 0;
  dut.eval();
  for (int i = 0; i < 2; ++i) {
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
