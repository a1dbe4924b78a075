// The compiler's passes (docs/compiler.md), run in this order by compile_network; each fills
// in its part of the IR (ir.hpp) and throws CompileError for what the design cannot run.
#pragma once

#include "ir.hpp"

namespace npugen::compiler {

/// Every layer against its operation's rule and the design's engines: inputs, weights,
/// VQ tables, the planar engine's operations, declared output shapes; the input packing;
/// tensor shapes and last readers.
Graph legalize(const Target& t);

/// In layer order: neural layers in tiles of output channels that fit the weight store and
/// the post table, each lowered (dense, or zero-skipping when that is faster) and checked
/// against the address generator; planar tasks against the planar engine; the gain table.
void partition(const Target& t, Graph& g);

/// Tensors in the activation buffers or system memory, row bands and their staging areas,
/// the DMA's data area (the input, tensors kept in memory, the output, loads of rows).
void allocate(const Target& t, Graph& g);

/// Every layer's tasks (or APB writes) and the host's writes of weights, parameters and
/// gains; the program's layers.
void lower(const Target& t, Graph& g);

/// The program: descriptors and the data area in the memory image, the host's queueing and
/// waits.
golden::Program encode(const Target& t, Graph& g);

}  // namespace npugen::compiler
