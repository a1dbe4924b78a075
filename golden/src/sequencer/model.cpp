#include "npugen/golden/sequencer/model.hpp"

#include <algorithm>
#include <stdexcept>

#include "npugen/golden/common/bits.hpp"

namespace npugen::golden {
namespace {

using namespace sequencer_csr;

uint64_t mask_bits(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

}  // namespace

SequencerModel::SequencerModel(const SequencerDesign& design)
    : d_(design),
      map_(sequencer_csr::register_map(design)),
      agu_(design.agu),
      array_(design.array),
      post_(design.post) {
  const size_t lanes = d_.lanes(), row = d_.row_bytes(), srow = d_.store_row_bytes();
  for (auto& b : buf_) b.assign(d_.agu.act_words * lanes, 0);
  store_.assign(d_.agu.weight_rows * srow, 0);
  for (auto& c : cache_) c.assign(size_t{d_.seq.cache_rows} * row, 0);
  for (auto& o : act_out_) o.assign(lanes, 0);
  window_.assign(size_t{d_.agu.mec_window} * lanes, 0);
  window_out_.assign(lanes, 0);
  store_out_.assign(srow, 0);
  if (d_.zs) {
    zs_.emplace(*d_.zs);
    stage_.assign(size_t{d_.zs_stage_rows()} * lanes, 0);
  }
  for (auto& o : cache_out_) o.assign(row, 0);
  dr_acc_.assign(d_.tiles(), 0);
}

bool SequencerModel::busy() const {
  return agu_.busy() || s1_.valid || !results_.empty() || dr_valid_ || !beats_.empty() ||
         zs_outstanding();
}

bool SequencerModel::zs_outstanding() const {
  if (s1_.valid && s1_.zs) return true;
  if (rp_active_) return true;
  for (unsigned h = 0; h < SequencerDesign::kZsSlots; ++h) {
    if (full_[h] || jobs_[h] > 0) return true;
  }
  return false;
}

StreamStep SequencerModel::zs_step_of(const std::vector<uint8_t>& row, unsigned& filters,
                                      bool& end) const {
  const ControlLayout layout = ControlLayout::of(*d_.zs);
  StreamStep step;
  const unsigned n = d_.row_bytes();
  step.weights.resize(n);
  for (unsigned i = 0; i < n; ++i) step.weights[i] = row[i];
  std::vector<uint32_t> words((layout.width() + 31) / 32, 0);
  for (unsigned b = 0; b < layout.width(); ++b) {
    if (get_bits(row, d_.zs_ctrl_lsb() + b, 1) != 0) words[b / 32] |= 1U << (b % 32);
  }
  step.control = unpack_control(layout, words);
  filters = static_cast<unsigned>(get_bits(row, d_.zs_filters_lsb(), d_.agu.filters_bits()));
  end = get_bits(row, d_.zs_end_bit(), 1) != 0;
  return step;
}

uint32_t SequencerModel::read_own(uint32_t offset) const {
  switch (offset) {
    case kStatus:
      return (busy() ? 1U << kBusyBit : 0) | (cache_bypass_ ? 1U << kCacheBypassBit : 0);
    case kInfo:
      return d_.seq.cache_rows << kCacheRowsLsb;
    case kLayersDone:
      return layers_done_ & 0xffffU;
    case kCycles:
      return cycles_reg_;
    case kSteps:
      return steps_reg_;
    case kActReads:
      return act_reads_reg_;
    case kWeightReads:
      return weight_reads_reg_;
    case kWrites:
      return writes_reg_;
    case kWindowReads:
      return window_reads_reg_;
    default:
      return 0;
  }
}

std::vector<int32_t> SequencerModel::beat_values(unsigned beat) const {
  const unsigned p = d_.post.lanes;
  std::vector<int32_t> v(p, 0);
  if (dr_.dataflow == Dataflow::kFcBatch) {
    v[dr_.src_lane] = dr_acc_[beat];
  } else {
    for (unsigned l = 0; l < p; ++l) v[l] = dr_acc_[beat * p + l];
  }
  return v;
}

void SequencerModel::classify(const AddressSet& s, Cycle& c) const {
  const unsigned tiles = d_.tiles(), p = d_.post.lanes;
  const Dataflow flow = s.layer.dataflow;
  Front f = front_;
  Stage1 st;
  st.valid = true;
  st.load = s.load;
  st.first = s.first, st.last = s.last;
  st.in_buf = s.layer.in_buf;
  st.pad_value = static_cast<uint8_t>(s.layer.pad_value);
  st.tile = s.tile;
  // The layer's and the block's first set: the post groups of their first filters.
  if (s.layer_first) {
    f.rknown = false, f.rcount = 0, f.bypass = false;
    f.blk_grp = s.layer.param_base, f.z_grp = s.layer.param_base, f.z_lane = 0;
  } else if (s.block_first && flow != Dataflow::kFcBatch) {
    f.blk_grp += tiles / p;
  }
  f.crow = s.first ? 0 : f.crow + 1;
  st.crow = f.crow;
  if (flow == Dataflow::kConv) {
    if (s.block_first) {
      // A new filter block: the other cache set; filled by its first pixel unless its rows
      // were preloaded there.
      f.cset ^= 1U;
      f.fill = !pl_.done;
      f.blk_row = s.wrow;
      f.pl_started = false;
      c.pl_abandon = true;
    }
    const bool fill = f.fill;
    if (!f.rknown) {
      ++f.rcount;
      if (s.last) {
        f.rows = f.rcount, f.rknown = true;
        if (f.rows > d_.seq.cache_rows) f.bypass = true, c.set_bypass = true;
      }
    }
    st.weight = fill || f.bypass ? WeightSource::kStore : WeightSource::kCache;
    st.fill = fill && !f.bypass && f.crow < d_.seq.cache_rows;
    st.cset = f.cset;
    // MEC: a reused word comes from the window; every other word read goes into it.
    const bool mec = s.layer.order == Order::kMec;
    st.act = s.pad ? ActSource::kPad : mec && s.reuse ? ActSource::kWindow : ActSource::kBuffer;
    st.win_write = mec && !s.pad && !s.reuse;
    st.win = s.win;
    if (st.act == ActSource::kWindow) c.read_win = true, c.win_addr = s.win;
    if (s.last) f.fill = false;
    // The next block's preload starts with the first pixel that reads the cache.
    if (s.first && !fill && f.rknown && !f.bypass && !s.block_last && !f.pl_started) {
      f.pl_started = true;
      c.pl_start = true;
    }
  } else if (flow == Dataflow::kFc) {
    st.weight = WeightSource::kStore;
    st.act = s.pad ? ActSource::kPad : ActSource::kBuffer;
  } else if (flow == Dataflow::kZeroSkip) {
    // Staged, no step: the word (or the pad value) goes into row zrow of its slot.
    st.zs = true;
    st.act = s.pad ? ActSource::kPad : ActSource::kBuffer;
    f.zrow = s.first ? 0 : f.zrow + 1;
    st.zslot = f.zslot, st.zrow = f.zrow;
    ZsPixel px = s.first ? ZsPixel{} : px_[f.zslot];
    if (s.first) {
      px.wbase = s.wrow;
      px.out_buf = s.layer.out_buf;
      px.out_addr = s.out_addr, px.out_lane = s.out_lane;
      px.group = f.blk_grp & static_cast<unsigned>(mask_bits(d_.post.group_bits()));
      px.range = PostOutputRange{s.layer.zero_point, s.layer.act_min, s.layer.act_max};
    }
    px.layer_end = s.layer_end;
    c.zs_take = true;
    c.zs_px = px;
    if (s.last) f.zslot = next_slot(f.zslot);
  } else {
    if (s.layer_first) f.cset ^= 1U;  // the features go to the other set
    st.cset = f.cset;
    st.act = s.load ? ActSource::kBuffer : ActSource::kStoreSlice;
    st.weight = WeightSource::kCache;
  }
  st.uses_act = st.act == ActSource::kBuffer;
  st.uses_store =
      !s.load && !st.zs && (st.weight == WeightSource::kStore || st.act == ActSource::kStoreSlice);
  const bool uses_cache = !s.load && !st.zs && st.weight == WeightSource::kCache;
  if (st.uses_act) c.read_act[st.in_buf] = true, c.act_addr = s.act_addr;
  if (st.uses_store) c.read_store = true, c.store_addr = s.wrow;
  if (uses_cache) c.read_cache[st.cset] = true, c.cache_addr = st.crow;
  if (s.last && !s.load && !st.zs) {
    Result& r = c.result;
    r.dataflow = flow;
    r.out_buf = s.layer.out_buf;
    r.out_addr = s.out_addr, r.out_lane = s.out_lane;
    r.filters = s.filters;
    const unsigned group_mask = static_cast<unsigned>(mask_bits(d_.post.group_bits()));
    r.group = (flow == Dataflow::kFcBatch ? f.z_grp : f.blk_grp) & group_mask;
    r.src_lane = flow == Dataflow::kFcBatch ? f.z_lane : 0;
    r.out_stride = s.layer.out_stride;
    r.range = PostOutputRange{s.layer.zero_point, s.layer.act_min, s.layer.act_max};
    r.layer_end = s.layer_end;
    c.push_result = true;
    if (flow == Dataflow::kFcBatch && ++f.z_lane == p) f.z_lane = 0, ++f.z_grp;
  }
  c.s1_next = st;
  c.front_next = f;
}

SequencerModel::Cycle SequencerModel::decide(const SequencerInputs& in) const {
  Cycle c;
  const unsigned tiles = d_.tiles(), lanes = d_.lanes(), p = d_.post.lanes;

  // ---- the APB windows: each block's port sees the requests that fall inside its map
  const uint32_t window = in.apb.paddr & ~(kWindowBytes - 1);
  const uint32_t offset = in.apb.paddr & (kWindowBytes - 1);
  auto routed = [&](uint32_t base, unsigned bits) {
    return window == base && offset < (uint32_t{1} << bits);
  };
  const bool to_agu = routed(kAguWindow, agu_.register_map().addr_bits());
  const bool to_post = routed(kPostWindow, post_.register_map().addr_bits());
  const bool to_own = routed(kOwnWindow, map_.addr_bits());
  ApbRequest sub = in.apb;
  sub.paddr = offset;
  if (to_agu) c.agu_in.apb = sub;
  if (to_post) c.post_in.apb = sub;

  // ---- the host port's parameter-table writes go to the post unit (it holds its input)
  const MemRequest& m = in.mem;
  const bool param_write = m.write && m.target == MemTarget::kParams;
  if (m.valid && param_write) {
    c.post_in.param_we = true;
    c.post_in.param_group = static_cast<unsigned>(m.addr & mask_bits(d_.post.group_bits()));
    c.post_in.param.resize(p);
    for (unsigned l = 0; l < p; ++l) {
      PostChannel& ch = c.post_in.param[l];
      ch.bias = static_cast<int32_t>(get_bits(m.data, param_bias_lsb(p, l), 32));
      ch.multiplier = static_cast<int32_t>(get_bits(m.data, param_multiplier_lsb(p, l), 32));
      const auto raw =
          static_cast<unsigned>(get_bits(m.data, param_shift_lsb(p, l), PostParams::kShiftBits));
      ch.shift = static_cast<int>(raw) - (raw >= (1U << (PostParams::kShiftBits - 1))
                                              ? static_cast<int>(1U << PostParams::kShiftBits)
                                              : 0);
    }
  }

  // ---- the drain's beat into the post unit, and the post unit's results into a buffer
  unsigned beats = 0;
  if (dr_valid_) {
    beats = dr_.dataflow == Dataflow::kFcBatch ? dr_.filters : (dr_.filters + p - 1) / p;
    c.post_in.in_valid = true;
    c.post_in.acc = beat_values(dr_beat_);
    c.post_in.group = dr_grp_;
    c.post_in.count = dr_.dataflow == Dataflow::kFcBatch ? dr_.src_lane + 1
                                                         : std::min(p, dr_.filters - dr_beat_ * p);
    c.post_in.output = dr_.range;
  } else {
    c.post_in.acc.assign(p, 0);
  }
  c.post_in.out_ready = true;
  c.post_out = post_.outputs(c.post_in);
  bool engine_writes[2] = {false, false};
  if (c.post_out.out_valid) {
    const Beat& b = beats_.front();
    BufferWrite& w = c.out.write;
    w.valid = true, w.buf = b.buf, w.addr = b.word;
    w.data.assign(lanes, 0);
    for (unsigned i = 0; i < b.count; ++i) {
      w.data[b.dst + i] = static_cast<uint8_t>(c.post_out.out[b.src + i]);
      w.mask |= uint64_t{1} << (b.dst + i);
    }
    engine_writes[b.buf] = true;
    c.out.layer_done = b.layer_end;
  }
  c.beat_taken = dr_valid_ && c.post_out.in_ready;
  c.last_beat = dr_beat_ + 1 == beats;
  const bool drain_free = !dr_valid_ || (c.beat_taken && c.last_beat);

  // ---- the array's step from S1 and the memories' outputs
  c.step_acts.assign(lanes, 0);
  c.step_weights.assign(tiles * lanes, 0);
  if (s1_.valid && !s1_.load) {
    for (unsigned l = 0; l < lanes; ++l) {
      switch (s1_.act) {
        case ActSource::kBuffer:
          c.step_acts[l] = act_out_[s1_.in_buf][l];
          break;
        case ActSource::kPad:
          c.step_acts[l] = s1_.pad_value;
          break;
        case ActSource::kStoreSlice:
          c.step_acts[l] = store_out_[s1_.tile * lanes + l];
          break;
        case ActSource::kWindow:
          c.step_acts[l] = window_out_[l];
          break;
      }
    }
    const std::vector<uint8_t>& w =
        s1_.weight == WeightSource::kCache ? cache_out_[s1_.cset] : store_out_;
    for (unsigned i = 0; i < tiles * lanes; ++i) c.step_weights[i] = w[i];
  }
  c.array_in.valid = s1_.valid && !s1_.load && !s1_.zs;
  c.array_in.first = s1_.first;
  c.array_in.last = s1_.last;
  c.array_in.acts = c.step_acts;
  c.array_in.weights = c.step_weights;
  // The drain takes the results of the dot product at the head of the queue, from the array
  // that computes it.
  const bool front_zs = !results_.empty() && results_.front().dataflow == Dataflow::kZeroSkip;
  c.array_in.acc_ready = drain_free && !front_zs;
  const PeArrayOutputs array_out = array_.outputs(c.array_in);
  c.acc_taken = array_out.acc_valid && c.array_in.acc_ready;
  if (c.acc_taken) {
    c.acc.resize(tiles);
    for (unsigned t = 0; t < tiles; ++t) c.acc[t] = static_cast<int32_t>(array_out.acc[t]);
  }
  c.s1_adv = s1_.valid && (s1_.load || s1_.zs || array_out.step_ready);

  // ---- zero skipping: the replayed step into the array, its rows from the staged slot
  bool& zs_end = c.zs_end;
  if (zs_) {
    unsigned filters = 0;
    if (st_valid_) {
      c.zs_step = zs_step_of(store_out_, filters, zs_end);
      // A job's first step points the array at the slot its window is staged in.
      if (c.zs_step.control.first) c.zs_step.control.advance += rp_slot_ * d_.zs_slot_rows();
    }
    const unsigned rows = d_.zs->act_rows_per_cycle;
    c.zs_in.step_valid =
        st_valid_ && (!c.zs_step.control.last || results_.size() < d_.result_queue_depth());
    c.zs_in.step = &c.zs_step;
    c.zs_in.acc_ready = drain_free && front_zs;
    c.zs_rows.assign(size_t{rows} * lanes, 0);
    c.zs_in.act_rd_data = c.zs_rows;
    ZeroSkipOutputs zo = zs_->outputs(c.zs_in);
    if (zo.act_rd_en) {
      for (unsigned k = 0; k < rows; ++k) {
        const uint64_t r = uint64_t{zo.act_rd_row} + k;
        if (r >= d_.zs_stage_rows()) continue;
        for (unsigned l = 0; l < lanes; ++l) {
          c.zs_rows[size_t{k} * lanes + l] = stage_[r * lanes + l];
        }
      }
      c.zs_in.act_rd_data = c.zs_rows;
      zo = zs_->outputs(c.zs_in);
    }
    c.zs_push = c.zs_in.step_valid && zo.step_ready;
    c.zs_acc = zo.acc_valid && c.zs_in.acc_ready;
    if (c.zs_acc) {
      c.acc_taken = true;
      c.acc.resize(tiles);
      for (unsigned t = 0; t < tiles; ++t) {
        c.acc[t] = static_cast<int32_t>(static_cast<uint32_t>(zo.acc[t]));
      }
    }
    if (c.zs_push && c.zs_step.control.last) {
      Result& r = c.zs_result;
      const ZsPixel& px = px_[rp_slot_];
      r.dataflow = Dataflow::kZeroSkip;
      r.zslot = rp_slot_;
      r.out_buf = px.out_buf;
      r.out_addr = j_word_, r.out_lane = j_lane_;
      r.filters = filters;
      r.group = j_grp_;
      r.range = px.range;
      r.layer_end = px.layer_end && zs_end;
      c.zs_push_result = true;
    }
    const unsigned other = next_slot(rp_slot_);
    c.rp_start = !rp_active_ && full_[rp_slot_] && !replayed_[rp_slot_];
    c.rp_chain = c.zs_push && zs_end && full_[other] && !replayed_[other];
    for (unsigned h = 0; h < SequencerDesign::kZsSlots; ++h) {
      c.release[h] = replayed_[h] && jobs_[h] == 0;
    }
  }
  const bool s1_free = !s1_.valid || c.s1_adv;

  // ---- S0: the address set
  c.agu_out = agu_.outputs(c.agu_in);
  const AddressSet& s = c.agu_out.set;
  // A layer's first set also waits until the zero-skip path has finished the layer before
  // (its results are queued as it replays, after its sets were taken).
  c.hazard =
      c.agu_out.set_valid && s.layer_first && (pending_[s.layer.in_buf] != 0 || zs_outstanding());
  // What taking the set would do; a set that reads the cache row S1 writes at this edge
  // waits a cycle (the memory returns the old row).
  Cycle t = c;
  if (c.agu_out.set_valid) classify(s, t);
  const bool cache_clash = c.agu_out.set_valid && c.s1_adv && (s1_.fill || s1_.load) &&
                           t.read_cache[s1_.cset] && t.cache_addr == s1_.crow;
  // Likewise a set that reads the window slot S1 writes.
  const bool window_clash =
      c.agu_out.set_valid && c.s1_adv && s1_.win_write && t.read_win && t.win_addr == s1_.win;
  // A staged set needs its slot free.
  const bool zs_full = t.zs_take && full_[front_.zslot];
  const bool ready = s1_free && !c.hazard && !cache_clash && !window_clash && !zs_full &&
                     results_.size() < d_.result_queue_depth();
  c.agu_in.set_ready = ready;
  c.take = c.agu_out.set_valid && ready;
  if (c.take) {
    t.agu_in = c.agu_in, t.take = true;
    c = std::move(t);
    c.array_in.acts = c.step_acts;  // the spans follow the vectors they view
    c.array_in.weights = c.step_weights;
  } else {
    c.s1_next = c.s1_adv ? Stage1{} : s1_;
    c.front_next = front_;
  }
  c.cache_waits = cache_clash;
  c.window_waits = window_clash;

  // ---- the preload: one row a cycle while the store port is free
  const bool s1_holds_store = s1_.valid && !c.s1_adv && s1_.uses_store;
  const bool zs_holds_store = st_valid_ && !c.zs_push;
  c.pl_read = pl_.active && pl_.left > 0 && !c.read_store && !s1_holds_store && !zs_holds_store &&
              !c.pl_abandon;
  // The replay's next step: when the store's output is free or its step leaves (at the
  // pixel's end: the next pixel's first, when that one is staged), and the dense path leaves
  // the store port free.
  c.zs_read = rp_active_ && (!st_valid_ || (c.zs_push && (!zs_end || c.rp_chain))) &&
              !c.read_store && !c.pl_read && !s1_holds_store;

  // ---- the host port: each memory's port, when the sequencer leaves it free
  bool read_free[2], write_free[2];
  for (unsigned b = 0; b < 2; ++b) {
    read_free[b] = !c.read_act[b] && !(s1_.valid && !c.s1_adv && s1_.uses_act && s1_.in_buf == b);
    write_free[b] = !engine_writes[b];
  }
  const bool store_read_free =
      !c.read_store && !c.pl_read && !s1_holds_store && !c.zs_read && !zs_holds_store;
  c.out.mem_free = (read_free[0] ? 1U : 0U) | (read_free[1] ? 2U : 0U) | (write_free[0] ? 4U : 0U) |
                   (write_free[1] ? 8U : 0U) | (store_read_free ? 16U : 0U);
  bool free = true;
  switch (m.target) {
    case MemTarget::kBufferA:
    case MemTarget::kBufferB: {
      const auto b = static_cast<unsigned>(m.target);
      free = m.write ? write_free[b] : read_free[b];
      break;
    }
    case MemTarget::kWeights:
      free = m.write || store_read_free;
      break;
    case MemTarget::kParams:
      break;
  }
  c.out.mem_ready = free;
  c.mem_take = m.valid && free;

  // ---- registers and outputs
  c.out.apb = ApbResponse{};
  if (in.apb.access()) {
    if (to_agu) {
      c.out.apb = c.agu_out.apb;
    } else if (to_post) {
      c.out.apb = c.post_out.apb;
    } else if (to_own) {
      c.out.apb =
          apb_response(map_, sub, [&](const regmap::RegisterAt& r) { return read_own(r.offset); });
      if (const auto t = apb_target(map_, sub); t && sub.pwrite) {
        c.own_write = true, c.own_offset = t->offset, c.own_data = sub.pwdata;
      }
    } else {
      c.out.apb.pslverr = true;
    }
  }
  c.out.mem_rsp_valid = rsp_valid_;
  c.out.mem_rdata.assign((d_.mem_data_bits() + 7) / 8, 0);
  if (rsp_valid_) {
    if (rsp_target_ == MemTarget::kWeights) {
      std::copy(store_out_.begin(), store_out_.end(), c.out.mem_rdata.begin());
    } else if (rsp_target_ != MemTarget::kParams) {
      const auto& o = act_out_[static_cast<unsigned>(rsp_target_)];
      std::copy(o.begin(), o.end(), c.out.mem_rdata.begin());
    }
  }
  c.out.busy = busy();
  c.out.cfg_err = c.agu_out.cfg_err;
  c.out.step = (c.s1_adv && !s1_.load && !s1_.zs) || c.zs_push;
  return c;
}

SequencerOutputs SequencerModel::outputs(const SequencerInputs& in) const { return decide(in).out; }

void SequencerModel::tick(const SequencerInputs& in) {
  const Cycle c = decide(in);
  const unsigned lanes = d_.lanes(), row = d_.row_bytes(), p = d_.post.lanes;
  const MemRequest& m = in.mem;

  // The blocks inside.
  agu_.tick(c.agu_in);
  array_.tick(c.array_in);
  post_.tick(c.post_in);
  if (zs_) {
    ZeroSkipInputs zi = c.zs_in;  // its views, onto this cycle's step and rows
    zi.step = &c.zs_step;
    zi.act_rd_data = c.zs_rows;
    zs_->tick(zi);
  }

  // The memories: reads see the contents before this edge's writes; writes use the
  // outputs before this edge's reads.
  const bool host_read = c.mem_take && !m.write;
  const bool host_write = c.mem_take && m.write;
  auto act_out = act_out_;
  auto store_out = store_out_;
  auto cache_out = cache_out_;
  for (unsigned b = 0; b < 2; ++b) {
    const bool host = host_read && static_cast<unsigned>(m.target) == b;
    if (c.read_act[b] || host) {
      const uint64_t a = (host ? m.addr : c.act_addr) & mask_bits(d_.agu.act_addr_bits());
      if (a >= d_.agu.act_words) throw std::out_of_range("activation address beyond the buffer");
      std::copy_n(&buf_[b][a * lanes], lanes, act_out[b].begin());
    }
  }
  const bool host_store = host_read && m.target == MemTarget::kWeights;
  const size_t srow = d_.store_row_bytes();
  if (c.read_store || c.pl_read || host_store || c.zs_read) {
    const uint64_t a =
        (host_store  ? m.addr
         : c.pl_read ? pl_.next
         : c.zs_read ? (c.zs_push && c.zs_end ? px_[next_slot(rp_slot_)].wbase : rp_next_)
                     : c.store_addr) &
        mask_bits(d_.agu.weight_addr_bits());
    if (a >= d_.agu.weight_rows) throw std::out_of_range("weight row beyond the store");
    std::copy_n(&store_[a * srow], srow, store_out.begin());
  }
  for (unsigned s = 0; s < 2; ++s) {
    if (c.read_cache[s]) std::copy_n(&cache_[s][c.cache_addr * row], row, cache_out[s].begin());
  }
  // The MEC window: the reused word read; S1's buffer word written.
  auto window_out = window_out_;
  if (c.read_win) std::copy_n(&window_[size_t{c.win_addr} * lanes], lanes, window_out.begin());
  if (c.s1_adv && s1_.win_write) {
    std::copy_n(act_out_[s1_.in_buf].data(), lanes, &window_[size_t{s1_.win} * lanes]);
  }
  // Zero skipping: S1's word (or its pad value) into its row of the staging slot.
  if (c.s1_adv && s1_.zs) {
    if (s1_.zrow < d_.zs_slot_rows()) {
      for (unsigned l = 0; l < lanes; ++l) {
        stage_[(s1_.zslot * d_.zs_slot_rows() + s1_.zrow) * lanes + l] =
            s1_.act == ActSource::kPad ? s1_.pad_value : act_out_[s1_.in_buf][l];
      }
    }
    if (s1_.last) full_[s1_.zslot] = true;
  }
  // Cache writes: a fill or a feature load from S1, a preloaded row.
  bool cache_written[2] = {false, false};
  auto cache_write = [&](unsigned set, uint64_t r, const uint8_t* data, size_t offset,
                         size_t bytes) {
    if (cache_written[set]) throw std::logic_error("two writes into one cache set at an edge");
    cache_written[set] = true;
    std::copy_n(data, bytes, &cache_[set][r * row + offset]);
  };
  if (c.s1_adv && s1_.fill) cache_write(s1_.cset, s1_.crow, store_out_.data(), 0, row);
  if (c.s1_adv && s1_.load) {
    cache_write(s1_.cset, s1_.crow, act_out_[s1_.in_buf].data(), size_t{s1_.tile} * lanes, lanes);
  }
  if (pl_.wvalid) cache_write(pl_.set, pl_.wrow, store_out_.data(), 0, row);
  // Buffer writes: the sequencer's results, the host's words; store writes: the host's.
  if (c.out.write.valid) {
    const BufferWrite& w = c.out.write;
    for (unsigned l = 0; l < lanes; ++l) {
      if ((w.mask >> l) & 1U) buf_[w.buf][w.addr * lanes + l] = w.data[l];
    }
  }
  if (host_write && m.target != MemTarget::kParams) {
    const bool store = m.target == MemTarget::kWeights;
    const uint64_t words = store ? d_.agu.weight_rows : d_.agu.act_words;
    const uint64_t a =
        m.addr & mask_bits(store ? d_.agu.weight_addr_bits() : d_.agu.act_addr_bits());
    if (a >= words) throw std::out_of_range("host write beyond the memory");
    const size_t bytes = store ? srow : lanes;
    uint8_t* dst = store ? &store_[a * srow] : &buf_[static_cast<unsigned>(m.target)][a * lanes];
    for (size_t i = 0; i < bytes; ++i) dst[i] = i < m.data.size() ? m.data[i] : 0;
  }
  act_out_ = act_out, store_out_ = store_out, cache_out_ = cache_out, window_out_ = window_out;
  rsp_valid_ = host_read;
  rsp_target_ = m.target;

  // The pipeline: the beat the post unit takes, the result written, the drain, S1.
  if (c.beat_taken) {
    Beat b;
    b.buf = dr_.out_buf;
    b.word = dr_word_;
    b.dst = dr_lane_;
    b.src = dr_.dataflow == Dataflow::kFcBatch ? dr_.src_lane : 0;
    b.count = c.post_in.count - b.src;
    b.pixel_end = c.last_beat;
    b.layer_end = c.last_beat && dr_.layer_end;
    if (beats_.size() >= d_.beat_queue_depth()) throw std::logic_error("beat queue overflow");
    beats_.push_back(b);
  }
  if (c.out.write.valid) {
    const Beat& b = beats_.front();
    if (b.pixel_end) --pending_[b.buf];
    if (b.layer_end) ++layers_done_;
    beats_.pop_front();
  }
  const uint64_t addr_mask = mask_bits(d_.agu.act_addr_bits());
  if (c.acc_taken) {
    dr_ = results_.front();
    results_.pop_front();
    dr_valid_ = true;
    dr_acc_ = c.acc;
    dr_beat_ = 0;
    dr_word_ = dr_.out_addr, dr_lane_ = dr_.out_lane, dr_grp_ = dr_.group;
  } else if (c.beat_taken) {
    if (c.last_beat) {
      dr_valid_ = false;
    } else if (dr_.dataflow == Dataflow::kFcBatch) {
      ++dr_beat_;
      dr_word_ = (dr_word_ + dr_.out_stride) & addr_mask;  // the next image's outputs
    } else {
      ++dr_beat_;
      dr_lane_ += p;
      if (dr_lane_ == lanes) dr_lane_ = 0, dr_word_ = (dr_word_ + 1) & addr_mask;
      dr_grp_ = (dr_grp_ + 1) & static_cast<unsigned>(mask_bits(d_.post.group_bits()));
    }
  }
  if (c.push_result && c.zs_push_result) throw std::logic_error("two results queued at an edge");
  for (const Result* r :
       {c.push_result ? &c.result : nullptr, c.zs_push_result ? &c.zs_result : nullptr}) {
    if (r == nullptr) continue;
    if (results_.size() >= d_.result_queue_depth()) throw std::logic_error("result queue overflow");
    results_.push_back(*r);
    ++pending_[r->out_buf];
  }
  // Zero skipping: the staged word, the pixel's record, the replay.
  if (zs_) {
    if (c.take && c.zs_take) px_[c.s1_next.zslot] = c.zs_px;
    const bool end = c.zs_end;
    if (c.zs_acc) --jobs_[dr_.zslot];  // the result the drain took above
    if (c.zs_push_result) {
      ++jobs_[rp_slot_];
      j_grp_ = (j_grp_ + d_.tiles() / d_.post.lanes) &
               static_cast<unsigned>(mask_bits(d_.post.group_bits()));
      j_lane_ += d_.tiles() % lanes;
      j_word_ += d_.tiles() / lanes;
      if (j_lane_ >= lanes) j_lane_ -= lanes, ++j_word_;
      j_word_ &= mask_bits(d_.agu.act_addr_bits());
    }
    st_valid_ = c.zs_read || (st_valid_ && !c.zs_push);
    if (c.zs_read) rp_next_ = (rp_next_ + 1) & mask_bits(d_.agu.weight_addr_bits());
    for (unsigned h = 0; h < SequencerDesign::kZsSlots; ++h) {
      if (c.release[h]) full_[h] = false, replayed_[h] = false;
    }
    // A pixel's replay: from its first step, where its results go.
    auto begin = [&](unsigned h, bool first_read) {
      const ZsPixel& px = px_[h];
      rp_active_ = true;
      rp_next_ = (px.wbase + (first_read ? 1 : 0)) & mask_bits(d_.agu.weight_addr_bits());
      j_word_ = px.out_addr, j_lane_ = px.out_lane, j_grp_ = px.group;
    };
    // The pixel's end: its slot waits for its results; the replay moves to the next slot,
    // chained when that one is staged (its first row read with the end, if the port was free).
    if (c.zs_push && end) {
      replayed_[rp_slot_] = true;
      rp_slot_ = next_slot(rp_slot_);
      rp_active_ = false;
      if (c.rp_chain) begin(rp_slot_, c.zs_read);
    }
    if (c.rp_start) begin(rp_slot_, false);
  }
  s1_ = c.s1_next;
  front_ = c.front_next;

  // The preload: the row read at the last edge is written at this one.
  if (pl_.wvalid) {
    if (++pl_.written == pl_.rows) pl_.done = true, pl_.active = false;
  }
  pl_.wvalid = c.pl_read;
  if (c.pl_read) {
    pl_.wrow = pl_.widx++;
    pl_.next = (pl_.next + 1) & mask_bits(d_.agu.weight_addr_bits());
    --pl_.left;
  }
  if (c.pl_abandon) pl_ = Preload{};
  if (c.pl_start) {
    pl_ = Preload{};
    pl_.active = true;
    pl_.rows = pl_.left = front_.rows;
    pl_.next = (front_.blk_row + front_.rows) & mask_bits(d_.agu.weight_addr_bits());
    pl_.set = front_.cset ^ 1U;
  }

  // Registers.
  steps_ += c.out.step ? 1 : 0;
  const bool act_read = c.read_act[0] || c.read_act[1];
  const unsigned weight_reads =
      (c.read_store ? 1U : 0U) + (c.pl_read ? 1U : 0U) + (c.zs_read ? 1U : 0U);
  act_reads_ += act_read ? 1 : 0;
  weight_reads_ += weight_reads;
  preload_reads_ += c.pl_read ? 1 : 0;
  hazard_waits_ += c.hazard ? 1 : 0;
  cache_waits_ += c.cache_waits ? 1 : 0;
  window_reads_ += c.read_win ? 1 : 0;
  window_waits_ += c.window_waits ? 1 : 0;
  const bool was_busy = c.out.busy;
  cycles_reg_ += was_busy ? 1 : 0;
  steps_reg_ += c.out.step ? 1 : 0;
  act_reads_reg_ += act_read ? 1 : 0;
  weight_reads_reg_ += weight_reads;
  writes_reg_ += c.out.write.valid ? 1 : 0;
  window_reads_reg_ += c.read_win ? 1 : 0;
  bool clear_bypass = false;
  if (c.own_write) {
    const uint32_t v = c.own_data;
    switch (c.own_offset) {
      case kStatus:
        clear_bypass = (v >> kCacheBypassBit) & 1U;
        break;
      case kCycles:
        cycles_reg_ = v;
        break;
      case kSteps:
        steps_reg_ = v;
        break;
      case kActReads:
        act_reads_reg_ = v;
        break;
      case kWeightReads:
        weight_reads_reg_ = v;
        break;
      case kWrites:
        writes_reg_ = v;
        break;
      case kWindowReads:
        window_reads_reg_ = v;
        break;
      default:
        break;
    }
  }
  cache_bypass_ = (cache_bypass_ && !clear_bypass) || c.set_bypass;
  layers_done_ &= 0xffffU;
}

}  // namespace npugen::golden
