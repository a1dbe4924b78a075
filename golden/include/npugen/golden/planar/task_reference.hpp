// A planar task's output by the plain reference (golden/planar/reference.hpp): the task's
// registers mapped onto the reference's operations, for the co-simulation and the unit
// tests to check the RTL and the golden model with. It calls the reference only, no code
// of the golden model.
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/planar/params.hpp"
#include "npugen/golden/post/reference.hpp"

namespace npugen::golden {

/// The output of task t (dense NHWC of its output shape) on input a (and b for ADD) with the
/// gain table's entries gains[c] for channel c (gain_bias), or the table's entries in row order
/// (lut: the LUT's bytes, lut_byte).
std::vector<int8_t> planar_reference_output(const PlanarTask& t, const reference::Tensor& a,
                                            const reference::Tensor& b,
                                            const std::vector<PlanarGain>& gains);

}  // namespace npugen::golden
