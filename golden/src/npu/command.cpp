#include "npugen/golden/npu/command.hpp"

#include <stdexcept>

#include "npugen/golden/tasks/params.hpp"

namespace npugen::golden {

CommandOutputs CommandModel::outputs(const CommandInputs& in) const {
  CommandOutputs o;
  o.busy = state_ != State::kIdle;
  const bool fetching =
      state_ == State::kFetch || state_ == State::kSetup || state_ == State::kAccess;
  if (fetching && issued_ < length_ && issued_ - index_ < kPrefetch) {
    o.mem_req = true;
    o.mem_addr = (base_ + issued_) & ((uint64_t{1} << p_.mem_addr_bits) - 1);
  }
  if (state_ == State::kSetup || state_ == State::kAccess) {
    o.holds = true;
    o.apb.psel = true;
    o.apb.penable = state_ == State::kAccess;
    o.apb.pwrite = true;
    o.apb.paddr = paddr_;
    o.apb.pwdata = pwdata_;
  }
  o.done = state_ == State::kRun && (in.engine_done || in.engine_err || finished_ || !wrote_);
  return o;
}

void CommandModel::process() {
  const uint32_t w = words_.front();
  words_.pop_front();
  const uint32_t low = w & 0xffffU;
  bool write = false;
  if (index_ == 1) {
    length_ = low < task_desc::kHeaderWords ? task_desc::kHeaderWords : low;
  } else if (index_ >= task_desc::kHeaderWords) {
    if (left_ == 0) {
      reg_ = low;
      left_ = (w >> task_desc::kGroupCountShift) & 0xffU;
    } else {
      if (reg_ >= p_.window_lo && reg_ - p_.window_lo < p_.window_words) {
        write = true;
        paddr_ = (reg_ - p_.window_lo) * 4;
        pwdata_ = w;
        wrote_ = true;
      }
      reg_ = (reg_ + 1) & 0xffffU;
      --left_;
    }
  }
  ++index_;
  state_ = write ? State::kSetup : index_ == length_ ? State::kRun : State::kFetch;
}

void CommandModel::tick(const CommandInputs& in) {
  const CommandOutputs o = outputs(in);
  if ((in.engine_done || in.engine_err) && state_ != State::kIdle && state_ != State::kRun) {
    finished_ = true;
  }
  if (o.mem_req && in.mem_ready) ++issued_;
  // A word arriving this cycle is processed from the next (it is queued at this edge).
  const bool arrived = in.mem_rvalid;
  if (arrived && (state_ == State::kIdle || state_ == State::kRun)) {
    throw std::logic_error("CommandModel: read data with no read outstanding");
  }
  switch (state_) {
    case State::kIdle:
      if (in.start) {
        state_ = State::kFetch;
        base_ = in.desc;
        issued_ = 0;
        index_ = 0;
        words_.clear();
        length_ = task_desc::kHeaderWords;
        left_ = 0;
        reg_ = 0;
        wrote_ = false;
        finished_ = false;
      }
      break;
    case State::kFetch:
      if (!words_.empty()) process();
      break;
    case State::kSetup:
      state_ = State::kAccess;
      break;
    case State::kAccess:
      // The next word is processed at once (a write every two cycles when they queue).
      if (index_ == length_) {
        state_ = State::kRun;
      } else if (!words_.empty()) {
        process();
      } else {
        state_ = State::kFetch;
      }
      break;
    case State::kRun:
      if (o.done) state_ = State::kIdle;
      break;
  }
  if (arrived) words_.push_back(in.mem_rdata);
}

}  // namespace npugen::golden
