#include "npugen/golden/zs/array_model.hpp"

#include <algorithm>
#include <stdexcept>

#include "npugen/golden/pe_array/operand.hpp"

namespace npugen::golden {

ZeroSkipArrayModel::ZeroSkipArrayModel(const ZeroSkipParams& params)
    : p_(params),
      layout_(ControlLayout::of(params)),
      window_(params.window()),
      acc_mask_(params.array.acc_width >= 64 ? ~uint64_t{0}
                                             : (uint64_t{1} << params.array.acc_width) - 1) {
  if (p_.array.tiles == 0 || p_.array.lanes == 0 || p_.act_rows_per_cycle == 0 ||
      p_.step_buffer_depth == 0) {
    throw std::invalid_argument("ZeroSkipArrayModel: tiles, lanes, R and buffer depth >= 1");
  }
  reset();
}

void ZeroSkipArrayModel::reset() {
  fifo_.assign(p_.step_buffer_depth, StreamStep{});
  fifo_head_ = 0;
  fifo_count_ = 0;
  loading_ = false;
  loaded_ = 0;
  base_ = 0;
  window_rows_.assign(size_t{window_} * p_.array.lanes, 0);
  jobs_started_ = 0;
  cmp_valid_ = false;
  cmp_ = StreamStep{};
  tree_.reset(p_.array.tree_stages,
              InFlight{false, false, false, std::vector<uint64_t>(p_.array.tiles, 0),
                       std::vector<uint8_t>(p_.array.tiles, 0)});
  acc_.assign(p_.array.tiles, 0);
  acc_valid_ = false;
}

ZeroSkipArrayModel::Request ZeroSkipArrayModel::request(bool hold) const {
  Request r;
  if (fifo_count_ == 0 || hold) return r;
  const StepControl& head = fifo_[fifo_head_].control;
  r.en = true;
  r.start = !loading_;
  r.fresh = head.first ? window_ : std::min<unsigned>(head.advance, window_);
  // A step that does not advance (only a malformed stream has one) loads nothing new
  // but still takes a cycle, like the RTL.
  r.done = loading_ ? loaded_ : 0;
  r.new_base = r.start ? (head.first ? head.advance : base_ + head.advance) : base_;
  r.count = std::min(p_.act_rows_per_cycle, r.fresh > r.done ? r.fresh - r.done : 0U);
  r.row = r.new_base + window_ - r.fresh + r.done;
  return r;
}

ZeroSkipOutputs ZeroSkipArrayModel::outputs(const ZeroSkipInputs& in) const {
  const Request r = request(acc_valid_ && !in.acc_ready);
  ZeroSkipOutputs o;
  o.step_ready = fifo_count_ < p_.step_buffer_depth;
  o.act_rd_en = r.en;
  o.act_rd_row = r.en ? r.row : 0;
  o.act_rd_count = r.en ? r.count : 0;
  const bool new_job = r.start && fifo_[fifo_head_].control.first;
  o.act_rd_job = r.en ? jobs_started_ + (new_job ? 1 : 0) - 1 : 0;
  o.acc_valid = acc_valid_;
  o.acc = acc_;
  return o;
}

void ZeroSkipArrayModel::compute(InFlight& into) {
  const unsigned tiles = p_.array.tiles;
  const unsigned lanes = p_.array.lanes;
  const unsigned h = p_.intra.lookahead;
  const unsigned big_h = p_.inter.lookahead;
  const unsigned selects = p_.lane_selects();
  const StepControl& c = cmp_.control;
  for (unsigned t = 0; t < tiles; ++t) {
    uint64_t sum = 0;
    const unsigned a = c.tile_offset[t];
    for (unsigned l = 0; l < lanes; ++l) {
      const unsigned sel = c.lane_select[size_t{t} * lanes + l];
      const uint64_t w = extend_operand(cmp_.weights[size_t{t} * lanes + l], p_.array.weight_width,
                                        p_.array.weight_signed);
      // Mux inputs that do not exist (codes past the last, lanes off the edge, offsets
      // past H) read zero.
      uint64_t act = 0;
      if (sel < selects && a <= big_h) {
        unsigned dc = 0;
        int dl = 0;
        p_.lane_select_of(sel, dc, dl);
        const int lane = static_cast<int>(l) + dl;
        if (dc <= h && lane >= 0 && lane < static_cast<int>(lanes)) {
          act = window_rows_[size_t{a + dc} * lanes + static_cast<unsigned>(lane)];
        }
      }
      sum += w * act;
    }
    into.sums[t] = sum;
    into.dest[t] = c.dest[t];
  }
}

void ZeroSkipArrayModel::tick(const ZeroSkipInputs& in) {
  const unsigned tiles = p_.array.tiles;
  const unsigned lanes = p_.array.lanes;
  const bool ready = fifo_count_ < p_.step_buffer_depth;
  const bool hold = acc_valid_ && !in.acc_ready;
  const Request r = request(hold);
  if (hold) {  // the results wait: only the buffers take a step
    push(in, ready);
    return;
  }

  // Compute stage: the products of the step in the compute registers enter the trees,
  // reading the window as it is before this edge.
  InFlight& entering = tree_.entering();
  entering.valid = cmp_valid_;
  entering.first = cmp_valid_ && cmp_.control.first;
  entering.last = cmp_valid_ && cmp_.control.last;
  if (cmp_valid_) compute(entering);
  const InFlight& leaving = tree_.advance();
  if (leaving.valid) {
    std::vector<uint64_t> next(tiles, 0);
    for (unsigned t = 0; t < tiles; ++t) next[t] = leaving.first ? 0 : acc_[t];
    for (unsigned t = 0; t < tiles; ++t) {
      const unsigned to = t + leaving.dest[t];
      if (leaving.dest[t] <= p_.inter.lookaside && to < tiles) next[to] += leaving.sums[t];
    }
    for (unsigned t = 0; t < tiles; ++t) acc_[t] = next[t] & acc_mask_;
  }
  acc_valid_ = leaving.valid && leaving.last;

  // Load stage.
  bool pop = false;
  if (r.en) {
    if (r.start) {
      const unsigned shift = r.fresh;
      if (shift < window_) {
        std::copy(window_rows_.begin() + static_cast<ptrdiff_t>(size_t{shift} * lanes),
                  window_rows_.end(), window_rows_.begin());
      }
      base_ = r.new_base;
      if (fifo_[fifo_head_].control.first) ++jobs_started_;
    }
    if (in.act_rd_data.size() < size_t{r.count} * lanes) {
      throw std::invalid_argument("ZeroSkipArrayModel::tick: act_rd_data holds too few rows");
    }
    for (unsigned k = 0; k < r.count; ++k) {
      const size_t slot = window_ - r.fresh + r.done + k;
      for (unsigned l = 0; l < lanes; ++l) {
        window_rows_[slot * lanes + l] = extend_operand(in.act_rd_data[size_t{k} * lanes + l],
                                                        p_.array.act_width, p_.array.act_signed);
      }
    }
    pop = r.done + r.count >= r.fresh;
    loading_ = !pop;
    loaded_ = pop ? 0 : r.done + r.count;
  }
  cmp_valid_ = pop;
  if (pop) {
    std::swap(cmp_, fifo_[fifo_head_]);
    fifo_head_ = fifo_head_ + 1 == fifo_.size() ? 0 : fifo_head_ + 1;
    --fifo_count_;
  }
  push(in, ready);
}

void ZeroSkipArrayModel::push(const ZeroSkipInputs& in, bool ready) {
  if (!in.step_valid || !ready) return;
  if (in.step == nullptr) throw std::invalid_argument("ZeroSkipArrayModel::tick: no step");
  const size_t tail = (fifo_head_ + fifo_count_) % fifo_.size();
  fifo_[tail] = *in.step;
  ++fifo_count_;
}

}  // namespace npugen::golden
