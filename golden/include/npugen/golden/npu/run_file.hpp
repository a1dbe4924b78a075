// The files `npugen run` and the NPU's co-simulation bench exchange (docs/npu.md): the run
// file (a compiled program, the input tensor and the plain reference's tensor of every
// layer) that npugen writes and the bench reads, and the results file (each layer's tensor
// as the top wrote it and the cycle it finished) that the bench writes and npugen turns into
// .npy files and stats.json. Text, one record a line, tensors as hex bytes; deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npugen/golden/npu/program.hpp"
#include "npugen/golden/post/reference.hpp"

namespace npugen::golden {

struct RunFile {
  Program program;
  reference::Tensor input;
  std::vector<reference::Tensor> expected;  ///< per layer: the plain reference's output
};

struct LayerResult {
  std::string name;
  uint64_t finished_at = 0;  ///< cycle its completion marker passed (from the end of reset)
  reference::Tensor tensor;  ///< as the top wrote it
};

struct RunResults {
  uint64_t cycles = 0;  ///< from the end of reset to the last step
  std::vector<LayerResult> layers;
};

std::string run_file_text(const RunFile& run);
/// Throws std::runtime_error naming the line of a malformed text.
RunFile parse_run_file(const std::string& text);

std::string results_text(const RunResults& results);
RunResults parse_results(const std::string& text);

}  // namespace npugen::golden
