#include "blocks/vq/vq.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "emit/cpp_literal.hpp"
#include "npugen/golden/common/bits.hpp"

namespace npugen::blocks::vq {
namespace {

constexpr std::string_view kName = "vq";

VqConfig read_section(config::Reader& r, config::Section& root, const config::Config&) {
  VqConfig v;
  golden::VqParams& p = v.params;
  config::Section s = root.section(
      "vq",
      "Vector-quantized weight dequantizer (docs/vq.md): weights stored as indices into a codebook "
      "of N rows x M weights, looked up inline by P copies of the codebook. Absent or disabled: "
      "not generated.");
  s.boolean("enabled", v.enabled, "Generate the dequantizer.");
  s.integer("rows", p.rows, golden::VqParams::kMinRows, golden::VqParams::kMaxRows,
            "N: codebook rows, a power of two; an index has log2 N bits.");
  s.integer("row_weights", p.row_weights, 1, golden::VqParams::kMaxRowWeights,
            "M: weights per codebook row (the longest vector), a power of two.");
  s.integer("copies", p.copies, 1, golden::VqParams::kMaxCopies,
            "P: physical copies of the codebook, all written at once; P lookups (P x m weights) "
            "per cycle.");
  s.integer("min_vector_length", p.min_vector_length, 1, golden::VqParams::kMaxRowWeights,
            "Smallest vector length m the hardware supports; every power of two from it to M "
            "can be chosen per layer at run time.");
  const std::string format = s.choice(
      "weight_format", p.weight.name(), "int2 to int32, uint2 to uint32, fp16 or bf16",
      "Format of the codebook's weights (the dequantizer moves their bits; the encoder rounds "
      "into it).",
      [](const std::string& text) {
        golden::WeightFormat f;
        return golden::WeightFormat::parse(text, f);
      });
  golden::WeightFormat::parse(format, p.weight);
  v.ram =
      s.choice("memory", v.ram ? "ram" : "flops", "ram or flops",
               "How each codebook copy is written: ram lets synthesis infer a memory (one "
               "write and one synchronous read port); flops makes it registers.",
               [](const std::string& text) { return text == "ram" || text == "flops"; }) == "ram";
  r.rule("vq.rows, vq.row_weights and vq.min_vector_length are powers of two.");
  for (const auto& [key, value] : {std::pair<const char*, unsigned>{"rows", p.rows},
                                   {"row_weights", p.row_weights},
                                   {"min_vector_length", p.min_vector_length}}) {
    if (r.checks({s.path_of(key)}) && !golden::is_power_of_two(value)) {
      r.refuse(s.location_of(key), s.path_of(key), fmt::format("{} is not a power of two", value));
    }
  }
  r.rule("vq.min_vector_length is at most vq.row_weights (M): a vector fits in one row.");
  if (v.enabled && r.checks({"vq.min_vector_length", "vq.row_weights"}) &&
      p.min_vector_length > p.row_weights) {
    r.error(s.location_of("min_vector_length"), s.path_of("min_vector_length"),
            fmt::format("vectors of {} weights do not fit rows of {} (vq.row_weights)",
                        p.min_vector_length, p.row_weights));
  }
  s.finish();
  return v;
}

class VqBlock : public SectionBlock<VqConfig> {
 public:
  VqBlock() : SectionBlock(kName, "the dequantizer", read_section) {}
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.modes = {"check", "throughput"};
    b.golden = {"vq"};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    const VqConfig& cfg = config_of(c);
    auto v = std::make_shared<Design>();
    v->params = cfg.params;
    v->ram = cfg.ram;
    v->weight_width = static_cast<int>(v->params.weight.width);
    v->row_width = static_cast<int>(v->params.row_weights) * v->weight_width;
    v->beat_width = static_cast<int>(v->params.copies) * v->row_width;
    v->offset_bits = static_cast<int>(v->params.row_log2());
    v->shift_bits =
        std::max(1, static_cast<int>(golden::ceil_log2(static_cast<uint64_t>(v->row_width))));
    const std::string stem = fmt::format("{}_{}", c.design.module_prefix, kName);
    v->dequant_module = stem + "_dequant";
    v->codebook_module = stem + "_codebook";
    v->package = stem + "_pkg";
    return v;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    if (d.chance(20)) return;  // absent: not generated
    YAML::Node vq(YAML::NodeType::Map);
    DrawnSection s(d, vq);
    s.always("enabled", d.chance(75));
    static const std::vector<std::string> kFormats = {"int8",  "int2",  "int3",   "int16",  "int32",
                                                      "uint4", "uint8", "uint12", "uint32", "fp16",
                                                      "bf16",  "int5",  "uint2"};
    const std::string format = d.pick(kFormats);
    golden::WeightFormat f;
    golden::WeightFormat::parse(format, f);
    const int64_t row_weights = d.power_of_two(0, 5);
    const int64_t copies = d.corner(1, 16);
    // Codebook bits in all copies: rows x M x width x P.
    const int64_t budget = d.small() ? int64_t{1} << 16 : int64_t{1} << 40;
    int64_t rows = d.power_of_two(1, 16);
    while (rows > 2 && rows * row_weights * f.width * copies > budget) rows /= 2;
    s.always("rows", rows);
    s.always("row_weights", row_weights);
    s.always("copies", copies);
    s.always("min_vector_length",
             int64_t{1} << d.range(0, golden::ceil_log2(static_cast<uint64_t>(row_weights))));
    s.always("weight_format", format);
    s.set("memory", d.chance(60) ? "ram" : "flops");
    root["vq"] = vq;
  }
};

}  // namespace

