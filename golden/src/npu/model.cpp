#include "npugen/golden/npu/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "npugen/golden/common/bits.hpp"

namespace npugen::golden {
namespace {

using namespace npu_csr;

// `bytes` bytes: the first of `from`, zeros beyond it.
std::vector<uint8_t> resized(const std::vector<uint8_t>& from, size_t bytes) {
  std::vector<uint8_t> out(bytes, 0);
  std::copy_n(from.begin(), std::min(bytes, from.size()), out.begin());
  return out;
}

// The APB request as each window sees it: psel only where paddr points, the window's
// address bits.
struct Windows {
  ApbRequest seq, planar, own, tasks, vq;
  bool none = false;  ///< the address is in the planar window, beyond the engine's registers
};

// `planar_bits`: the planar engine's APB address bits (its window reaches 2^planar_bits
// bytes; the RTL decodes the rest to no register). `vq_bits`: the dequantizer's (0: no VQ).
Windows route(const ApbRequest& r, unsigned planar_bits, unsigned vq_bits) {
  const uint32_t paddr = r.paddr & ((1U << kAddrBits) - 1);
  Windows w;
  w.seq = w.planar = w.own = w.tasks = r;
  const bool to_tasks = ((paddr >> 11) & 1U) != 0;
  const bool to_seq = !to_tasks && ((paddr >> 10) & 1U) == 0;
  const bool planar_window = !to_tasks && !to_seq && ((paddr >> 9) & 1U) == 0;
  const bool to_planar = planar_window && (paddr & 0x1ffU) < (1U << planar_bits);
  w.none = planar_window && !to_planar;
  const bool to_vq = vq_bits != 0 && paddr >= kVqWindow && paddr < kVqWindow + (1U << vq_bits);
  const bool to_own = !to_tasks && !to_seq && !planar_window && !to_vq;
  w.vq = r;
  w.vq.psel = r.psel && to_vq;
  w.vq.paddr = paddr - (to_vq ? kVqWindow : 0);
  w.seq.psel = r.psel && to_seq;
  w.seq.paddr = paddr & 0x3ffU;
  w.planar.psel = r.psel && to_planar;
  w.planar.paddr = paddr & 0x1ffU;
  w.own.psel = r.psel && to_own;
  w.own.paddr = paddr & 0x1ffU;
  w.tasks.psel = r.psel && to_tasks;
  w.tasks.paddr = paddr & 0x7ffU;
  return w;
}

CommandParams command_params(const NpuDesign& d, bool planar) {
  CommandParams p;
  p.mem_addr_bits = d.tasks.memory_address_bits();
  p.buf_bits = d.dma_addr_bits();
  p.window_lo = planar ? kDescPlanar : kDescSequencer;
  p.window_words = planar ? (1U << planar_csr::register_map(d.planar).addr_bits()) / 4
                          : (1U << sequencer_csr::kAddrBits) / 4;
  return p;
}

const NpuDesign& checked(const NpuDesign& d) {
  if (d.planar.words != 1) {
    throw std::invalid_argument(
        fmt::format("NpuModel: the planar engine reads one word a beat, not {}", d.planar.words));
  }
  if (d.planar.lanes != d.lanes()) {
    throw std::invalid_argument(fmt::format(
        "NpuModel: the planar engine has {} lanes, the sequencer {}", d.planar.lanes, d.lanes()));
  }
  if (d.planar.act_words != 2 * d.act_words()) {
    throw std::invalid_argument(
        fmt::format("NpuModel: the planar engine addresses {} words, not both buffers' {}",
                    d.planar.act_words, 2 * d.act_words()));
  }
  if (d.tasks.neural_engines != 1 || d.tasks.planar_engines != 1 ||
      d.tasks.buffer_words != d.planar.act_words) {
    throw std::invalid_argument(
        "NpuModel: the task unit drives one engine of each kind over the planar engine's "
        "addresses");
  }
  if (d.reads_in_flight == 0) throw std::invalid_argument("NpuModel: reads_in_flight is 0");
  if (d.vq && (1U << vq_csr::register_map(*d.vq).addr_bits()) > 0x100) {
    throw std::invalid_argument("NpuModel: the dequantizer's registers exceed their window");
  }
  return d;
}

}  // namespace

NpuModel::NpuModel(const NpuDesign& design)
    : d_(checked(design)),
      map_(npu_csr::register_map(design)),
      seq_(design.seq),
      planar_(design.planar),
      tasks_(design.tasks),
      planar_apb_bits_(planar_csr::register_map(design.planar).addr_bits()),
      cmd_{CommandModel(command_params(design, false)), CommandModel(command_params(design, true))},
      dma_(design.lanes(), design.tasks.memory_address_bits(), design.planar.act_addr_bits(),
           design.dma_rows()) {
  if (d_.vq) {
    vq_.emplace(*d_.vq, d_.seq.tiles() * d_.lanes());
    vq_apb_bits_ = vq_csr::register_map(*d_.vq).addr_bits();
  }
  tasks_.reset();
}

NpuModel::Cycle NpuModel::decide(const NpuInputs& in) const {
  Cycle c;
  const unsigned lanes = d_.lanes();
  const size_t mem_bytes = (d_.seq.mem_data_bits() + 7) / 8;
  const size_t host_bytes = (d_.host_data_bits() + 7) / 8;
  const Windows apb = route(in.apb, planar_apb_bits_, vq_apb_bits_);
  // The command processors' outputs but `done` depend on their state only.
  const CommandOutputs cmd0[2] = {cmd_[0].outputs({}), cmd_[1].outputs({})};
  c.seq_in.apb = cmd0[0].holds ? cmd0[0].apb : apb.seq;
  c.planar_in.apb = cmd0[1].holds ? cmd0[1].apb : apb.planar;
  // The VQ loader's outputs but its APB response depend on its state only.
  const VqLoadOutputs vq0 = vq_ ? vq_->outputs({}) : VqLoadOutputs{};
  const bool stalled = (apb.seq.psel && cmd0[0].holds) || (apb.planar.psel && cmd0[1].holds) ||
                       (apb.vq.psel && vq0.busy);

  // The host side of the arbiter: the DMA's row write (weights, parameters, gains), else the
  // host's request (which then waits).
  // The DMA's outputs depend on its state only.
  const DmaOutputs dma0 = dma_.outputs({});
  HostRequest dma_row;
  if (dma0.row_valid) {
    dma_row.valid = dma_row.write = true;
    dma_row.target = static_cast<HostTarget>(dma0.row_target);
    dma_row.addr = dma0.row_addr;
    dma_row.data = resized(dma0.row_data, host_bytes);
  }
  const HostRequest& h = dma0.row_valid ? dma_row : in.host;
  const auto target = static_cast<unsigned>(h.target);
  // The gain-table write goes straight to the planar engine's parameter port.
  if (h.valid && h.write && h.target == HostTarget::kPlanarGains) {
    PlanarInputs& p = c.planar_in;
    p.param_we = true;
    p.param_row = static_cast<unsigned>(h.addr & 0xffffffffU);
    p.param.resize(lanes);
    for (unsigned l = 0; l < lanes; ++l) {
      PlanarGain& g = p.param[l];
      g.bias = static_cast<int32_t>(get_bits(h.data, gain_bias_lsb(lanes, l), 32));
      g.multiplier = static_cast<int32_t>(get_bits(h.data, gain_multiplier_lsb(lanes, l), 32));
      const auto raw =
          static_cast<int>(get_bits(h.data, gain_shift_lsb(lanes, l), PlanarParams::kShiftBits));
      g.shift =
          raw -
          (raw >= (1 << (PlanarParams::kShiftBits - 1)) ? (1 << PlanarParams::kShiftBits) : 0);
    }
  }

  // 1. The planar engine's requests (they do not depend on its readies).
  const PlanarOutputs p0 = planar_.outputs(c.planar_in);

  // 2. The arbiter: the planar write, its read A, its read B, the host (targets 0 to 3).
  enum class Grant : uint8_t { kNone, kWrite, kReadA, kReadB, kVq, kDma, kHost };
  Grant grant = Grant::kNone;
  MemRequest& m = c.seq_in.mem;
  auto planar_word = [&](uint64_t addr) {
    const bool b = addr >= d_.act_words();
    m.target = b ? MemTarget::kBufferB : MemTarget::kBufferA;
    m.addr = b ? addr - d_.act_words() : addr;
  };
  if (p0.w_valid) {
    grant = Grant::kWrite;
    m.valid = m.write = true;
    planar_word(p0.w_addr);
    m.data.assign(mem_bytes, 0);
    for (unsigned l = 0; l < lanes; ++l) m.data[l] = static_cast<uint8_t>(p0.w_data[l]);
  } else if (p0.a_req_valid) {
    grant = Grant::kReadA;
    m.valid = true;
    planar_word(p0.a_req_addr);
  } else if (p0.b_req_valid) {
    grant = Grant::kReadB;
    m.valid = true;
    planar_word(p0.b_req_addr);
  } else if (vq0.st_valid) {
    grant = Grant::kVq;
    m.valid = m.write = true;
    m.target = MemTarget::kWeights;
    m.addr = vq0.st_row;
    m.data = resized(vq0.st_data, mem_bytes);
  } else if (dma0.hp_valid) {
    grant = Grant::kDma;
    m.valid = true;
    m.write = dma0.hp_write;
    planar_word(dma0.hp_addr);
    if (m.write) {
      m.data.assign(mem_bytes, 0);
      std::copy_n(dma0.hp_wdata.begin(), lanes, m.data.begin());
    }
  } else if (target < 4) {
    grant = Grant::kHost;
    m.valid = h.valid;
    m.write = h.write;
    m.target = static_cast<MemTarget>(target);
    m.addr = h.addr;
    if (h.write) m.data = resized(h.data, mem_bytes);
  }

  // 3. The sequencer (its responses do not depend on its request inputs).
  c.seq_out = seq_.outputs(c.seq_in);
  const bool ready = c.seq_out.mem_ready;
  const bool taken = m.valid && ready;
  if (taken && !m.write) {
    c.read_owner = grant == Grant::kReadA   ? Owner::kPlanarA
                   : grant == Grant::kReadB ? Owner::kPlanarB
                   : grant == Grant::kDma   ? Owner::kDma
                                            : Owner::kHost;
  }

  // 4. The planar engine's readies and the responses to the reads taken at the last edge.
  PlanarInputs& p = c.planar_in;
  p.w_ready = grant == Grant::kWrite && ready;
  p.a_req_ready = grant == Grant::kReadA && ready;
  p.b_req_ready = grant == Grant::kReadB && ready;
  std::vector<int8_t> word(lanes);
  for (unsigned l = 0; l < lanes; ++l) word[l] = static_cast<int8_t>(c.seq_out.mem_rdata[l]);
  p.a_rsp_valid = c.seq_out.mem_rsp_valid && owner_ == Owner::kPlanarA;
  p.b_rsp_valid = c.seq_out.mem_rsp_valid && owner_ == Owner::kPlanarB;
  p.a_rsp_data = word;
  p.b_rsp_data = std::move(word);
  c.planar_out = p0;

  // The VQ loader: a row transfer or a codebook write from the host, its store write taken.
  const bool host_write = h.valid && h.write;
  if (vq_) {
    VqLoadInputs& v = c.vq_in;
    v.in_valid = host_write && h.target == HostTarget::kVqRow;
    v.row = h.addr;
    v.data = &h.data;
    v.cb_we = host_write && h.target == HostTarget::kVqCodebook && !vq0.busy;
    v.cb_row = static_cast<unsigned>(h.addr & 0xffffffffU);
    v.cb_data = &h.data;
    v.apb = stalled ? ApbRequest{} : apb.vq;
    v.st_ready = grant == Grant::kVq && ready;
  }

#ifndef NDEBUG
  // The order of evaluation above holds only while these do not depend on those inputs.
  const PlanarOutputs p1 = planar_.outputs(c.planar_in);
  if (p1.a_req_valid != p0.a_req_valid || p1.b_req_valid != p0.b_req_valid ||
      p1.a_req_addr != p0.a_req_addr || p1.b_req_addr != p0.b_req_addr ||
      p1.w_valid != p0.w_valid || p1.w_addr != p0.w_addr || p1.w_data != p0.w_data) {
    throw std::logic_error("NpuModel: the planar engine's requests depend on its readies");
  }
  SequencerInputs quiet = c.seq_in;
  quiet.mem = MemRequest{};
  const SequencerOutputs s1 = seq_.outputs(quiet);
  if (s1.mem_rsp_valid != c.seq_out.mem_rsp_valid || s1.mem_rdata != c.seq_out.mem_rdata) {
    throw std::logic_error("NpuModel: the sequencer's response depends on its request");
  }
#endif

  // 5. The front end: the task unit, the command processors, the system-memory port.
  TaskUnitInputs& t = c.tasks_in;
  t.apb = apb.tasks;
  const TaskUnitOutputs to = tasks_.outputs(t);
  const bool requests[kMemRequesters] = {cmd0[0].mem_req, cmd0[1].mem_req, to.mem_req,
                                         dma0.mem_req};
  const uint64_t addresses[kMemRequesters] = {cmd0[0].mem_addr, cmd0[1].mem_addr, to.mem_addr,
                                              dma0.mem_addr};
  std::optional<unsigned> chosen;
  for (unsigned r = 0; r < kMemRequesters && !chosen; ++r) {
    if (requests[r]) chosen = r;
  }
  const bool room = reads_.size() < d_.reads_in_flight;
  const bool sys_ready = room && in.sys_req_ready;
  // A write takes no place in the queue of owners (it has no response).
  const bool dma_writes = chosen == 3U && room && dma0.mem_write;
  if (chosen && room && in.sys_req_ready && !dma_writes) {
    c.sys_taken = static_cast<MemRequester>(*chosen);
  }
  if (in.sys_rsp_valid && reads_.empty()) {
    throw std::logic_error("NpuModel: system-memory data with no read outstanding");
  }
  const auto head = reads_.empty() ? std::optional<MemRequester>{} : reads_.front();
  auto rvalid = [&](MemRequester r) { return in.sys_rsp_valid && head == r; };
  t.mem_ready = chosen == 2U && sys_ready;
  t.mem_rvalid = rvalid(MemRequester::kTaskUnit);
  t.mem_rdata = in.sys_rsp_data;
  // The DMA: the neural processor's command, else the planar one's; its completion goes to
  // whoever gave the command it runs.
  DmaInputs& di = c.dma_in;
  for (unsigned k = 0; k < 2 && !c.dma_taken; ++k) {
    if (cmd0[k].dma_valid) {
      di.cmd_valid = true;
      di.cmd = cmd0[k].dma;
      if (dma0.cmd_ready) c.dma_taken = k;
    }
  }
  di.mem_ready = chosen == 3U && sys_ready;
  di.mem_rvalid = rvalid(MemRequester::kDma);
  di.mem_rdata = in.sys_rsp_data;
  di.hp_ready = grant == Grant::kDma && ready;
  di.hp_rsp_valid = c.seq_out.mem_rsp_valid && owner_ == Owner::kDma;
  di.hp_rsp_data.assign(c.seq_out.mem_rdata.begin(), c.seq_out.mem_rdata.begin() + lanes);
  const bool engine_done[2] = {c.seq_out.layer_done, p0.task_done};
  bool task_done[2] = {};
  for (unsigned k = 0; k < 2; ++k) {
    CommandInputs& ci = c.cmd_in[k];
    const TaskGrant& g = to.grant[k];
    ci.start = g.valid;
    ci.desc = g.desc;
    ci.mem_ready = chosen == k && sys_ready;
    ci.mem_rvalid = rvalid(static_cast<MemRequester>(k));
    ci.mem_rdata = in.sys_rsp_data;
    ci.engine_done = engine_done[k];
    ci.engine_err = k == 0 ? c.seq_out.cfg_err : p0.cfg_err;
    ci.base = base_[g.base_index % kBaseEntries];
    ci.dma_ready = c.dma_taken == k;
    ci.dma_done = dma0.done && dma_owner_ == k;
    task_done[k] = cmd_[k].outputs(ci).done;
    t.done[k] = task_done[k] ? 1U : 0U;
  }

  // Outputs.
  NpuOutputs& o = c.out;
  const bool busy = c.seq_out.busy || p0.busy || cmd0[0].busy || cmd0[1].busy || !to.idle ||
                    vq0.busy || dma0.busy;
  if (stalled && in.apb.access()) {
    o.apb = ApbResponse{0, false, false};
  } else if (apb.none && in.apb.access()) {
    o.apb = ApbResponse{0, true, true};
  } else if (apb.seq.access()) {
    o.apb = c.seq_out.apb;
  } else if (apb.planar.access()) {
    o.apb = p0.apb;
  } else if (apb.tasks.access()) {
    o.apb = to.apb;
  } else if (apb.vq.access()) {
    o.apb = vq_->outputs(c.vq_in).apb;
  } else if (apb.own.access()) {
    const bool cfg_err = c.seq_out.cfg_err || p0.cfg_err;
    o.apb = apb_response(map_, apb.own, [&](const regmap::RegisterAt& r) -> uint32_t {
      switch (r.offset) {
        case kStatus:
          return status_ | (cfg_err ? 1U << kCfgErrBit : 0) | (busy ? 1U << kBusyBit : 0) |
                 (to.err ? 1U << kTasksErrBit : 0);
        case kIrqEnable:
          return irq_enable_;
        case kCycles:
          return cycles_;
        case kInfo:
          return r.reg->reset_value();
        default:
          return base_[(r.offset - kBase) / 4];
      }
    });
  }
  // Targets 4 and 7 never wait, nor reads of 5 and 6 (they do nothing), nor anything of 5
  // and 6 without VQ; writes of 5 and 6 wait for an idle VQ loader.
  const bool to_loader =
      vq_ && h.write && (h.target == HostTarget::kVqRow || h.target == HostTarget::kVqCodebook);
  const bool h_ready = to_loader ? !vq0.busy : target >= 4 || (grant == Grant::kHost && ready);
  o.host_ready = !dma0.row_valid && h_ready;
  c.dma_in.row_ready = dma0.row_valid && h_ready;
  o.host_rsp_valid = c.seq_out.mem_rsp_valid && owner_ == Owner::kHost;
  o.host_rdata = resized(c.seq_out.mem_rdata, host_bytes);
  const uint32_t flags = status_ | (to.err ? 1U << kTasksErrBit : 0) |
                         (c.seq_out.cfg_err || p0.cfg_err ? 1U << kCfgErrBit : 0);
  o.irq = (flags & irq_enable_ & kIrqSources) != 0;
  o.busy = busy;
  o.seq_done = c.seq_out.layer_done;
  o.planar_done = p0.task_done;
  o.cfg_err = c.seq_out.cfg_err || p0.cfg_err;
  o.step = c.seq_out.step;
  o.seq_write = c.seq_out.write;
  if (p.w_ready) {
    o.planar_write.valid = true;
    o.planar_write.addr = p0.w_addr;
    o.planar_write.data.assign(p0.w_data.begin(), p0.w_data.begin() + lanes);
  }
  o.sys_req_valid = chosen.has_value() && room;
  o.sys_req_addr = chosen ? addresses[*chosen] : 0;
  o.sys_req_write = dma_writes;
  o.sys_req_wdata = dma_writes ? dma0.mem_wdata : 0;
  o.tasks_idle = to.idle;
  o.tasks_err = to.err;
  o.neural_task_done = task_done[0];
  o.planar_task_done = task_done[1];
  return c;
}

NpuOutputs NpuModel::outputs(const NpuInputs& in) const { return decide(in).out; }

void NpuModel::tick(const NpuInputs& in) {
  const Cycle c = decide(in);
  seq_.tick(c.seq_in);
  planar_.tick(c.planar_in);
  tasks_.tick(c.tasks_in);
  cmd_[0].tick(c.cmd_in[0]);
  cmd_[1].tick(c.cmd_in[1]);
  if (vq_) vq_->tick(c.vq_in);
  dma_.tick(c.dma_in);
  if (c.dma_taken) dma_owner_ = *c.dma_taken;
  owner_ = c.read_owner;
  if (in.sys_rsp_valid) reads_.pop_front();
  if (c.sys_taken) reads_.push_back(*c.sys_taken);

  // Own registers: the completions set the sticky flags (over a clear), a write to CYCLES
  // wins over the count.
  uint32_t clear = 0;
  bool cycles_written = false;
  const ApbRequest own = route(in.apb, planar_apb_bits_, vq_apb_bits_).own;
  if (const auto t = apb_target(map_, own); t && own.pwrite) {
    switch (t->offset) {
      case kStatus:
        clear = own.pwdata & t->reg->w1c_mask();
        break;
      case kIrqEnable:
        irq_enable_ = t->reg->after_write(irq_enable_, own.pwdata);
        break;
      case kCycles:
        cycles_ = own.pwdata;
        cycles_written = true;
        break;
      case kInfo:
        break;
      default:
        base_[(t->offset - kBase) / 4] =
            t->reg->after_write(base_[(t->offset - kBase) / 4], own.pwdata);
        break;
    }
  }
  const uint32_t set = (c.out.seq_done ? 1U << kSeqDoneBit : 0) |
                       (c.out.planar_done ? 1U << kPlanarDoneBit : 0) |
                       (c.out.tasks_idle && !idle_before_ ? 1U << kTasksDoneBit : 0);
  status_ = (status_ & ~clear) | set;
  idle_before_ = c.out.tasks_idle;
  if (!cycles_written && c.out.busy) ++cycles_;
  ++cycle_;
}

}  // namespace npugen::golden
