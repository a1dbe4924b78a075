#include "elab/sv_constant.hpp"

#include <fmt/format.h>

namespace npugen::elab {

SvConstant SvConstant::integer(std::string name, int64_t value, std::string doc) {
  return {std::move(name), "int", std::to_string(value), std::move(doc)};
}

SvConstant SvConstant::flag(std::string name, bool value, std::string doc) {
  return {std::move(name), "bit", value ? "1'b1" : "1'b0", std::move(doc)};
}

SvConstant SvConstant::bits(std::string name, const std::vector<bool>& bits, std::string doc) {
  std::string digits;
  for (size_t i = bits.size(); i-- > 0;) digits += bits[i] ? '1' : '0';
  return {std::move(name), fmt::format("logic [{}:0]", bits.size() - 1),
          fmt::format("{}'b{}", bits.size(), digits), std::move(doc)};
}

SvConstant SvConstant::word(std::string name, unsigned width, uint64_t value, std::string doc) {
  return {std::move(name), fmt::format("logic [{}:0]", width - 1),
          fmt::format("{}'h{:0{}x}", width, value, (width + 3) / 4), std::move(doc)};
}

}  // namespace npugen::elab