const Block& block() {
  static const VqBlock kBlock;
  return kBlock;
}

const VqConfig& config_of(const config::Config& config) {
  return config.sections.get<VqConfig>(kName);
}

nlohmann::json Design::derived_json() const {
  const auto& p = params;
  return {{"index_bits", p.index_bits()},
          {"weight_bits", weight_width},
          {"row_bits", row_width},
          {"beat_weights", p.beat_weights()},
          {"vector_lengths_log2", {p.min_vlen_log2(), p.row_log2()}},
          {"codebook_bits_per_copy", uint64_t{p.rows} * row_width},
          {"modules", {dequant_module, codebook_module}}};
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  const auto& p = params;
  return {
      SvConstant::integer("Rows", p.rows, "N: codebook rows."),
      SvConstant::integer("RowWeights", p.row_weights, "M: weights per codebook row."),
      SvConstant::integer("Copies", p.copies, "P: codebook copies = lookups per cycle."),
      SvConstant::integer("WeightWidth", weight_width, "W: bits per weight."),
      SvConstant::integer("IndexBits", p.index_bits(), "Bits of an index and of a row: log2 N."),
      SvConstant::integer("RowWidth", row_width, "Bits of a codebook row: M x W."),
      SvConstant::integer("BeatWeights", p.beat_weights(), "Weights of an output beat: P x M."),
      SvConstant::integer("BeatWidth", beat_width, "Bits of an output beat: P x M x W."),
      SvConstant::integer("RowLog2", p.row_log2(), "log2 M: the longest vector's length, log2."),
      SvConstant::integer("MinVlenLog2", p.min_vlen_log2(), "log2 of the shortest vector length."),
      SvConstant::integer("VlenBits", p.vlen_bits(), "Bits of a vector length (holds RowLog2)."),
      SvConstant::integer("OffsetBits", offset_bits,
                          "Bits of a vector's weight offset in its row: log2 M."),
      SvConstant::integer("ShiftBits", shift_bits,
                          "Bits of a row shift by an offset times W: ceil(log2(RowWidth))."),
  };
}

std::vector<std::string> Design::summary() const {
  const auto& p = params;
  return {fmt::format(
      "dequantizer {}: {} rows x {} {} weight(s) ({}), {} copies; {}-bit indices; vector length "
      "{} to {}; up to {} weights per cycle",
      dequant_module, p.rows, p.row_weights, p.weight.name(), ram ? "memories" : "registers",
      p.copies, p.index_bits(), p.min_vector_length, p.row_weights, p.beat_weights())};
}

DesignParams Design::design_params() const {
  return {{"npugen/golden/vq/params.hpp"},
          emit::cpp_constant("VqParams", "kVq", params) +
              fmt::format("static_assert(kVq.index_bits() == {}, \"golden index width differs "
                          "from the RTL's\");\n",
                          params.index_bits())};
}

}  // namespace npugen::blocks::vq
