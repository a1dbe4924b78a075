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
