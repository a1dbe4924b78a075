#include "npugen/golden/post/params.hpp"

#include <fmt/format.h>

namespace npugen::golden::post_csr {

regmap::RegisterMap register_map(const PostParams& p) {
  using regmap::Access;
  regmap::RegisterMap map;
  map.block = "post";
  map.title = "Registers of the post unit";
  map.doc = fmt::format(
      "{} requantization(s) per cycle (TFLite int8: docs/post_unit.md); per-channel bias, "
      "multiplier and shift for {} channels come from the parameter table (param_* port). "
      "The registers sit on an APB port with no wait states; an address with no register "
      "reads 0 and answers PSLVERR.",
      p.lanes, p.max_channels);
  map.registers = {
      {"OUTPUT",
       kOutput,
       "The output's zero point and clamp (int8, two's complement), taken by each beat as it "
       "enters. A write with ACT_MIN above ACT_MAX is ignored whole and sets STATUS.CFG_ERR.",
       {{"ZERO_POINT", kZeroPointLsb, 8, Access::kRW, 0, false, "y_zp, added after scaling"},
        {"ACT_MIN", kActMinLsb, 8, Access::kRW, 0x80, false,
         "the smallest output (-128; y_zp for ReLU)"},
        {"ACT_MAX", kActMaxLsb, 8, Access::kRW, 0x7f, false, "the largest output (127)"}}},
      {"STATUS",
       kStatus,
       "Sticky error flag; write 1 to clear (a flag set and cleared in the same cycle stays "
       "set).",
       {{"CFG_ERR", kCfgErrBit, 1, Access::kW1C, 0, true,
         "an OUTPUT write named ACT_MIN above ACT_MAX; it was ignored"}}},
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
