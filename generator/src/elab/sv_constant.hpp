// A constant of a block's SystemVerilog package (<prefix>_<block>_pkg): what elaboration
// derives for the RTL, as `localparam <type> <name> = <value>;` with its doc comment. The
// block's modules read their widths, counts and field positions from these, so the numbers
// are computed once, here, and the templates write no number of their own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npugen::elab {

struct SvConstant {
  std::string name;   ///< CamelCase, as lowRISC names constants
  std::string type;   ///< int, bit, logic [N-1:0]
  std::string value;  ///< SystemVerilog literal
  std::string doc;

  /// An integer (Icarus 11 takes `int`, not `int unsigned`).
  static SvConstant integer(std::string name, int64_t value, std::string doc);
  static SvConstant flag(std::string name, bool value, std::string doc);
  /// A bit vector, bits[0] its least significant bit.
  static SvConstant bits(std::string name, const std::vector<bool>& bits, std::string doc);
  /// A `width`-bit value.
  static SvConstant word(std::string name, unsigned width, uint64_t value, std::string doc);
};

using SvConstants = std::vector<SvConstant>;

}  // namespace npugen::elab
