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

std::vector<Register> register_map(const VqParams& p) {
  const uint32_t ctrl = ctrl_reset(p);
  const uint32_t info = info_value(p);
  return {
      {"CTRL",
       kCtrl,
       "Layer configuration. A write takes effect for the lookups accepted after it; lookups "
       "already accepted keep theirs, so a layer change costs no cycle.",
       {{"VQ_EN", kCtrlVqEnBit, 1, "rw", (ctrl >> kCtrlVqEnBit) & 1,
         "1: in_index_i holds codebook indices; 0: VQ off, in_raw_i passes to the output"},
        {"VLEN_LOG2", kCtrlVlenLsb, kCtrlVlenBits, "rw", p.row_log2(),
         fmt::format("log2 of the vector length m, {} to {} (m = {} to {}); a write naming "
                     "another length is ignored and sets STATUS.CFG_ERR",
                     p.min_vlen_log2(), p.row_log2(), p.min_vector_length, p.row_weights)}}},
      {"BASE",
       kBase,
       "Base row of the virtual table in use: vector i of length m is read from row "
       "BASE + i / (M/m), weights (i mod M/m) x m onwards.",
       {{"ROW", 0, p.index_bits(), "rw", 0, fmt::format("base row, 0 to {}", p.rows - 1)}}},
      {"STATUS",
       kStatus,
       "Sticky error flags; write 1 to clear. A flag set and cleared in the same cycle stays set.",
       {{"INDEX_ERR", kStatusIndexErrBit, 1, "w1c", 0,
         "a lookup's row (BASE + i / (M/m)) was outside the table; its weights read as 0 "
         "(also on err_o)"},
        {"CFG_ERR", kStatusCfgErrBit, 1, "w1c", 0,
         "a CTRL write named an unsupported vector length; it was ignored"}}},
      {"INFO",
       kInfo,
       "The hardware's parameters (read only).",
       {{"ROWS_LOG2", kInfoRowsLog2Lsb, 8, "ro", (info >> kInfoRowsLog2Lsb) & 0xff,
         fmt::format("log2 N (N = {} rows); also the index width", p.rows)},
        {"ROW_LOG2", kInfoRowLog2Lsb, 8, "ro", (info >> kInfoRowLog2Lsb) & 0xff,
         fmt::format("log2 M (M = {} weights per row)", p.row_weights)},
        {"COPIES", kInfoCopiesLsb, 8, "ro", (info >> kInfoCopiesLsb) & 0xff,
         "P: codebook copies = lookups per cycle"},
        {"MIN_VLEN_LOG2", kInfoMinVlenLsb, 8, "ro", (info >> kInfoMinVlenLsb) & 0xff,
         fmt::format("log2 of the smallest vector length ({})", p.min_vector_length)}}},
  };
}

}  // namespace vq_csr
}  // namespace npugen::golden
