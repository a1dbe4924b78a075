#include "util/npy.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

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
  if (header_start + header_len > bytes.size()) throw NpyError("truncated header");
  const std::string header = bytes.substr(header_start, header_len);

  static const std::regex kDescr(R"('descr'\s*:\s*'([<>|=])([a-zA-Z])(\d+)')");
  static const std::regex kFortran(R"('fortran_order'\s*:\s*(True|False))");
  static const std::regex kShape(R"('shape'\s*:\s*\(([^)]*)\))");
  std::smatch m;
  if (!std::regex_search(header, m, kDescr)) {
    throw NpyError("the header has no simple 'descr' (structured arrays are not supported)");
  }
  NpyArray a;
  a.dtype = m[1].str() + m[2].str() + m[3].str();
  const char kind = m[2].str()[0];
  const size_t size = std::stoul(m[3].str());
  const bool big_endian = m[1] == ">";
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
  if (!std::regex_search(header, m, kFortran)) throw NpyError("the header has no 'fortran_order'");
  if (m[1] == "True") {
    throw NpyError("the array is in Fortran order; save it in C order (np.ascontiguousarray)");
  }
  if (!std::regex_search(header, m, kShape)) throw NpyError("the header has no 'shape'");
  std::stringstream dims(m[1].str());
  std::string item;
  size_t count = 1;
  while (std::getline(dims, item, ',')) {
    const auto first = item.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    size_t used = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(item.substr(first), &used);
    } catch (const std::exception&) {
      throw NpyError(fmt::format("malformed shape '({})'", m[1].str()));
    }
    a.shape.push_back(v);
    count *= v;
  }
  const size_t data_start = header_start + header_len;
  const size_t expected = count * size;
  if (bytes.size() - data_start != expected) {
    throw NpyError(
        fmt::format("the data holds {} bytes; shape and dtype '{}' need {} (the file "
                    "is truncated or corrupt)",
                    bytes.size() - data_start, a.dtype, expected));
  }
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

NpyArray read_npy(const std::filesystem::path& file, bool allow_float) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw NpyError("cannot be read (no such file, or no permission)");
  std::ostringstream data;
  data << in.rdbuf();
  return parse_npy(data.str(), allow_float);
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
