// Parameters of the vector-quantized weight dequantizer, as the golden model,
// the testbench and the encoder see them. The generator fills VqParams from the validated
// configuration (one source of truth). vq_csr::register_map() is the one definition of
// the dequantizer's registers: the RTL's package, the register-map documents, the golden
// model and the testbench all use it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/common/regmap.hpp"

namespace npugen::golden {

/// How a weight's bits are read. The dequantizer moves bit patterns and never computes
/// with them; the format matters to the encoder and to the stimulus.
enum class WeightKind : uint8_t { kInt, kUint, kFp16, kBf16 };
/// The enumerator's C++ name, qualified ("golden::WeightKind::kInt"), for generated code.
constexpr const char* cpp_name(WeightKind k) {
  constexpr const char* kNames[] = {"golden::WeightKind::kInt", "golden::WeightKind::kUint",
                                    "golden::WeightKind::kFp16", "golden::WeightKind::kBf16"};
  return kNames[static_cast<unsigned>(k)];
}

struct WeightFormat {
  WeightKind kind = WeightKind::kInt;
  unsigned width = 8;  ///< bits per weight (16 for fp16 and bf16)

  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("kind", kind), f("width", width);
  }

  [[nodiscard]] constexpr bool is_float() const {
    return kind == WeightKind::kFp16 || kind == WeightKind::kBf16;
  }
  /// "int8", "uint12", "fp16", "bf16".
  [[nodiscard]] std::string name() const;
  /// Parses a name as above (int/uint widths 2 to 32); false when it is not one.
  static bool parse(const std::string& text, WeightFormat& out);
};

struct VqParams {
  // What the hardware (and the configuration schema) allows.
  static constexpr unsigned kMinRows = 2, kMaxRows = 65536;  ///< N
  static constexpr unsigned kMaxRowWeights = 32;             ///< M
  static constexpr unsigned kMaxCopies = 16;                 ///< P

  unsigned rows = 256;             ///< N: rows of the physical codebook (power of two, >= 2)
  unsigned row_weights = 4;        ///< M: weights per row (power of two)
  unsigned copies = 4;             ///< P: physical copies = lookups per cycle
  unsigned min_vector_length = 2;  ///< smallest m the hardware supports (power of two, <= M)
  WeightFormat weight;

  /// Every member by name, in declaration order (the generator writes the co-simulation's
  /// constants from it; a new member is added here too).
  template <typename F>
  constexpr void for_each_field(F&& f) const {
    f("rows", rows), f("row_weights", row_weights), f("copies", copies);
    f("min_vector_length", min_vector_length), f("weight", weight);
  }

  /// Bits of an index and of a row address: log2 N.
  [[nodiscard]] constexpr unsigned index_bits() const { return ceil_log2(rows); }
  /// log2 M: a vector of length m = 2^k sits at weight offset (index mod M/m) * m of its row.
  [[nodiscard]] constexpr unsigned row_log2() const { return ceil_log2(row_weights); }
  [[nodiscard]] constexpr unsigned min_vlen_log2() const { return ceil_log2(min_vector_length); }
  /// Bits of the vector-length field (holds log2 M).
  [[nodiscard]] constexpr unsigned vlen_bits() const {
    unsigned b = 1;
    while ((1U << b) <= row_log2()) ++b;
    return b;
  }
  [[nodiscard]] constexpr bool vlen_supported(unsigned k) const {
    return k >= min_vlen_log2() && k <= row_log2();
  }
  /// Weights in one output beat: P lookups of M weights (bypass), or of m (VQ).
  [[nodiscard]] constexpr unsigned beat_weights() const { return copies * row_weights; }
};

/// The dequantizer's configuration and status registers: byte offsets and field positions.
/// register_map() describes them whole (the one register-map model: the RTL, documents,
/// C header, SystemRDL and the golden model come from it).
namespace vq_csr {
inline constexpr uint32_t kCtrl = 0x0;    ///< read/write
inline constexpr uint32_t kBase = 0x4;    ///< read/write
inline constexpr uint32_t kStatus = 0x8;  ///< read, write 1 to clear
inline constexpr uint32_t kInfo = 0xc;    ///< read only

// CTRL fields.
inline constexpr unsigned kCtrlVqEnBit = 0;  ///< 1: lookups (VQ on); 0: raw weights pass
inline constexpr unsigned kCtrlVlenLsb = 4;  ///< log2 of the vector length m
inline constexpr unsigned kCtrlVlenBits = 4;
// STATUS fields (sticky).
inline constexpr unsigned kStatusIndexErrBit = 0;  ///< a lookup's row base + index fell off
inline constexpr unsigned kStatusCfgErrBit = 1;    ///< a CTRL write named an unsupported m
// INFO fields: the hardware's parameters, for software.
inline constexpr unsigned kInfoRowsLog2Lsb = 0;  ///< log2 N (8 bits)
inline constexpr unsigned kInfoRowLog2Lsb = 8;   ///< log2 M (8 bits)
inline constexpr unsigned kInfoCopiesLsb = 16;   ///< P (8 bits)
inline constexpr unsigned kInfoMinVlenLsb = 24;  ///< log2 of the smallest m (8 bits)

/// Reset value of CTRL: VQ on, m = M.
constexpr uint32_t ctrl_reset(const VqParams& p) {
  return (1U << kCtrlVqEnBit) | (p.row_log2() << kCtrlVlenLsb);
}
constexpr uint32_t info_value(const VqParams& p) {
  return (p.index_bits() << kInfoRowsLog2Lsb) | (p.row_log2() << kInfoRowLog2Lsb) |
         (p.copies << kInfoCopiesLsb) | (p.min_vlen_log2() << kInfoMinVlenLsb);
}

/// The register map of a dequantizer with parameters p.
regmap::RegisterMap register_map(const VqParams& p);
}  // namespace vq_csr

}  // namespace npugen::golden
