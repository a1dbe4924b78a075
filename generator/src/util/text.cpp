#include "util/text.hpp"

#include <fmt/format.h>

namespace npugen::util {

std::string shorten(const std::string& text, size_t max) {
  if (text.size() <= max) return text;
  return fmt::format("{}... ({} characters)", text.substr(0, max), text.size());
}

}  // namespace npugen::util
