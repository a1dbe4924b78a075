#include "util/npy.hpp"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <iterator>
#include <map>

#include "util/input_file.hpp"
#include "util/text.hpp"

namespace npugen::util {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

uint64_t read_le(const unsigned char* p, size_t bytes, bool big_endian) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) {
    const size_t at = big_endian ? i : bytes - 1 - i;
    v = (v << 8) | p[at];
  }
  return v;
}

double half_to_double(uint64_t bits) {
  const int e = static_cast<int>((bits >> 10) & 0x1f);
  const double m = static_cast<double>(bits & 0x3ff);
  const double v = e == 0    ? std::ldexp(m, -24)
                   : e == 31 ? (m == 0 ? HUGE_VAL : NAN)
                             : std::ldexp(m + 1024, e - 25);
  return (bits & 0x8000) != 0 ? -v : v;
}

// The header is a Python dict literal: {'descr': '<i4', 'fortran_order': False,
// 'shape': (2, 3), }. It is parsed strictly (NumPy writes exactly this form): a key or
// value that is not one of these, junk after a number and negative or oversized
// dimensions are errors, never skipped.
struct Header {
  std::string descr;  ///< byte order, kind, size: "<i4"
  size_t item_size = 0;
  bool fortran_order = false;
  std::vector<size_t> shape;
};

class HeaderParser {
 public:
  explicit HeaderParser(const std::string& text) : text_(text) {}

  Header parse() {
    Header h;
    std::map<std::string, bool> seen;
    expect('{');
    while (!peek('}')) {
      const std::string key = string_literal("a key");
      if (seen[key]) fail(fmt::format("the key '{}' is given twice", shorten(key)));
      seen[key] = true;
      expect(':');
      if (key == "descr") {
        if (peek('[')) fail("'descr' is a list: structured arrays are not supported");
        h.descr = string_literal("the dtype");
        h.item_size = item_size(h.descr);
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
      } else if (key == "shape") {
        h.shape = tuple();
      } else {
        fail(fmt::format("unknown key '{}' (a .npy header has descr, fortran_order and shape)",
                         shorten(key)));
      }
      if (!peek('}')) expect(',');
    }
    expect('}');
    skip_space();
    if (at_ != text_.size()) fail("text after the header's closing brace");
    for (const char* key : {"descr", "fortran_order", "shape"}) {
      if (!seen[key]) fail(fmt::format("the header has no '{}'", key));
    }
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw NpyError(fmt::format("malformed header: {}", what));
  }
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t'))
      ++at_;
  }
  bool peek(char c) {
    skip_space();
    return at_ < text_.size() && text_[at_] == c;
  }
  void expect(char c) {
    if (!peek(c)) {
      fail(at_ < text_.size() ? fmt::format("expected '{}' at offset {}", c, at_)
                              : fmt::format("expected '{}' before the end", c));
    }
    ++at_;
  }
  std::string string_literal(const char* what) {
    skip_space();
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) {
      fail(fmt::format("expected {} as a quoted string at offset {}", what, at_));
    }
    const char quote = text_[at_++];
    const size_t end = text_.find(quote, at_);
    if (end == std::string::npos) fail("a string is not closed");
    std::string s = text_.substr(at_, end - at_);
    at_ = end + 1;
    return s;
  }
  bool boolean() {
    skip_space();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      const size_t n = std::char_traits<char>::length(word);
      if (text_.compare(at_, n, word) == 0) {
        at_ += n;
        return value;
      }
    }
    fail("'fortran_order' is not True or False");
  }
  std::vector<size_t> tuple() {
    std::vector<size_t> dims;
    expect('(');
    while (!peek(')')) {
      dims.push_back(dimension(dims.size()));
      if (!peek(')')) expect(',');
    }
    expect(')');
    return dims;
  }
  size_t dimension(size_t index) {
    skip_space();
    const char* first = text_.data() + at_;
    const char* last = text_.data() + text_.size();
    if (first < last && *first == '-') {
      fail(fmt::format("dimension {} of the shape is negative", index));
    }
    uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc::result_out_of_range) {
      fail(fmt::format("dimension {} of the shape does not fit 64 bits", index));
    }
    if (ec != std::errc() || ptr == first) {
      fail(fmt::format("dimension {} of the shape is not a number", index));
    }
    at_ = static_cast<size_t>(ptr - text_.data());
    skip_space();
    if (at_ < text_.size() && text_[at_] != ',' && text_[at_] != ')') {
      fail(fmt::format("junk after dimension {} of the shape", index));
    }
    return value;
  }
  // The size of "<i4": the digits after byte order and kind, at most two of them.
  size_t item_size(const std::string& descr) const {
    const bool order =
        !descr.empty() && std::string_view("<>|=").find(descr[0]) != std::string_view::npos;
    if (!order || descr.size() < 3 || !std::isalpha(static_cast<unsigned char>(descr[1]))) {
      throw NpyError(fmt::format("dtype '{}' is not a simple type such as '<i4'", shorten(descr)));
    }
    const std::string digits = descr.substr(2);
    if (digits.find_first_not_of("0123456789") != std::string::npos) {
      throw NpyError(fmt::format("dtype '{}' is not a simple type such as '<i4'", shorten(descr)));
    }
    // Sizes have one digit (1, 2, 4, 8); more digits are never a supported size.
    size_t value = 0;
    if (digits.size() <= 2) std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (value == 0) {
      throw NpyError(fmt::format("dtype '{}' has an unsupported size", shorten(descr)));
    }
    return value;
  }

  const std::string& text_;
  size_t at_ = 0;
};

Header parse_header(const std::string& text) { return HeaderParser(text).parse(); }

}  // namespace

