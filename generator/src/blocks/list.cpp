// The block list: the one place that names every block, in schema order. Adding a block
// adds its include and its entry here, and nothing else outside its own folders.
#include "blocks/agu/agu.hpp"
#include "blocks/block.hpp"
#include "blocks/npu/npu.hpp"
#include "blocks/pe_array/pe_array.hpp"
#include "blocks/planar/planar.hpp"
#include "blocks/post/post.hpp"
#include "blocks/sequencer/sequencer.hpp"
#include "blocks/tasks/tasks.hpp"
#include "blocks/vq/vq.hpp"
#include "blocks/zs/zs.hpp"

namespace npugen::blocks {

const std::vector<const Block*>& all() {
  static const std::vector<const Block*> kBlocks = {
      &pe_array::block(), &zs::block(),        &vq::block(),     &tasks::block(), &agu::block(),
      &post::block(),     &sequencer::block(), &planar::block(), &npu::block()};
  return kBlocks;
}

}  // namespace npugen::blocks
