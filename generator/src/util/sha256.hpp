// SHA-256 content hashes (OpenSSL's implementation).
#pragma once

#include <string>
#include <string_view>

namespace npugen::util {

/// Lower-case hex SHA-256 of the bytes.
std::string sha256_hex(std::string_view bytes);

}  // namespace npugen::util
