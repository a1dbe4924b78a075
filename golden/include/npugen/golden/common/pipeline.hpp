// The pipeline registers between two points of a block, as a ring of stages + 1 slots:
// each clock edge a value enters and the one that entered `stages` edges earlier leaves
// (with no stages the value leaves at the edge it enters). Shared by the dense and the
// zero-skipping arrays' models for their adder trees.
#pragma once

#include <cstddef>
#include <vector>

namespace npugen::golden {

template <typename T>
class Pipeline {
 public:
  /// Empties the pipeline: `stages` registers, every slot holding `empty`.
  void reset(size_t stages, const T& empty) {
    ring_.assign(stages + 1, empty);
    head_ = 0;
  }
  /// The slot this edge's value is written into (valid until advance()).
  T& entering() { return ring_[head_]; }
  /// The clock edge: returns the slot of the value that leaves the pipeline at it.
  const T& advance() {
    head_ = head_ + 1 == ring_.size() ? 0 : head_ + 1;
    return ring_[head_];
  }

 private:
  std::vector<T> ring_;
  size_t head_ = 0;
};

}  // namespace npugen::golden
