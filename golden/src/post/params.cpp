#include "npugen/golden/post/params.hpp"

#include <fmt/format.h>

namespace npugen::golden::post_csr {

regmap::RegisterMap register_map(const PostParams& p) {
  using regmap::Access;
  regmap::RegisterMap map;
  map.block = "post";
  map.title = "Registers of the post unit";
  map.doc = fmt::format(
      "{} requantization(s) per cycle (TFLite int8: docs/post.md); per-channel bias, "
      "multiplier and shift for {} channels come from the parameter table (param_* port), "
      "the output's zero point and clamp with each beat. The registers sit on an APB port "
      "with no wait states; an address with no register reads 0 and answers PSLVERR.",
      p.lanes, p.max_channels);
  map.registers = {
      {"INFO",
       kInfo,
       "The hardware's parameters (read only).",
       {{"LANES", kLanesLsb, 8, Access::kRO, p.lanes, false, "P: requantizations per cycle"},
        {"MAX_CHANNELS", kMaxChannelsLsb, 17, Access::kRO, p.max_channels, false,
         "channels of the parameter table"}}},
  };
  return map;
}

}  // namespace npugen::golden::post_csr
