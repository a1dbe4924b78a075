// Parameters of the post unit (the requantization after the accumulators), its
// registers, and its cycle model's ports. The arithmetic is golden/post/requant.hpp
// (docs/post.md); post_csr::register_map() is the one definition of the registers.
#pragma once

#include <cstdint>
#include <string>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/common/regmap.hpp"

namespace npugen::golden {

struct PostParams {
  static constexpr unsigned kMaxLanes = 64;
  static constexpr unsigned kMaxChannels = 65536;
  static constexpr unsigned kShiftBits = 6;  ///< a signed shift, -31 to 30
  static constexpr unsigned kMinStages = 3, kMaxStages = 8;

  unsigned lanes = 1;            ///< P: requantizations per cycle
  unsigned max_channels = 256;   ///< output channels the parameter table holds
  unsigned pipeline_stages = 3;  ///< registers from a beat's acceptance to its results

  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("lanes", lanes), f("max_channels", max_channels), f("pipeline_stages", pipeline_stages);
  }

  /// Rows of each lane's table: channel c is row c / P of lane c mod P.
  [[nodiscard]] constexpr unsigned groups() const { return (max_channels + lanes - 1) / lanes; }
  [[nodiscard]] constexpr unsigned group_bits() const { return field_bits(groups()); }
  /// Bits of a result count (1 to P).
  [[nodiscard]] constexpr unsigned count_bits() const { return field_bits(uint64_t{lanes} + 1); }
};

/// The post unit's registers: byte offsets and field positions. The output's zero point and
/// clamp are not registers: they come with each beat (from the layer registers).
namespace post_csr {
inline constexpr uint32_t kInfo = 0x0;                         ///< read only
inline constexpr unsigned kLanesLsb = 0, kMaxChannelsLsb = 8;  ///< INFO

regmap::RegisterMap register_map(const PostParams& p);
}  // namespace post_csr

}  // namespace npugen::golden
