// The .npy reader and writer: round trips, both byte orders, and clear errors.
#include "util/npy.hpp"

#include <catch2/catch.hpp>

using namespace npugen::util;

TEST_CASE("npy files round-trip every integer type", "[npy]") {
  const std::vector<int64_t> values = {0, 1, -1, 100, -100, 7};
  for (NpyType t : {NpyType::kInt8, NpyType::kInt16, NpyType::kInt32, NpyType::kInt64}) {
    const NpyArray a = parse_npy(npy_bytes(t, {2, 3}, values));
    CHECK(a.shape == std::vector<size_t>{2, 3});
    CHECK(a.values == values);
  }
  const std::vector<int64_t> positive = {0, 1, 200, 255};
  for (NpyType t : {NpyType::kUint8, NpyType::kUint16, NpyType::kUint32}) {
    CHECK(parse_npy(npy_bytes(t, {4}, positive)).values == positive);
  }
  // The header (magic, version, length, dict) is padded to a multiple of 64 bytes.
  const std::string bytes = npy_bytes(NpyType::kInt32, {0, 5, 2}, {});
  CHECK(bytes.size() % 64 == 0);
  CHECK(parse_npy(bytes).shape == std::vector<size_t>{0, 5, 2});
}

TEST_CASE("big-endian npy data is read", "[npy]") {
  std::string bytes = npy_bytes(NpyType::kInt16, {2}, {0x0102, -2});
  const size_t at = bytes.find("<i2");
  REQUIRE(at != std::string::npos);
  bytes[at] = '>';
  const size_t data = bytes.size() - 4;
  std::swap(bytes[data], bytes[data + 1]);
  std::swap(bytes[data + 2], bytes[data + 3]);
  CHECK(parse_npy(bytes).values == std::vector<int64_t>{0x0102, -2});
}

