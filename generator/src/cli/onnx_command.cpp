// npugen onnx-info: what the ONNX reader makes of a quantized model (docs/onnx.md): the
// imported layers, their shapes, quantization and engine, and the model's edges.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "net/onnx_reader.hpp"

namespace npugen::cli {

void add_onnx_command(CLI::App& app) {
  static std::string model;
  auto* cmd = app.add_subcommand(
      "onnx-info",
      "Import a quantized ONNX model (QOperator or QDQ) and print its layers as npugen runs "
      "them: shapes, scales and zero points, and which engine runs each (docs/onnx.md).");
  cmd->add_option("MODEL", model, "ONNX model (.onnx)")->required();
  cmd->callback([] {
    net::OnnxResult r = net::read_onnx_file(model);
    if (!r.model) refuse(r.diagnostics, model);
    const net::OnnxModel& m = *r.model;
    const golden::net::Network& n = m.file.network;
    auto edge = [](const net::OnnxEdge& e) {
      std::vector<std::string> dims;  // a dimension of 0 is the batch, whatever it is: N
      for (const int64_t d : e.dims) dims.push_back(d == 0 ? std::string("N") : std::to_string(d));
      return fmt::format("{} [{}] {} scale {:.9g} zero point {}{}", e.name, fmt::join(dims, ", "),
                         e.uint8 ? "uint8" : "int8", e.scale, e.zero_point,
                         e.uint8 ? " (int8: value - 128)" : "");
    };
    std::printf("%s: %s format, opset %lld, %zu layers\n", model.c_str(), m.format.c_str(),
                static_cast<long long>(m.opset), n.layers.size());
    std::printf("input  %s -> %dx%dx%d int8 NHWC, zero point %d\n", edge(m.input).c_str(),
                n.input.h, n.input.w, n.input.c, n.input_zero_point);
    std::printf("%-5s %-10s %-7s %-12s %-12s %-12s %-4s %s\n", "layer", "op", "engine", "output",
                "in scale", "out scale", "zp", "ONNX nodes");
    for (size_t i = 0; i < n.layers.size(); ++i) {
      const golden::net::Layer& l = n.layers[i];
      const net::OnnxLayerInfo& info = m.layers[i];
      std::string extra;
      if (!info.weight_scales.empty()) {
        const auto [lo, hi] =
            std::minmax_element(info.weight_scales.begin(), info.weight_scales.end());
        extra = fmt::format("; weight scales {:.4g} to {:.4g} ({} channels)", *lo, *hi,
                            info.weight_scales.size());
      }
      if (l.act_min > -128 || l.act_max < 127) {
        extra += fmt::format("; clamp [{}, {}]", l.act_min, l.act_max);
      }
      std::printf("%-5s %-10s %-7s %-12s %-12.6g %-12.6g %-4d %s%s\n", l.name.c_str(),
                  golden::net::op_name(l.op), golden::net::is_neural(l.op) ? "neural" : "planar",
                  fmt::format("{}x{}x{}", l.out.h, l.out.w, l.out.c).c_str(), info.input_scale,
                  info.output_scale, l.zero_point,
                  fmt::format("{}", fmt::join(info.nodes, ", ")).c_str(), extra.c_str());
    }
    for (const net::OnnxEdge& o : m.outputs) std::printf("output %s\n", edge(o).c_str());
  });
}

}  // namespace npugen::cli
