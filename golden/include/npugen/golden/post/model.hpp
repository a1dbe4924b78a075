// Cycle model of the generated post unit at its ports. A beat of P accumulators (bias not
// yet added) for the channels of one group (channels g*P .. g*P + P - 1, the first `count`
// of them valid) enters on a valid/ready stream with the output's zero point and clamp;
// its P int8 results leave three cycles later on another, in order. Per-channel bias,
// multiplier and shift come from a table written a group at a time on the parameter port.
//
// Timing. in_ready_o = !out_valid_o || out_ready_i: the pipeline's registers move together
// whenever the output is free, so a continuous stream moves one beat per cycle. A table
// write never holds a beat (the table has a write port and a read port); a beat accepted at
// the edge of a write to its group reads the group's old entry.
#pragma once

#include <cstdint>
#include <vector>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/post/params.hpp"
#include "npugen/golden/post/requant.hpp"

namespace npugen::golden {

/// One channel's entry of the parameter table.
struct PostChannel {
  int32_t bias = 0;
  int32_t multiplier = 0;
  int shift = 0;  ///< -31 to 30
  bool operator==(const PostChannel&) const = default;
};

/// The output's zero point and clamp a beat carries (int8 each; act_min <= act_max).
struct PostOutputRange {
  int32_t zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
  bool operator==(const PostOutputRange&) const = default;
};

struct PostInputs {
  bool in_valid = false;
  std::vector<int32_t> acc;  ///< P accumulators
  unsigned group = 0;        ///< channel group
  unsigned count = 1;        ///< valid lanes, 1 to P
  PostOutputRange output;    ///< the beat's output zero point and clamp
  bool out_ready = false;
  bool param_we = false;
  unsigned param_group = 0;
  std::vector<PostChannel> param;  ///< P entries
  ApbRequest apb;
};

struct PostOutputs {
  bool in_ready = false;
  bool out_valid = false;
  std::vector<int32_t> out;  ///< P results (int8 values), meaningful for the first count
  unsigned out_count = 0;
  ApbResponse apb;
};

class PostModel {
 public:
  explicit PostModel(const PostParams& params);

  [[nodiscard]] PostOutputs outputs(const PostInputs& in) const;
  void tick(const PostInputs& in);

  [[nodiscard]] const PostParams& params() const { return p_; }
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }
  [[nodiscard]] const PostChannel& channel(unsigned c) const { return table_[c]; }

 private:
  struct Beat {
    bool valid = false;
    std::vector<int32_t> values;  ///< stage 0: accumulators; later: results
    std::vector<PostChannel> channels;
    unsigned count = 0;
    PostOutputRange output;
  };
  [[nodiscard]] bool in_ready(const PostInputs& in) const;

  PostParams p_;
  regmap::RegisterMap map_;
  std::vector<PostChannel> table_;  ///< by channel
  std::vector<Beat> stage_;  ///< pipeline_stages beats: [0] accepted, the last on the outputs
};

}  // namespace npugen::golden
