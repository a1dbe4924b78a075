#include "npugen/golden/vq/params.hpp"

#include <fmt/format.h>

#include <regex>

namespace npugen::golden {

std::string WeightFormat::name() const {
  switch (kind) {
    case WeightKind::kInt:
      return fmt::format("int{}", width);
    case WeightKind::kUint:
      return fmt::format("uint{}", width);
    case WeightKind::kFp16:
      return "fp16";
    case WeightKind::kBf16:
      return "bf16";
  }
  return "?";
}

bool WeightFormat::parse(const std::string& text, WeightFormat& out) {
  if (text == "fp16" || text == "bf16") {
    out = {text == "fp16" ? WeightKind::kFp16 : WeightKind::kBf16, 16};
    return true;
  }
  if (text.size() > 6) return false;  // "uint32" is the longest
  static const std::regex kInt("(u?)int([0-9]{1,2})");
  std::smatch m;
  if (!std::regex_match(text, m, kInt)) return false;
  const unsigned width = static_cast<unsigned>(std::stoul(m[2].str()));
  if (width < 2 || width > 32) return false;
  out = {m[1].length() > 0 ? WeightKind::kUint : WeightKind::kInt, width};
  return true;
}

namespace vq_csr {

regmap::RegisterMap register_map(const VqParams& p) {
  using regmap::Access;
  const uint32_t info = info_value(p);
  auto info_field = [&](const char* name, unsigned lsb, std::string doc) {
    return regmap::Field{name, lsb, 8, Access::kRO, (info >> lsb) & 0xffU, false, std::move(doc)};
  };
  regmap::RegisterMap map;
  map.block = "vq";
  map.title = "Registers of the dequantizer";
  map.doc = fmt::format(
      "Codebook: {} rows x {} {} weight(s), {} copies ({} lookups per cycle), {}-bit indices. "
      "The registers sit on an APB port with no wait states; an address with no register "
      "reads 0 and answers PSLVERR.",
      p.rows, p.row_weights, p.weight.name(), p.copies, p.copies, p.index_bits());
  map.registers = {
      {"CTRL",
       kCtrl,
       "Layer configuration. A write takes effect for the lookups accepted after it; lookups "
       "already accepted keep theirs, so a layer change costs no cycle.",
       {{"VQ_EN", kCtrlVqEnBit, 1, Access::kRW, 1, false,
         "1: in_index_i holds codebook indices; 0: VQ off, in_raw_i passes to the output"},
        {"VLEN_LOG2", kCtrlVlenLsb, kCtrlVlenBits, Access::kRW, p.row_log2(), false,
         fmt::format("log2 of the vector length m, {} to {} (m = {} to {}); a write naming "
                     "another length is ignored whole and sets STATUS.CFG_ERR",
                     p.min_vlen_log2(), p.row_log2(), p.min_vector_length, p.row_weights)}}},
      {"BASE",
       kBase,
       "Base row of the virtual table in use: vector i of length m is read from row "
       "BASE + i / (M/m), weights (i mod M/m) x m onwards.",
       {{"ROW", 0, p.index_bits(), Access::kRW, 0, false,
         fmt::format("base row, 0 to {}", p.rows - 1)}}},
      {"STATUS",
       kStatus,
       "Sticky error flags; write 1 to clear. A flag set and cleared in the same cycle stays "
       "set.",
       {{"INDEX_ERR", kStatusIndexErrBit, 1, Access::kW1C, 0, true,
         "a lookup's row (BASE + i / (M/m)) was outside the table; its weights read as 0 "
         "(also on err_o)"},
        {"CFG_ERR", kStatusCfgErrBit, 1, Access::kW1C, 0, true,
         "a CTRL write named an unsupported vector length; it was ignored"}}},
      {"INFO",
       kInfo,
       "The hardware's parameters (read only).",
       {info_field("ROWS_LOG2", kInfoRowsLog2Lsb,
                   fmt::format("log2 N (N = {} rows); also the index width", p.rows)),
        info_field("ROW_LOG2", kInfoRowLog2Lsb,
                   fmt::format("log2 M (M = {} weights per row)", p.row_weights)),
        info_field("COPIES", kInfoCopiesLsb, "P: codebook copies = lookups per cycle"),
        info_field("MIN_VLEN_LOG2", kInfoMinVlenLsb,
                   fmt::format("log2 of the smallest vector length ({})", p.min_vector_length))}},
  };
  return map;
}

}  // namespace vq_csr
}  // namespace npugen::golden