TEST_CASE("bad npy files are named for what is wrong", "[npy]") {
  auto message = [](const std::string& bytes) {
    try {
      parse_npy(bytes);
    } catch (const NpyError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message("hello"), Catch::Contains("not a .npy file"));
  std::string f = npy_bytes(NpyType::kInt32, {2}, {1, 2});
  CHECK_THAT(message(f.substr(0, f.size() - 1)), Catch::Contains("truncated or corrupt"));
  std::string floats = f;
  floats.replace(floats.find("<i4"), 3, "<f4");
  CHECK_THAT(message(floats), Catch::Contains("floating point"));
  std::string fortran = f;
  fortran.replace(fortran.find("False"), 5, "True ");
  CHECK_THAT(message(fortran), Catch::Contains("Fortran order"));
}

namespace {

// A version 1.0 file whose header is `dict` verbatim, followed by `data_bytes` zero bytes.
std::string with_header(const std::string& dict, size_t data_bytes) {
  std::string header = dict;
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + std::string(data_bytes, '\0');
}

std::string header_error(const std::string& dict, size_t data_bytes = 0) {
  try {
    parse_npy(with_header(dict, data_bytes), true);
  } catch (const NpyError& e) {
    return e.what();
  }
  return "no error";
}

std::string shape_dict(const std::string& shape, const std::string& descr = "<i4") {
  return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
}

}  // namespace

TEST_CASE("npy headers that lie are rejected before anything is allocated", "[npy]") {
  // A size with too many digits, and sizes that are no integer type.
  CHECK_THAT(header_error(shape_dict("(1,)", "<i99999999999999999999")),
             Catch::Contains("unsupported size"));
  CHECK_THAT(header_error(shape_dict("(1,)", "<i3")), Catch::Contains("unsupported size"));
  CHECK_THAT(header_error(shape_dict("(1,)", "<i")), Catch::Contains("not a simple type"));
  CHECK_THAT(header_error(shape_dict("(1,)", "<i4x")), Catch::Contains("not a simple type"));
  // Element counts that overflow 64 bits, in one dimension or across several.
  CHECK_THAT(header_error(shape_dict("(2305843009213693952,)", "<i8")),  // 2**61
             Catch::Contains("claims more than 2^63 bytes"));
  CHECK_THAT(header_error(shape_dict("(288230376151711745, 64)", "|i1")),  // (2**58+1, 2**6)
             Catch::Contains("claims more than 2^63 bytes"));
  CHECK_THAT(header_error(shape_dict("(99999999999999999999999,)")),
             Catch::Contains("does not fit 64 bits"));
  // A zero dimension empties the array, but the others must still be possible (NumPy).
  CHECK_THAT(header_error(shape_dict("(0, 4611686018427387904)", "<i2")),  // (0, 2**62)
             Catch::Contains("claims more than 2^63 bytes"));
  CHECK(parse_npy(with_header(shape_dict("(0, 4611686018427387904)", "|i1"), 0)).values.empty());
  // Junk after a number, negative dimensions, and no number at all.
  CHECK_THAT(header_error(shape_dict("(3x, 4)")), Catch::Contains("junk after dimension 0"));
  CHECK_THAT(header_error(shape_dict("(3, 4 5)")), Catch::Contains("junk after dimension 1"));
  CHECK_THAT(header_error(shape_dict("(-1, -1)")),
             Catch::Contains("dimension 0 of the shape is negative"));
  CHECK_THAT(header_error(shape_dict("(2, -3)")),
             Catch::Contains("dimension 1 of the shape is negative"));
  CHECK_THAT(header_error(shape_dict("(, 3)")), Catch::Contains("not a number"));
  // A claim larger than the data: named with both sizes, never allocated (2**40 bytes).
  CHECK_THAT(header_error(shape_dict("(1099511627776,)", "|i1"), 4),
             Catch::Contains("holds 4 bytes") && Catch::Contains("need 1099511627776"));
  // Keys: unknown, missing, twice; text after the dict; structured dtypes.
  CHECK_THAT(header_error("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4),
             Catch::Contains("unknown key 'x'"));
  CHECK_THAT(header_error("{'descr': '<i4', 'shape': (1,)}", 4),
             Catch::Contains("no 'fortran_order'"));
  CHECK_THAT(
      header_error("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (1,)}", 4),
      Catch::Contains("given twice"));
  CHECK_THAT(header_error(shape_dict("(1,)") + " junk", 4), Catch::Contains("after the header"));
  CHECK_THAT(header_error("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,)}", 4),
             Catch::Contains("structured arrays"));
  CHECK_THAT(header_error("{'descr': '<i4', 'fortran_order': Maybe, 'shape': (1,)}", 4),
             Catch::Contains("not True or False"));
  // A scalar (shape ()) holds one element; double-quoted strings are Python too.
  CHECK(parse_npy(with_header("{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": ()}", 4))
            .values.size() == 1);
}

TEST_CASE("npy_data_bytes checks every multiplication and the writer its values", "[npy]") {
  CHECK(npy_data_bytes({2, 3}, 4) == 24U);
  CHECK(npy_data_bytes({}, 8) == 8U);
  CHECK(npy_data_bytes({0, 1000}, 8) == 0U);
  CHECK_FALSE(npy_data_bytes({size_t{1} << 61}, 8).has_value());
  CHECK_FALSE(npy_data_bytes({size_t{1} << 32, size_t{1} << 32}, 1).has_value());
  CHECK_THROWS_AS(npy_bytes(NpyType::kInt8, {2, 2}, {1, 2, 3}), std::invalid_argument);
}

TEST_CASE("no byte of a .npy file makes the reader fail other than with NpyError", "[npy]") {
  // Every single-byte corruption of a small file (header and data), with a few values each.
  const std::string good = npy_bytes(NpyType::kInt16, {3, 2}, {1, -2, 3, -4, 5, -6});
  size_t parsed = 0, rejected = 0;
  for (size_t at = 0; at < good.size(); ++at) {
    for (const char v : {'\0', '-', '9', ')', ',', '\'', '\xff', ' '}) {
      std::string bad = good;
      bad[at] = v;
      try {
        parse_npy(bad, true);
        ++parsed;
      } catch (const NpyError&) {
        ++rejected;
      }
    }
  }
  CHECK(rejected > 0);
  CHECK(parsed > 0);  // data bytes and padding may change freely
}
