// An FST waveform of a verilated model, written only in a build with tracing
// (NPUGEN_TRACE; npugen sim --trace builds one). The driver decides which instants to
// record (tb/common/cosim.hpp).
#pragma once

#include <verilated.h>

#include <memory>
#include <string>
#ifdef NPUGEN_TRACE
#include <verilated_fst_c.h>
#endif

namespace npugen::tb {

class Waveform {
 public:
  /// Opens `file` (nothing when empty or in a build without tracing).
  template <typename Dut>
  Waveform(VerilatedContext& context, Dut* dut, const std::string& file) : context_(context) {
#ifdef NPUGEN_TRACE
    if (!file.empty()) {
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

  [[nodiscard]] bool open() const {
#ifdef NPUGEN_TRACE
    return tracer_ != nullptr;
#else
    return false;
#endif
  }
  /// Records every signal at the model's current time.
  void dump() {
#ifdef NPUGEN_TRACE
    if (tracer_) tracer_->dump(context_.time());
#endif
  }
  void close() {
#ifdef NPUGEN_TRACE
    if (tracer_) tracer_->close();
    tracer_.reset();
#endif
  }

 private:
  [[maybe_unused]] VerilatedContext& context_;
#ifdef NPUGEN_TRACE
  std::unique_ptr<VerilatedFstC> tracer_;
#endif
};

}  // namespace npugen::tb
