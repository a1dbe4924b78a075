// What the register-map renderers share: the map's entries in address order and the
// formatting of numbers and text. Internal to emit/register_map_*.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "npugen/golden/common/regmap.hpp"

namespace npugen::emit::register_map_detail {

/// A plain register or a group, at its offset.
struct Entry {
  const golden::regmap::Register* reg = nullptr;  ///< set for a plain register
  const golden::regmap::Group* group = nullptr;   ///< set for a group
  uint32_t offset = 0;
};

/// The map's plain registers and groups by increasing offset (ties in list order).
std::vector<Entry> entries_by_offset(const golden::regmap::RegisterMap& map);

/// A group's registers by increasing offset.
std::vector<const golden::regmap::Register*> registers_by_offset(const golden::regmap::Group& g);

/// Throws std::logic_error listing map.problems() unless there are none.
void require_consistent(const golden::regmap::RegisterMap& map);

/// "0x04" (at least `digits` hex digits).
std::string hex(uint64_t value, int digits = 2);
/// "7:4", or "0" for one bit.
std::string bit_range(const golden::regmap::Field& f);
/// Whitespace runs (newlines included) as one space, no leading or trailing space.
std::string one_line(std::string_view text);
/// `text` on one line, broken into lines of at most `width` characters at spaces.
std::vector<std::string> wrap(std::string_view text, size_t width);

}  // namespace npugen::emit::register_map_detail
