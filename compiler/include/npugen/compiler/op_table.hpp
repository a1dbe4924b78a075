// The operation table (docs/compiler.md): one entry for each operation a network holds, with
// everything the compiler knows of it in one place: its name, the engine and task operation
// it maps to, its output shape rule, what its planar task carries and its cost in
// multiply-accumulates. A new operation is an entry here, a case in
// the network-file and ONNX readers, one in the plain reference interpreter
// (golden/network/reference.hpp, which shares nothing with this table) and, when no engine
// runs it yet, the engine's golden model and RTL.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "npugen/golden/agu/params.hpp"
#include "npugen/golden/network/network.hpp"
#include "npugen/golden/planar/params.hpp"
#include "npugen/golden/tasks/params.hpp"

namespace npugen::compiler {

/// What an operation's rule refuses (the compiler names the layer and adds it).
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OpInfo {
  golden::net::Op op;
  golden::TaskOp task;  ///< the descriptor's operation (the task buffer's conflict rules)
  bool neural;          ///< the sequencer runs it; otherwise the planar engine
  golden::Dataflow dataflow = golden::Dataflow::kConv;      ///< neural: how the array runs it
  golden::PlanarOp planar = golden::PlanarOp::kActivation;  ///< planar: the engine's mode
  /// Its output shape from its inputs' (the network's tensors); throws Refusal.
  golden::net::Shape (*shape)(const golden::net::Layer&, std::span<const golden::net::Shape>);
  /// Planar: its own fields of the engine's task (arithmetic, window, axis) and its gains
  /// (gain_bias), the task's geometry already set; throws Refusal.
  void (*planar_fields)(const golden::net::Layer&, golden::PlanarTask&,
                        std::vector<golden::PlanarGain>&) = nullptr;
  /// Useful multiply-accumulates an image.
  uint64_t (*macs)(const golden::net::Layer&, std::span<const golden::net::Shape>) = nullptr;
};

/// The entry of `op` (every golden::net::Op has one).
const OpInfo& op_info(golden::net::Op op);

}  // namespace npugen::compiler
