#include "npugen/golden/npu/dma.hpp"

#include <algorithm>
#include <stdexcept>

namespace npugen::golden {

DmaModel::DmaModel(unsigned lanes, unsigned mem_addr_bits, unsigned buf_bits, const DmaRows& rows)
    : lanes_(lanes),
      w_(dma_words_per_buffer_word(lanes)),
      rows_(rows),
      mask_(mem_addr_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << mem_addr_bits) - 1),
      buf_mask_(buf_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << buf_bits) - 1),
      row_mask_(rows.row_addr_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << rows.row_addr_bits) - 1),
      pending_data_(rows.row_bytes, 0),
      data_(lanes, 0) {}

DmaOutputs DmaModel::outputs(const DmaInputs& /*in*/) const {
  DmaOutputs o;
  o.cmd_ready = !busy_;
  o.busy = busy_;
  o.hp_wdata.assign(lanes_, 0);
  o.row_data.assign(rows_.row_bytes, 0);
  if (!busy_) return o;
  const uint64_t total = cmd_.words * w();
  if (!cmd_.store) {
    o.done = written_ == cmd_.words;
    if (issued_ < total && issued_ - moved_ < kQueue) {
      o.mem_req = true;
      o.mem_addr = (cmd_.mem + issued_) & mask_;
    }
    if (pending_ && rows()) {
      o.row_valid = true;
      o.row_target = cmd_.target;
      o.row_addr = (cmd_.buf + written_) & row_mask_;
      o.row_data = pending_data_;
    } else if (pending_) {
      o.hp_valid = o.hp_write = true;
      o.hp_addr = (cmd_.buf + written_) & buf_mask_;
      std::copy_n(pending_data_.begin(), lanes_, o.hp_wdata.begin());
    }
  } else {
    o.done = k_ == cmd_.words;
    if (k_ < cmd_.words && phase_ == Phase::kRead) {
      o.hp_valid = true;
      o.hp_addr = (cmd_.buf + k_) & buf_mask_;
    }
    if (k_ < cmd_.words && phase_ == Phase::kWrite) {
      o.mem_req = o.mem_write = true;
      o.mem_addr = (cmd_.mem + k_ * w_ + j_) & mask_;
      for (unsigned b = 0; b < 4; ++b) {
        const unsigned lane = j_ * 4 + b;
        if (lane < lanes_) o.mem_wdata |= uint32_t{data_[lane]} << (8 * b);
      }
    }
  }
  return o;
}

void DmaModel::tick(const DmaInputs& in) {
  const DmaOutputs o = outputs(in);
  if (!busy_) {
    if (in.mem_rvalid || in.hp_rsp_valid) {
      throw std::logic_error("DmaModel: data with no transfer of its own outstanding");
    }
    if (in.cmd_valid) {
      busy_ = true;
      cmd_ = in.cmd;
      issued_ = moved_ = written_ = formed_ = 0;
      queue_.clear();
      assembly_.clear();
      pending_ = false;
      phase_ = Phase::kRead;
      k_ = 0;
      j_ = 0;
    }
    return;
  }
  if (o.done) {
    busy_ = false;
    return;
  }
  if (!cmd_.store) {
    // The write register, taken, is filled again from a full assembly register in the same
    // cycle, and the assembly register takes the oldest queued word in the cycle it empties.
    const bool taken = pending_ && (rows() ? in.row_ready : in.hp_ready);
    const bool move = assembly_.size() == w() && (!pending_ || taken);
    const bool pop = !queue_.empty() && (assembly_.size() < w() || move);
    if (taken) {
      pending_ = false;
      ++written_;
    }
    if (move) {  // the row's words, little-endian; a buffer word's lanes beyond L unused
      std::fill(pending_data_.begin(), pending_data_.end(), 0);
      for (size_t b = 0; b < pending_data_.size() && b / 4 < assembly_.size(); ++b) {
        pending_data_[b] = static_cast<uint8_t>(assembly_[b / 4] >> (8 * (b % 4)));
      }
      pending_ = true;
      ++formed_;
      assembly_.clear();
    }
    if (pop) {
      assembly_.push_back(queue_.front());
      queue_.pop_front();
      ++moved_;
    }
    if (o.mem_req && in.mem_ready) ++issued_;
    if (in.mem_rvalid) queue_.push_back(in.mem_rdata);
  } else {
    switch (phase_) {
      case Phase::kRead:
        if (in.hp_ready) phase_ = Phase::kWait;
        break;
      case Phase::kWait:
        if (!in.hp_rsp_valid) throw std::logic_error("DmaModel: no data the cycle after a read");
        data_ = in.hp_rsp_data;
        data_.resize(lanes_, 0);
        phase_ = Phase::kWrite;
        j_ = 0;
        break;
      case Phase::kWrite:
        if (in.mem_ready) {
          if (++j_ == w_) {
            ++k_;
            phase_ = Phase::kRead;
          }
        }
        break;
    }
  }
}

}  // namespace npugen::golden
