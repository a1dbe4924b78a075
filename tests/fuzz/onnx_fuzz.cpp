// Fuzz target: the ONNX reader (npugen onnx-info, compile --onnx, run --onnx). Whatever the
// bytes, the import ends in a network whose layers read earlier tensors, with shapes and
// weights that agree, or in diagnostics naming the file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "net/onnx_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const auto r = npugen::net::read_onnx_bytes(bytes, "fuzz.onnx");
  if (r.model.has_value() == !r.diagnostics.empty()) std::abort();
  for (const auto& d : r.diagnostics) {
    if (d.format().rfind("fuzz.onnx", 0) != 0) std::abort();
  }
  if (!r.model) return 0;
  const auto& n = r.model->file.network;
  if (n.layers.empty() || r.model->layers.size() != n.layers.size()) std::abort();
  for (size_t i = 0; i < n.layers.size(); ++i) {
    const auto& l = n.layers[i];
    if (l.inputs.empty()) std::abort();
    for (const size_t t : l.inputs) {
      if (t > i) std::abort();  // an earlier tensor (0 the input)
    }
    if (l.out.h < 1 || l.out.w < 1 || l.out.c < 1) std::abort();
    if (npugen::golden::net::is_neural(l.op)) {
      const auto& c = l.conv;
      const auto& x = n.shape_of(l.inputs[0]);
      const size_t taps = l.op == npugen::golden::net::Op::kFc
                              ? x.elements()
                              : static_cast<size_t>(c.kernel_h) * c.kernel_w * x.c;
      if (c.weights.size() != static_cast<size_t>(c.filters) * taps ||
          c.bias.size() != static_cast<size_t>(c.filters) ||
          c.output.size() != static_cast<size_t>(c.filters) || l.out.c != c.filters) {
        std::abort();
      }
    }
  }
  return 0;
}
