#include "npugen/golden/tasks/params.hpp"

#include <array>

namespace npugen::golden {
namespace {
constexpr std::array<std::string_view, kTaskOps> kOpNames = {
    "conv", "tensor", "pool", "elementwise", "reduction", "gain_bias"};
}

std::string_view op_name(TaskOp op) { return kOpNames.at(static_cast<size_t>(op)); }

std::string_view kind_name(EngineKind kind) {
  return kind == EngineKind::kNeural ? "neural" : "planar";
}

bool parse_op(std::string_view text, TaskOp& out) {
  for (size_t i = 0; i < kOpNames.size(); ++i) {
    if (kOpNames[i] == text) {
      out = static_cast<TaskOp>(i);
      return true;
    }
  }
  return false;
}

}  // namespace npugen::golden
