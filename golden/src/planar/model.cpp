#include "npugen/golden/planar/model.hpp"

#include <algorithm>

#include "npugen/golden/planar/arith.hpp"
#include "npugen/golden/post/requant.hpp"

namespace npugen::golden {
namespace {

uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

int8_t clamp8(int64_t v, int lo, int hi) {
  return static_cast<int8_t>(std::min<int64_t>(std::max<int64_t>(v, lo), hi));
}

bool combines_max(PlanarOp op) { return op == PlanarOp::kMaxPool || op == PlanarOp::kReduceMax; }

// The task's output requantization (OUT_MULTIPLIER, SHIFTS.OUT, ZERO_POINTS.OUT, CLAMP).
Requant output_requant(const PlanarTask& t) {
  Requant r;
  r.multiplier = t.out_multiplier, r.shift = t.out_shift;
  r.zero_point = t.out_zero_point, r.act_min = t.act_min, r.act_max = t.act_max;
  return r;
}

// ADD's input scales as the task's registers hold them.
planar::AddScales add_scales(const PlanarTask& t) {
  planar::AddScales s;
  s.a_zero_point = t.a_zero_point, s.b_zero_point = t.b_zero_point;
  s.left_shift = static_cast<int>(t.left_shift);
  s.a_multiplier = t.a_multiplier, s.b_multiplier = t.b_multiplier;
  s.a_shift = t.a_shift, s.b_shift = t.b_shift;
  s.output = output_requant(t);
  return s;
}

}  // namespace

PlanarModel::PlanarModel(const PlanarParams& params)
    : p_(params),
      map_(planar_csr::register_map(params)),
      divider_(params.divider()),
      acc_(params.beat_lanes(), 0),
      lb_rd_(params.lb_banks(), Lanes(params.beat_lanes(), 0)),
      cb_rd_(params.lb_banks(), Lanes(params.beat_lanes(), 0)),
      gain_rd_(params.beat_lanes()),
      lb_(params.lb_banks(),
          std::vector<int32_t>(static_cast<size_t>(params.lb_depth()) * params.beat_lanes(), 0)),
      cb_(params.lb_banks(),
          std::vector<int32_t>(static_cast<size_t>(params.table_rows()) * params.beat_lanes(), 0)),
      // Zero, as the LUT's flip-flops reset (the table's RAM has no reset; it is written
      // before a gain_bias task reads it).
      table_(static_cast<size_t>(params.param_rows()) * params.beat_lanes(), PlanarGain{0, 0, 0}),
      pipe_(params.pipeline_stages) {
  out_.data.assign(params.beat_lanes(), 0);
  const regmap::Group& g = map_.groups.front();
  for (auto& words : words_) {
    for (const regmap::Register& r : g.registers) words[r.offset / 4] = r.reset_value();
  }
  for (auto& t : task_) t = planar_csr::task_of(words_[0].data());
}

PlanarModel::Position PlanarModel::start(const PlanarTask& t) const {
  Position at;
  if (is_pool(t.op)) {
    at.y0 = -static_cast<int64_t>(t.pad_top);
    at.x0 = -static_cast<int64_t>(t.pad_left);
    at.rhi = std::min<int64_t>(at.y0 + t.kernel_h, t.height) - 1;
  }
  return at;
}

PlanarBeat PlanarModel::beat_at(unsigned group, const PlanarTask& t, const Position& at) const {
  PlanarBeat b;
  const unsigned v = p_.beat_lanes();
  const uint64_t chan = uint64_t{at.cb} * v;
  b.group = group;
  b.op = t.op;
  b.beat = at.cb;
  b.count = static_cast<unsigned>(std::min<uint64_t>(v, t.channels - chan));
  b.read_b = t.op == PlanarOp::kAdd;
  const uint64_t word = uint64_t{at.cb} * p_.words;
  const uint64_t in_off = at.n * t.in_image_stride + static_cast<uint64_t>(at.r) * t.in_row_stride +
                          static_cast<uint64_t>(at.x) * t.in_pixel_stride + word;
  b.a_addr = (t.a_base + in_off) & mask(p_.act_addr_bits());
  b.b_addr = (t.b_base + in_off) & mask(p_.act_addr_bits());
  const bool reduce = is_reduce(t.op);
  b.channel_reduce = reduce && t.axis == PlanarAxis::kChannels;
  uint64_t out_off = 0;
  if (is_pool(t.op)) {
    const int64_t xlo = std::max<int64_t>(at.x0, 0);
    const int64_t xhi =
        std::min<int64_t>(at.x0 + t.kernel_w, t.width) -
        1;  // A beat reads a column of a row not read before (and writes it to the column buffer),
    // or, when the output column's columns are all read (right padding), reads nothing;
    // the H result is complete at the window's last column. Rows all read (bottom
    // padding): the V filter alone.
    b.read = at.nread && at.ncol;
    b.col_write = b.read;
    b.h_done = at.nread && (!at.ncol || at.x == xhi);
    b.emit = !at.nread || (b.h_done && at.r == at.rhi);
    b.lb_write = b.h_done;
    b.slot = at.ptr;
    b.col_slot = at.cptr;
    b.lb_addr = at.lb_addr;
    b.rows = static_cast<unsigned>(at.rhi - std::max<int64_t>(at.y0, 0) + 1);
    b.cols = static_cast<unsigned>(xhi - xlo + 1);
    b.nlb = b.rows - (at.nread ? 1 : 0);
    b.ncb = b.cols - (at.ncol ? 1 : 0);
    out_off = at.n * t.out_image_stride + uint64_t{at.oh} * t.out_row_stride +
              uint64_t{at.ow} * t.out_pixel_stride + word;
  } else if (reduce && t.axis == PlanarAxis::kSpatial) {
    b.first = at.r == 0 && at.x == 0;
    b.last = b.emit = at.r + 1 == t.height && at.x + 1 == t.width;
    out_off = at.n * t.out_image_stride + word;
  } else if (reduce) {
    b.first = at.cb == 0;
    b.last = b.emit = chan + v >= t.channels;
    out_off = at.n * t.out_image_stride + static_cast<uint64_t>(at.r) * t.out_row_stride +
              static_cast<uint64_t>(at.x) * t.out_pixel_stride;
  } else {
    out_off = at.n * t.out_image_stride + static_cast<uint64_t>(at.r) * t.out_row_stride +
              static_cast<uint64_t>(at.x) * t.out_pixel_stride + word;
  }
  b.out_addr = (t.out_base + out_off) & mask(p_.act_addr_bits());
  Position next = at;
  b.task_last = !advance(t, next);
  return b;
}

bool PlanarModel::advance(const PlanarTask& t, Position& at) const {
  const bool cb_last = uint64_t{at.cb + 1} * p_.beat_lanes() >= t.channels;
  if (!is_pool(t.op)) {
    const bool x_last = at.x + 1 == t.width, y_last = at.r + 1 == t.height;
    if (is_reduce(t.op) && t.axis == PlanarAxis::kSpatial) {  // n, beat, y, x
      if (!x_last) return ++at.x, true;
      at.x = 0;
      if (!y_last) return ++at.r, true;
      at.r = 0;
      if (!cb_last) return ++at.cb, true;
      at.cb = 0;
    } else {  // n, y, x, beat
      if (!cb_last) return ++at.cb, true;
      at.cb = 0;
      if (!x_last) return ++at.x, true;
      at.x = 0;
      if (!y_last) return ++at.r, true;
      at.r = 0;
    }
    return ++at.n < t.batch;
  }
  // Pooling: image, window row (oh), the rows it reads first, output column, the columns
  // it reads first, beat.
  const int64_t xhi = std::min<int64_t>(at.x0 + t.kernel_w, t.width) - 1;
  if (!at.nread || !at.ncol || at.x == xhi) ++at.lb_addr;  // an H result (or a V-only beat)
  if (!cb_last) return ++at.cb, true;
  at.cb = 0;
  if (at.nread && at.ncol) {
    at.cptr = at.cptr + 1 == p_.lb_banks() ? 0 : at.cptr + 1;
    at.next_col = at.x + 1;
    if (at.x != xhi) return ++at.x, true;
  }
  const int64_t x0n = at.x0 + t.stride_x;
  if (x0n + t.kernel_w <= int64_t{t.width} + t.pad_right) {
    ++at.ow;
    at.x0 = x0n;
    at.x = std::max({x0n, int64_t{0}, at.next_col});
    at.ncol = at.x <= std::min<int64_t>(x0n + t.kernel_w, t.width) - 1;
    return true;
  }
  at.ow = 0;
  at.x0 = -static_cast<int64_t>(t.pad_left);
  at.x = 0;
  at.next_col = 0;
  at.ncol = true;
  at.cptr = 0;
  at.lb_addr = 0;
  if (at.nread) {
    at.ptr = at.ptr + 1 == p_.lb_banks() ? 0 : at.ptr + 1;
    at.next_row = at.r + 1;
    if (at.r != at.rhi) return ++at.r, true;
  }
  const int64_t y0n = at.y0 + t.stride_y;
  if (y0n + t.kernel_h <= int64_t{t.height} + t.pad_bottom) {
    ++at.oh;
    at.y0 = y0n;
    at.rhi = std::min<int64_t>(y0n + t.kernel_h, t.height) - 1;
    at.r = std::max(y0n, at.next_row);
    at.nread = at.r <= at.rhi;
    return true;
  }
  if (++at.n >= t.batch) return false;
  const unsigned ptr = at.ptr, n = at.n;
  at = start(t);
  at.ptr = ptr, at.n = n;
  return true;
}

uint32_t PlanarModel::read(const regmap::RegisterAt& r) const {
  using namespace planar_csr;
  if (r.group != nullptr) {
    const uint32_t offset = r.reg->offset;
    if (offset == kCtrl) return enable_[r.instance] ? 1U << kCtrlEnableBit : 0;
    return words_[r.instance][offset / 4];
  }
  switch (r.offset) {
    case kStatus:
      return (cfg_err_ ? 1U << kStatusCfgErrBit : 0) |
             (enable_[0] || enable_[1] ? 1U << kStatusBusyBit : 0) | (cur_ << kStatusCurrentBit);
    case kTasksDone:
      return tasks_done_ & 0xffffU;
    default:
      return r.reg->reset_value();  // INFO, LIMITS, MAX_SHAPE, MAX_DEPTH: constants
  }
}

bool PlanarModel::issue_ok() const { return !requests_.empty() && tags_.size() < p_.queue_depth(); }

bool PlanarModel::a_take_ok() const {
  if (tags_.empty()) return false;
  const PlanarBeat& b = tags_.front();
  return (!b.read || !a_data_.empty()) && (!b.read_b || !b_data_.empty());
}

bool PlanarModel::b_fire(bool w_ready) const {
  // A beat that writes enters the output pipeline, which moves when the output register is
  // free or written.
  return a_valid_ && (!a_beat_.emit || !out_.valid || w_ready);
}

unsigned PlanarModel::word_mask(const PlanarBeat& b) const {
  if (b.channel_reduce) return 1;
  unsigned m = 0;
  for (unsigned j = 0; j < p_.words; ++j) {
    if (j * p_.lanes < b.count) m |= 1U << j;
  }
  return m;
}

PlanarOutputs PlanarModel::outputs(const PlanarInputs& in) const {
  PlanarOutputs o;
  o.apb = apb_response(map_, in.apb, [&](const regmap::RegisterAt& r) { return read(r); });
  o.cfg_err = cfg_err_;
  o.busy = enable_[0] || enable_[1];
  o.task_done = done_;
  if (issue_ok()) {
    const PlanarBeat& b = requests_.front();
    o.a_req_valid = b.read && !a_done_;
    o.b_req_valid = b.read_b && !b_done_;
    o.a_req_addr = b.a_addr;
    o.b_req_addr = b.b_addr;
  }
  o.w_valid = out_.valid;
  o.w_addr = out_.addr;
  o.w_mask = out_.mask;
  o.w_data = out_.data;
  return o;
}

PlanarModel::Lanes PlanarModel::stage_a(const PlanarBeat& b, const std::vector<int8_t>& a,
                                        const std::vector<int8_t>& bdata) const {
  const unsigned v = p_.beat_lanes();
  const PlanarTask& t = task_[b.group];
  Lanes x(v, 0);
  if (b.read) {
    for (unsigned l = 0; l < v; ++l) {
      switch (b.op) {
        case PlanarOp::kAdd:
          x[l] = planar::add_inputs(a[l], bdata[l], add_scales(t));
          break;
        case PlanarOp::kGainBias:
        case PlanarOp::kReduceSum:
          x[l] = int32_t{a[l]} - t.a_zero_point;
          break;
        case PlanarOp::kLut:  // the LUT's flip-flops: the gain table's bytes as written
          x[l] = lut_byte(table_, static_cast<unsigned>(int{a[l]} + 128));
          break;
        default:
          x[l] = a[l];
      }
    }
    if (b.channel_reduce) {  // the beat's valid lanes into lane 0
      int32_t r = x[0];
      for (unsigned l = 1; l < b.count; ++l) {
        r = combines_max(b.op) ? std::max(r, x[l]) : wrap_add(r, x[l]);
      }
      std::fill(x.begin(), x.end(), 0);
      x[0] = r;
    }
  }
  if (b.first) return x;
  Lanes out(v);
  for (unsigned l = 0; l < v; ++l) {
    out[l] = combines_max(b.op) ? std::max(acc_[l], x[l]) : wrap_add(acc_[l], x[l]);
  }
  return out;
}

int32_t PlanarModel::h_result(unsigned l) const {
  // H filter: this column's tap (when the beat read one) and the window's columns in the
  // column buffer: ncb banks before the column's.
  const PlanarBeat& b = a_beat_;
  const unsigned banks = p_.lb_banks();
  bool any = b.read;
  int32_t m = b.read ? acc_[l] : 0, s = b.read ? acc_[l] : 0;
  for (unsigned bank = 0; bank < banks; ++bank) {
    const unsigned d = (b.col_slot + banks - 1 - bank) % banks;
    if (d >= b.ncb) continue;
    const int32_t v = cb_rd_[bank][l];
    m = any ? std::max(m, v) : v;
    s += v;
    any = true;
  }
  return b.op == PlanarOp::kMaxPool ? m : s;
}

std::vector<int8_t> PlanarModel::stage_b() const {
  const PlanarBeat& b = a_beat_;
  const PlanarTask& t = task_[b.group];
  const unsigned v = p_.beat_lanes(), banks = p_.lb_banks();
  std::vector<int8_t> y(v, 0);
  const unsigned lanes = b.channel_reduce ? 1 : b.count;
  for (unsigned l = 0; l < lanes; ++l) {
    const int32_t a = acc_[l];
    switch (b.op) {
      case PlanarOp::kMaxPool:
      case PlanarOp::kAvgPool: {  // V filter: this row's H result (when the beat completes one) and
                                  // the window's
        // rows in the line buffer: nlb banks before the row's.
        const int32_t h0 = h_result(l);
        bool any = b.h_done;
        int32_t m = b.h_done ? h0 : 0, s = b.h_done ? h0 : 0;
        for (unsigned bank = 0; bank < banks; ++bank) {
          const unsigned d = (b.slot + banks - 1 - bank) % banks;
          if (d >= b.nlb) continue;
          const int32_t h = lb_rd_[bank][l];
          m = any ? std::max(m, h) : h;
          s += h;
          any = true;
        }
        const int32_t r = b.op == PlanarOp::kMaxPool ? m : divider_.divide(s, b.rows * b.cols);
        y[l] = clamp8(r, t.act_min, t.act_max);
        break;
      }
      case PlanarOp::kAdd:
      case PlanarOp::kReduceSum:
        y[l] = static_cast<int8_t>(requantize(a, output_requant(t)));
        break;
      case PlanarOp::kGainBias: {
        const PlanarGain& g = gain_rd_[l];
        Requant r = output_requant(t);
        r.multiplier = g.multiplier;
        r.shift = std::max(g.shift, PlanarParams::kMinTableShift);
        y[l] = planar::gain_bias_centered(a, g.bias, r);
        break;
      }
      case PlanarOp::kReduceMax:
      case PlanarOp::kActivation:
      case PlanarOp::kLut:
        y[l] = clamp8(a, t.act_min, t.act_max);
        break;
    }
  }
  return y;
}

void PlanarModel::tick(const PlanarInputs& in) {
  using namespace planar_csr;
  const unsigned v = p_.beat_lanes();
  const auto enable_before = enable_;
  const auto queued_before = queued_;
  // Handshakes of this cycle, from the state before the edge.
  const bool issuing = issue_ok();
  const bool producing = run_ && requests_.size() < kRequestDepth;
  PlanarBeat beat;
  bool issue = false, a_fire = false, b_fire_req = false;
  if (issuing) {
    beat = requests_.front();
    a_fire = beat.read && !a_done_ && in.a_req_ready;
    b_fire_req = beat.read_b && !b_done_ && in.b_req_ready;
    issue = (!beat.read || a_done_ || a_fire) && (!beat.read_b || b_done_ || b_fire_req);
  }
  const bool fire_b = b_fire(in.w_ready);
  const bool take = a_take_ok() && (!a_valid_ || fire_b);
  const bool w_fire = out_.valid && in.w_ready;

  // The register port.
  bool cfg_err_set = false, clear_cfg_err = false;
  std::array<bool, kGroups> enable_now = {};
  if (const auto target = apb_target(map_, in.apb); target && in.apb.pwrite) {
    if (target->group != nullptr) {
      const unsigned g = target->instance;
      const uint32_t offset = target->reg->offset;
      if (enable_before[g]) {
        cfg_err_set = true;
      } else if (offset == kCtrl) {
        if ((in.apb.pwdata >> kCtrlEnableBit) & 1U) {
          const PlanarTask t = task_of(words_[g].data());
          if (planar_refusal(p_, t).empty()) {
            enable_now[g] = true;
            task_[g] = t;
          } else {
            cfg_err_set = true;
          }
        }
      } else {
        uint32_t& w = words_[g][offset / 4];
        w = target->reg->after_write(w, in.apb.pwdata);
      }
    } else if (target->offset == kStatus) {
      clear_cfg_err = (in.apb.pwdata >> kStatusCfgErrBit) & 1U;
    }
  }
  cfg_err_ = cfg_err_set || (cfg_err_ && !clear_cfg_err);

  // Stage B, then the output register (values from before the edge).
  const std::vector<int8_t> out_word = fire_b ? stage_b() : std::vector<int8_t>{};
  const PlanarBeat b_beat = a_beat_;
  const Lanes b_acc = acc_;
  Lanes b_h(v, 0);  // stage B's H result, for the line buffer
  if (fire_b && b_beat.lb_write) {
    for (unsigned l = 0; l < v; ++l) b_h[l] = h_result(l);
  }
  // Stage A's line-buffer and gain reads (stage B's write of this edge passes through).
  if (take && tags_.front().last) {
    const PlanarBeat& t = tags_.front();
    for (unsigned bank = 0; bank < p_.lb_banks(); ++bank) {
      const bool bypass =
          fire_b && b_beat.lb_write && b_beat.slot == bank && b_beat.lb_addr == t.lb_addr;
      for (unsigned l = 0; l < v; ++l) {
        lb_rd_[bank][l] = bypass ? b_h[l] : lb_[bank][static_cast<size_t>(t.lb_addr) * v + l];
      }
      const bool col_bypass =
          fire_b && b_beat.col_write && b_beat.col_slot == bank && b_beat.beat == t.beat;
      for (unsigned l = 0; l < v; ++l) {
        cb_rd_[bank][l] = col_bypass ? b_acc[l] : cb_[bank][static_cast<size_t>(t.beat) * v + l];
      }
    }
    for (unsigned l = 0; l < v; ++l) {
      gain_rd_[l] = table_[static_cast<size_t>(t.beat) * v + l];
    }
  }
  if (fire_b && b_beat.lb_write) {
    for (unsigned l = 0; l < v; ++l) {
      // The bank holds kHBits per lane: an H result of at most 15 int8 taps fits.
      lb_[b_beat.slot][static_cast<size_t>(b_beat.lb_addr) * v + l] = b_h[l];
    }
  }
  if (fire_b && b_beat.col_write) {
    for (unsigned l = 0; l < v; ++l) {
      cb_[b_beat.col_slot][static_cast<size_t>(b_beat.beat) * v + l] = b_acc[l];
    }
  }
  // Stage A.
  if (take) {
    const PlanarBeat t = tags_.front();
    tags_.pop_front();
    std::vector<int8_t> a, bd;
    if (t.read) a = a_data_.front(), a_data_.pop_front();
    if (t.read_b) bd = b_data_.front(), b_data_.pop_front();
    acc_ = stage_a(t, a, bd);
    a_valid_ = t.last;
    a_beat_ = t;
  } else if (fire_b) {
    a_valid_ = false;
  }
  // The output register and the task's end.
  done_ = false;
  if (w_fire && out_.last) {
    enable_[out_.group] = false;
    ++tasks_done_;
    done_ = true;
  }
  if (!out_.valid || in.w_ready) {  // the output pipeline moves
    OutBeat entering;
    if (fire_b && b_beat.emit) {
      entering.valid = true;
      entering.addr = b_beat.out_addr;
      entering.mask = word_mask(b_beat);
      entering.data = out_word;
      for (unsigned j = 0; j < p_.words; ++j) {
        if (((entering.mask >> j) & 1U) != 0) continue;
        std::fill_n(entering.data.begin() + j * p_.lanes, p_.lanes, int8_t{0});
      }
      entering.last = b_beat.task_last;
      entering.group = b_beat.group;
    }
    if (!pipe_.empty()) {
      // The last register's beat leaves (into `entering`); the others move up one.
      std::swap(entering, pipe_.back());
      std::rotate(pipe_.rbegin(), pipe_.rbegin() + 1, pipe_.rend());
    }
    if (entering.valid) {
      out_ = std::move(entering);
    } else {
      out_.valid = false;
    }
  }
  for (unsigned g = 0; g < kGroups; ++g) {
    enable_[g] = enable_[g] || enable_now[g];
    queued_[g] = queued_[g] || enable_now[g];
  }

  // Responses.
  if (in.a_rsp_valid) a_data_.push_back(in.a_rsp_data);
  if (in.b_rsp_valid) b_data_.push_back(in.b_rsp_data);

  // The request queue's oldest beat issues once its reads are taken.
  if (issuing) {
    if (issue) {
      tags_.push_back(beat);
      requests_.pop_front();
      ++beats_;
      beats_no_read_ += beat.read ? 0 : 1;
      a_done_ = b_done_ = false;
    } else {
      a_done_ = a_done_ || a_fire;
      b_done_ = b_done_ || b_fire_req;
    }
  }
  // The rasterizer makes a beat whenever the request queue has room.
  if (producing) {
    requests_.push_back(beat_at(cur_, task_[cur_], pos_));
    ++made_;
    if (!advance(task_[cur_], pos_)) {
      cur_ ^= 1U;
      run_ = queued_before[cur_];
      if (run_) {
        queued_[cur_] = false;
        const unsigned ptr = pos_.ptr;
        pos_ = start(task_[cur_]);
        pos_.ptr = ptr;
      }
    }
  } else if (!run_ && queued_before[cur_]) {
    run_ = true;
    queued_[cur_] = false;
    const unsigned ptr = pos_.ptr;
    pos_ = start(task_[cur_]);
    pos_.ptr = ptr;
  }

  // The gain table's write port.
  const unsigned row = in.param_row & ((1U << field_bits(p_.param_rows())) - 1);  // the port
  if (in.param_we && row < p_.param_rows()) {
    for (unsigned l = 0; l < v; ++l) table_[static_cast<size_t>(row) * v + l] = in.param[l];
  }
}

}  // namespace npugen::golden
