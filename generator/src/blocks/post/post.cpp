#include "blocks/post/post.hpp"

#include <fmt/format.h>

#include "blocks/pe_array/pe_array.hpp"
#include "emit/cpp_literal.hpp"

namespace npugen::blocks::post {
namespace {

constexpr std::string_view kName = "post";
using golden::PostParams;

PostConfig read_section(config::Reader& r, config::Section& root, const config::Config& c) {
  PostConfig pc;
  PostParams& p = pc.params;
  const unsigned tiles = pe_array::params(c).tiles;
  config::Section s =
      root.section("post",
                   "Post unit (docs/post.md): TFLite int8 requantization after the accumulators "
                   "(docs/post.md), P per cycle, with a per-channel table of bias, multiplier and "
                   "shift. Absent or disabled: not generated.");
  s.boolean("enabled", pc.enabled, "Generate the post unit.");
  s.integer("lanes", p.lanes, 1, PostParams::kMaxLanes,
            "P: requantizations per cycle (each a 32 x 32 multiplier); divides pe_array.tiles.");
  s.integer("max_channels", p.max_channels, 1, PostParams::kMaxChannels,
            "Output channels the parameter table holds.");
  s.integer("pipeline_stages", p.pipeline_stages, PostParams::kMinStages, PostParams::kMaxStages,
            "Registers from a beat's acceptance to its results (docs/post.md): 3 (the table "
            "read, the product, the result); each more cuts the longest stage left: 4 before "
            "the 32 x 32 multiply, 5 before the rounding divide, 6 between the multiply's two "
            "32 x 16 halves and their sum, 7 before the zero point and clamp, 8 between the "
            "table's read and the bias add.");
  r.rule("post.lanes divides pe_array.tiles: a filter block's results are whole groups.");
  if (pc.enabled && r.checks({"post.lanes", "pe_array.tiles"}) && tiles % p.lanes != 0) {
    r.error(s.location_of("lanes"), s.path_of("lanes"),
            fmt::format("{} lanes do not divide the {} tiles of pe_array", p.lanes, tiles));
  }
  s.finish();
  return pc;
}

class PostBlock : public SectionBlock<PostConfig> {
 public:
  PostBlock() : SectionBlock(kName, "the post unit", read_section) {}
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.modes = {"check", "throughput"};
    b.golden = {"post"};
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    d->params = config_of(c).params;
    d->entry_width = static_cast<int>(64 + PostParams::kShiftBits);
    const std::string stem = fmt::format("{}_{}", c.design.module_prefix, kName);
    d->post_module = stem;
    d->ram_module = fmt::format("{}_ram_1r1w", c.design.module_prefix);
    d->package = stem + "_pkg";
    return d;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    if (d.chance(30)) return;  // absent: not generated
    const int64_t tiles = root["pe_array"]["tiles"].as<int64_t>(1);
    std::vector<int64_t> divisors;
    for (int64_t l = 1; l <= std::min<int64_t>(tiles, PostParams::kMaxLanes); ++l) {
      if (tiles % l == 0) divisors.push_back(l);
    }
    YAML::Node post(YAML::NodeType::Map);
    DrawnSection s(d, post);
    s.always("enabled", d.chance(70));
    s.always("lanes",
             divisors[static_cast<size_t>(d.range(0, static_cast<int64_t>(divisors.size()) - 1))]);
    s.set("max_channels", d.corner(1, d.small() ? 64 : 4096));
    root["post"] = post;
  }
};

}  // namespace

const Block& block() {
  static const PostBlock kBlock;
  return kBlock;
}

const PostConfig& config_of(const config::Config& config) {
  return config.sections.get<PostConfig>(kName);
}

nlohmann::json Design::derived_json() const {
  return {{"groups", params.groups()},
          {"group_bits", params.group_bits()},
          {"entry_bits", entry_width},
          {"modules", {post_module, ram_module}}};
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  const auto& p = params;
  return {
      SvConstant::integer("Lanes", p.lanes, "P: requantizations per cycle."),
      SvConstant::integer("Groups", p.groups(), "Channel groups of the table: ceil(channels / P)."),
      SvConstant::integer("GroupBits", p.group_bits(), "Bits of a channel group."),
      SvConstant::integer("CountBits", p.count_bits(), "Bits of a beat's lane count (1 to P)."),
      SvConstant::integer("ShiftBits", PostParams::kShiftBits, "Bits of a signed shift."),
      SvConstant::integer("EntryWidth", entry_width,
                          "Bits of a table entry: {shift, multiplier, bias}."),
      SvConstant::integer("Stages", p.pipeline_stages,
                          "Registers from a beat's acceptance to its results (3 to 8)."),
  };
}

std::vector<std::string> Design::summary() const {
  return {
      fmt::format("post unit {}: {} TFLite int8 requantization(s) per cycle, a table of {} "
                  "channel(s) ({} group(s) of {}), {} pipeline stages",
                  post_module, params.lanes, params.max_channels, params.groups(), params.lanes,
                  params.pipeline_stages)};
}

DesignParams Design::design_params() const {
  return {{"npugen/golden/post/params.hpp"},
          emit::cpp_constant("PostParams", "kPost", params) +
              fmt::format("static_assert(kPost.groups() == {}, \"golden table size differs from "
                          "the RTL's\");\n",
                          params.groups())};
}

}  // namespace npugen::blocks::post
