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
  const bool ended = in.engine_done || in.engine_err || finished_ || !wrote_;
  o.done = (state_ == State::kRun && ended && !store_) || (state_ == State::kStore && in.dma_done);
  const uint64_t mask = (uint64_t{1} << p_.mem_addr_bits) - 1;
  const uint64_t buf_mask = (uint64_t{1} << p_.buf_bits) - 1;
  if ((state_ == State::kLoad || state_ == State::kStore) && !sent_) {
    o.dma_valid = true;
    const bool store = state_ == State::kStore;
    o.dma.store = store;
    o.dma.mem = (dma_base_ + (store ? out_ptr_ : in_ptr_)) & mask;
    const bool rows = !store && dma_target_ != 0;
    o.dma.target = rows ? static_cast<DmaTarget>(dma_target_ & 7U) : DmaTarget::kBuffers;
    o.dma.buf = (store ? out_base_ : rows ? dma_row_ : in_base_) & buf_mask;
    o.dma.words = (store  ? out_words_
                   : rows ? (dma_target_known(dma_target_) ? dma_rows_ : 0)
                          : in_words_) &
                  ((buf_mask << 1) | 1);
  }
  return o;
}

void CommandModel::process() {
  const uint32_t w = words_.front();
  words_.pop_front();
  const uint32_t low = w & 0xffffU;
  bool write = false;
  if (index_ == 0) {
    load_ = ((w >> task_desc::kInMemoryBit) & 1U) != 0;
    store_ = ((w >> task_desc::kOutMemoryBit) & 1U) != 0;
  } else if (index_ == 1) {
    length_ = low < task_desc::kHeaderWords ? task_desc::kHeaderWords : low;
  } else if (index_ == 2) {
    in_ptr_ = w;
  } else if (index_ == 3) {
    out_ptr_ = w;
  } else {
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
      switch (reg_) {  // the task's regions, for the DMA
        case task_desc::kRegIn0Base:
          in_base_ = w;
          break;
        case task_desc::kRegIn0Words:
          in_words_ = w;
          in_seen_ = true;
          break;
        case task_desc::kRegOutBase:
          out_base_ = w;
          break;
        case task_desc::kRegOutWords:
          out_words_ = w;
          break;
        case task_desc::kRegDmaTarget:
          dma_target_ = w;
          break;
        case task_desc::kRegDmaRow:
          dma_row_ = w;
          break;
        case task_desc::kRegDmaRows:
          dma_rows_ = w;
          in_seen_ = true;
          break;
        default:
          break;
      }
      reg_ = (reg_ + 1) & 0xffffU;
      --left_;
    }
  }
  ++index_;
  // The first engine write after the load's size is known waits for the load; so does the
  // descriptor's end when no write came after it.
  const bool load = load_ && !loaded_ && in_seen_;
  load_then_run_ = !write && index_ == length_;
  state_ = write               ? (load ? State::kLoad : State::kSetup)
           : index_ == length_ ? (load ? State::kLoad : State::kRun)
                               : State::kFetch;
  sent_ = false;
}

void CommandModel::tick(const CommandInputs& in) {
  const CommandOutputs o = outputs(in);
  if ((in.engine_done || in.engine_err) && state_ != State::kIdle && state_ != State::kRun &&
      state_ != State::kStore) {
    finished_ = true;
  }
  if (o.mem_req && in.mem_ready) ++issued_;
  // A word arriving this cycle is processed from the next (it is queued at this edge).
  const bool arrived = in.mem_rvalid;
  if (arrived && (state_ == State::kIdle || state_ == State::kRun || state_ == State::kStore)) {
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
        dma_base_ = in.base;
        load_ = store_ = loaded_ = sent_ = in_seen_ = load_then_run_ = false;
        in_ptr_ = out_ptr_ = in_base_ = in_words_ = out_base_ = out_words_ = 0;
        dma_target_ = dma_row_ = dma_rows_ = 0;
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
      if (o.done) {
        state_ = State::kIdle;
      } else if (store_ && (in.engine_done || in.engine_err || finished_ || !wrote_)) {
        state_ = State::kStore;  // the output goes to memory before the task is done
        sent_ = false;
      }
      break;
    case State::kLoad:
      if (o.dma_valid && in.dma_ready) sent_ = true;
      if (in.dma_done) {
        loaded_ = true;
        state_ = load_then_run_ ? State::kRun : State::kSetup;
      }
      break;
    case State::kStore:
      if (o.dma_valid && in.dma_ready) sent_ = true;
      if (o.done) state_ = State::kIdle;
      break;
  }
  if (arrived) words_.push_back(in.mem_rdata);
}

}  // namespace npugen::golden