NpyArray parse_npy(const std::string& bytes, bool allow_float) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) {
    throw NpyError("not a .npy file (the magic string \\x93NUMPY is missing)");
  }
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  const unsigned major = raw[6];
  size_t header_len = 0;
  size_t header_start = 0;
  if (major == 1) {
    header_len = raw[8] | (size_t{raw[9]} << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw NpyError("truncated header");
    header_len = raw[8] | (size_t{raw[9]} << 8) | (size_t{raw[10]} << 16) | (size_t{raw[11]} << 24);
    header_start = 12;
  } else {
    throw NpyError(fmt::format("unsupported .npy format version {}.{}", major, raw[7]));
  }
  if (header_len > bytes.size() - header_start) throw NpyError("truncated header");
  const Header h = parse_header(bytes.substr(header_start, header_len));

  NpyArray a;
  a.dtype = h.descr;
  const char kind = h.descr[1];
  const size_t size = h.item_size;
  const bool big_endian = h.descr[0] == '>';
  const bool floating = kind == 'f' && allow_float;
  if (kind != 'i' && kind != 'u' && !floating) {
    const char* name = kind == 'f' ? "floating point" : kind == 'b' ? "boolean" : "non-integer";
    throw NpyError(
        fmt::format("dtype '{}' is {}; an integer array (int8 to int64, uint8 to "
                    "uint64){} is needed",
                    a.dtype, name, allow_float ? " or float16/32/64" : ""));
  }
  if ((size != 1 && size != 2 && size != 4 && size != 8) || (floating && size == 1)) {
    throw NpyError(fmt::format("dtype '{}' has an unsupported size", a.dtype));
  }
  if (h.fortran_order) {
    throw NpyError("the array is in Fortran order; save it in C order (np.ascontiguousarray)");
  }
  a.shape = h.shape;
  const auto claimed = npy_data_bytes(a.shape, size);
  if (!claimed) {
    throw NpyError(fmt::format("shape ({}) with dtype '{}' claims more than 2^63 bytes",
                               fmt::join(a.shape, ", "), a.dtype));
  }
  // The claim is checked against the data present before anything is allocated.
  const size_t data_start = header_start + header_len;
  const size_t present = bytes.size() - data_start;
  if (present != *claimed) {
    throw NpyError(
        fmt::format("the data holds {} bytes; shape ({}) and dtype '{}' need {} (the file "
                    "is truncated or corrupt)",
                    present, fmt::join(a.shape, ", "), a.dtype, *claimed));
  }
  const size_t count = *claimed / size;
  const unsigned char* p = raw + data_start;
  if (floating) {
    a.floating = true;
    a.reals.resize(count);
    for (size_t i = 0; i < count; ++i, p += size) {
      const uint64_t v = read_le(p, size, big_endian);
      if (size == 2) {
        a.reals[i] = half_to_double(v);
      } else if (size == 4) {
        a.reals[i] = std::bit_cast<float>(static_cast<uint32_t>(v));
      } else {
        a.reals[i] = std::bit_cast<double>(v);
      }
    }
    return a;
  }
  a.values.resize(count);
  for (size_t i = 0; i < count; ++i, p += size) {
    const uint64_t v = read_le(p, size, big_endian);
    if (kind == 'u') {
      if (size == 8 && v > static_cast<uint64_t>(INT64_MAX)) {
        throw NpyError(fmt::format("element {} = {} does not fit a 64-bit signed integer", i, v));
      }
      a.values[i] = static_cast<int64_t>(v);
    } else {
      const unsigned shift = 64 - 8 * static_cast<unsigned>(size);
      a.values[i] = static_cast<int64_t>(v << shift) >> shift;
    }
  }
  return a;
}

std::optional<uint64_t> npy_data_bytes(const std::vector<size_t>& shape, size_t item_size) {
  // NumPy's rule: the product of the nonzero dimensions and the item size must fit a
  // signed 64-bit size, even when a zero dimension leaves the array empty.
  uint64_t product = item_size;
  bool empty = false;
  for (const size_t d : shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(product, uint64_t{d}, &product)) return std::nullopt;
  }
  if (product > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return empty ? 0 : product;
}

NpyArray read_npy(const std::filesystem::path& file, bool allow_float) {
  std::string bytes;
  try {
    bytes = read_input_file(file);
  } catch (const InputError& e) {
    throw NpyError(e.what());
  }
  return parse_npy(bytes, allow_float);
}

std::string npy_bytes(NpyType type, const std::vector<size_t>& shape,
                      const std::vector<int64_t>& values) {
  struct Layout {
    const char* descr;
    size_t size;
  };
  // Indexed by NpyType.
  static constexpr Layout kLayouts[] = {{"|i1", 1}, {"|u1", 1}, {"<i2", 2}, {"<u2", 2}, {"<i4", 4},
                                        {"<u4", 4}, {"<i8", 8}, {"<f2", 2}, {"<f4", 4}};
  static_assert(std::size(kLayouts) == static_cast<size_t>(NpyType::kFloat32) + 1);
  const auto [descr, size] = kLayouts[static_cast<size_t>(type)];
  const auto data_bytes = npy_data_bytes(shape, size);
  if (!data_bytes || *data_bytes != values.size() * size) {
    throw std::invalid_argument(fmt::format("npy_bytes: shape ({}) does not hold {} values",
                                            fmt::join(shape, ", "), values.size()));
  }
  std::string dims;
  for (size_t d : shape) dims += fmt::format("{}, ", d);
  if (shape.size() > 1) dims.resize(dims.size() - 2);
  if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
  // Magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.reserve(out.size() + values.size() * size);
  for (int64_t v : values) {
    const auto u = static_cast<uint64_t>(v);
    for (size_t i = 0; i < size; ++i) out += static_cast<char>((u >> (8 * i)) & 0xff);
  }
  return out;
}

}  // namespace npugen::util
