// The post unit: P TFLite int8 requantizations per cycle after the
// accumulators, with a per-channel parameter table; the output's zero point and clamp come
// with each beat (section `post`).
#pragma once

#include <string>

#include "blocks/block.hpp"
#include "elab/sv_constant.hpp"
#include "npugen/golden/post/params.hpp"

namespace npugen::blocks::post {

const Block& block();

/// post.pipeline_stages from which the product is computed in four registered parts
/// (docs/post.md).
constexpr unsigned kSplitProductStages = 6;

/// The `post` section.
struct PostConfig {
  bool enabled = false;
  golden::PostParams params;
};
const PostConfig& config_of(const config::Config& config);

class Design : public BlockDesign {
 public:
  golden::PostParams params;  ///< also what the co-simulation's golden model gets
  int entry_width = 0;        ///< bits of a table entry: bias, multiplier, shift (elaborated)

  std::string post_module;  ///< the top
  std::string ram_module;   ///< the memory of the parameter table's lanes
  std::string package;      ///< its package

  [[nodiscard]] elab::SvConstants constants() const;

  [[nodiscard]] const Block& block() const override { return post::block(); }
  [[nodiscard]] std::string top() const override { return post_module; }
  BlockFiles emit(const elab::Design& design, util::FileMap& files) const override;
  [[nodiscard]] nlohmann::json derived_json() const override;
  [[nodiscard]] std::vector<std::string> summary() const override;
  [[nodiscard]] DesignParams design_params() const override;
};

}  // namespace npugen::blocks::post
