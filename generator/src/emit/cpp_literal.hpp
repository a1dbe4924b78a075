// C++ source text of a golden parameter struct's value, written from the struct's own
// field list (for_each_field), so that the co-simulation's design_params.hpp names no
// member a second time: `golden::VqParams{.rows = 256, .row_weights = 4, ...}`.
#pragma once

#include <fmt/format.h>

#include <concepts>
#include <string>
#include <type_traits>

namespace npugen::emit {

template <typename T>
concept FieldStruct = requires(const T& t) {
  t.for_each_field([](const char*, const auto&) {});
};

template <typename T>
std::string cpp_literal(const T& value, int indent = 0) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    return cpp_name(value);  // found next to the enum (argument-dependent lookup)
  } else if constexpr (std::is_integral_v<T>) {
    return fmt::format("{}", value);
  } else {
    static_assert(FieldStruct<T>, "a parameter struct needs for_each_field");
    // Nested structs go on one line; the top level puts one member per line.
    const std::string pad(static_cast<size_t>(indent + 4), ' ');
    std::string out = "{";
    bool first = true;
    value.for_each_field([&](const char* name, const auto& member) {
      if (indent == 0) {
        out += fmt::format("\n{}.{} = {},", pad, name, cpp_literal(member, indent + 4));
      } else {
        out += fmt::format("{}.{} = {}", first ? "" : ", ", name, cpp_literal(member, indent + 4));
      }
      first = false;
    });
    return out + (indent == 0 ? "\n}" : "}");
  }
}

/// `inline constexpr golden::<Type> <name>{...};` followed by a newline.
template <typename T>
std::string cpp_constant(const char* type, const char* name, const T& value) {
  return fmt::format("inline constexpr golden::{} {}{};\n", type, name, cpp_literal(value));
}

}  // namespace npugen::emit
