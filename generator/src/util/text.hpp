// Quoting a user's text in a message.
#pragma once

#include <cstddef>
#include <string>

namespace npugen::util {

/// `text` as a message quotes it: longer than `max` characters, its start and its length
/// ("abc... (10485760 characters)"), so that a huge value is never echoed back.
std::string shorten(const std::string& text, size_t max = 64);

}  // namespace npugen::util
