#include "npugen/golden/tasks/unit_model.hpp"

namespace npugen::golden {
namespace {

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

bool overlap(uint64_t a_base, uint64_t a_words, uint64_t b_base, uint64_t b_words) {
  return a_words != 0 && b_words != 0 && a_base < b_base + b_words && b_base < a_base + a_words;
}

// Region indices in TaskConfig::region.
constexpr int kIn0 = TaskConfigLayout::kIn0Base, kIn1 = TaskConfigLayout::kIn1Base,
              kOut = TaskConfigLayout::kOutBase;

bool overlap(const TaskConfig& a, int ra, const TaskConfig& b, int rb) {
  return overlap(a.region[ra], a.region[ra + 1], b.region[rb], b.region[rb + 1]);
}

}  // namespace

TaskUnitModel::TaskUnitModel(const TaskParams& params)
    : p_(params), map_(tasks_csr::register_map(params)) {
  reset();
}

void TaskUnitModel::reset() {
  s_ = State{};
  const unsigned k = p_.queues, e = p_.entries;
  s_.head.assign(k, 0);
  s_.count.assign(k, 0);
  s_.network_id.assign(k, 0);
  s_.base_index.assign(k, 0);
  s_.priority.assign(k, 0);
  s_.cq.assign(p_.config_queue_depth, TaskConfig{});
  s_.valid.assign(e, false);
  s_.started.assign(e, false);
  s_.entry.assign(e, TaskConfig{});
  s_.seq.assign(e, 0);
  s_.dep.assign(e, 0);
  s_.conf.assign(e, 0);
  for (unsigned kind = 0; kind < kEngineKinds; ++kind) {
    const unsigned n = p_.engines(static_cast<EngineKind>(kind));
    s_.busy[kind].assign(n, false);
    s_.engine_entry[kind].assign(n, 0);
  }
}

bool TaskUnitModel::select(unsigned& queue) const {
  if (s_.lock_valid && s_.count[s_.lock_queue] != 0) {
    queue = s_.lock_queue;
    return true;
  }
  bool found = false;
  for (unsigned q = 0; q < p_.queues; ++q) {
    if (s_.count[q] != 0 && (!found || s_.priority[q] > s_.priority[queue])) {
      queue = q;
      found = true;
    }
  }
  return found;
}

bool TaskUnitModel::grant_for(unsigned kind, TaskGrant& g) const {
  g = TaskGrant{};
  const auto& busy = s_.busy[kind];
  unsigned engine = 0;
  while (engine < busy.size() && busy[engine]) ++engine;
  if (engine == busy.size()) return false;
  for (unsigned e = 0; e < p_.entries; ++e) {
    if (s_.valid[e] && !s_.started[e] && s_.entry[e].kind() == kind &&
        s_.seq[e] == s_.next_seq[kind]) {
      if (s_.dep[e] != 0 || s_.conf[e] != 0) return false;
      const TaskConfig& c = s_.entry[e];
      g = TaskGrant{true, engine, e, c.task_id, c.cycles, c.network_id, c.base_index, c.desc};
      return true;
    }
  }
  return false;
}

TaskUnitOutputs TaskUnitModel::outputs(const TaskUnitInputs& in) const {
  TaskUnitOutputs o = state_outputs();
  o.apb = apb_response(map_, in.apb, [&](const regmap::RegisterAt& r) { return read(r.offset); });
  return o;
}

TaskUnitOutputs TaskUnitModel::state_outputs() const {
  TaskUnitOutputs o;
  if (s_.fetch == Fetch::kFetch) {
    const uint32_t limit = s_.total_known ? s_.total : 2;
    o.mem_req = s_.issued < limit;
  }
  o.mem_addr = (s_.fetch_base + (s_.issued & 0xFFFF)) & mask_of(p_.memory_address_bits());
  for (unsigned kind = 0; kind < kEngineKinds; ++kind) grant_for(kind, o.grant[kind]);
  o.commit = s_.fetch == Fetch::kFull && s_.cq_count < p_.config_queue_depth;
  o.commit_task = o.commit ? s_.fq.task_id : 0;
  bool any = s_.fetch != Fetch::kIdle || s_.cq_count != 0;
  for (unsigned q = 0; q < p_.queues && !any; ++q) any = s_.count[q] != 0;
  for (unsigned e = 0; e < p_.entries && !any; ++e) any = s_.valid[e];
  o.idle = !any;
  o.err = s_.err;
  return o;
}

uint32_t TaskUnitModel::read(uint32_t offset) const {
  if (offset == tasks_csr::kStatus) {
    return (s_.err ? 1U << tasks_csr::kStatusErrBit : 0U) |
           (state_outputs().idle ? 1U << tasks_csr::kStatusIdleBit : 0U);
  }
  const unsigned q = (offset - tasks_csr::kQueueOffset) / tasks_csr::kQueueStride;
  switch ((offset - tasks_csr::kQueueOffset) % tasks_csr::kQueueStride) {
    case tasks_csr::kHead:
      return static_cast<uint32_t>(s_.head[q]);
    case tasks_csr::kCount:
      return static_cast<uint32_t>(s_.count[q]);
    case tasks_csr::kNetworkId:
      return s_.network_id[q];
    case tasks_csr::kBaseIndex:
      return s_.base_index[q];
    case tasks_csr::kPriority:
      return s_.priority[q];
    default:
      return 0;
  }
}

unsigned TaskUnitModel::occupied_entries() const {
  unsigned n = 0;
  for (bool v : s_.valid) n += v ? 1 : 0;
  return n;
}

void TaskUnitModel::parse_word(State& n, uint32_t w) const {
  const uint32_t index = n.received;
  const unsigned rb = p_.region_bits();
  if (index == 0) {
    n.fq.task_id = w & 0xFFFF;
    n.task_switch = (w >> task_desc::kTaskSwitchBit) & 1U;
  } else if (index == 1) {
    uint32_t total = w & 0xFFFF;
    if (total < task_desc::kHeaderWords) {
      n.err = true;
      total = task_desc::kHeaderWords;
    }
    n.total = total;
    n.total_known = true;
  } else if (index >= task_desc::kHeaderWords) {
    if (n.group_left == 0) {
      n.reg_addr = w & 0xFFFF;
      n.group_left = (w >> task_desc::kGroupCountShift) & 0xFF;
    } else {
      const unsigned reg = n.reg_addr;
      if (reg == task_desc::kRegOp) {
        n.fq.op = w & 0x7;
      } else if (reg >= task_desc::kRegIn0Base && reg <= task_desc::kRegOutWords) {
        n.fq.region[reg - task_desc::kRegIn0Base] = w & mask_of(rb);
      } else if (reg == task_desc::kRegCycles) {
        n.fq.cycles = w & mask_of(p_.cycle_bits);
      }
      n.reg_addr = (n.reg_addr + 1) & 0xFFFF;
      --n.group_left;
    }
  }
  ++n.received;
  if (n.total_known && n.received == n.total) n.fetch = Fetch::kFull;
}

bool TaskUnitModel::quiescent() const {
  if (s_.fetch == Fetch::kFetch) return false;
  unsigned q = 0;
  if (s_.fetch == Fetch::kIdle && select(q)) return false;
  const TaskUnitOutputs o = state_outputs();
  if (o.commit || o.grant[0].valid || o.grant[1].valid) return false;
  if (s_.fetch == Fetch::kFull && !s_.lock_valid) {
    for (unsigned k = 0; k < p_.queues; ++k) {
      if (s_.count[k] != 0 && s_.priority[k] > s_.priority[s_.fq_queue]) return false;
    }
  }
  if (s_.cq_count != 0) {
    for (bool v : s_.valid) {
      if (!v) return false;
    }
  }
  return true;
}

void TaskUnitModel::tick(const TaskUnitInputs& in) {
  // Decisions, all from the registered state.
  const TaskUnitOutputs o = state_outputs();
  const bool err_was = s_.err;
  s_.err = false;  // set again below if a descriptor's length is malformed this cycle
  unsigned sel = 0;
  const bool sel_valid = s_.fetch == Fetch::kIdle && select(sel);
  bool replace = false;
  if (s_.fetch == Fetch::kFull && !o.commit && !s_.lock_valid) {
    for (unsigned q = 0; q < p_.queues; ++q) {
      replace = replace || (s_.count[q] != 0 && s_.priority[q] > s_.priority[s_.fq_queue]);
    }
  }
  unsigned slot = p_.entries;
  if (s_.cq_count != 0) {
    for (unsigned e = 0; e < p_.entries && slot == p_.entries; ++e) {
      if (!s_.valid[e]) slot = e;
    }
  }
  const bool insert = slot != p_.entries;
  const TaskConfig incoming = s_.cq[s_.cq_rd];
  const TaskConfig committed = s_.fq;

  // Completions free their entries.
  uint64_t freed = 0;
  for (unsigned kind = 0; kind < kEngineKinds; ++kind) {
    for (unsigned eng = 0; eng < s_.busy[kind].size(); ++eng) {
      if ((in.done[kind] >> eng) & 1U && s_.busy[kind][eng]) {
        freed |= uint64_t{1} << s_.engine_entry[kind][eng];
        s_.busy[kind][eng] = false;
      }
    }
  }
  // Grants.
  for (unsigned kind = 0; kind < kEngineKinds; ++kind) {
    const TaskGrant& g = o.grant[kind];
    if (!g.valid) continue;
    s_.started[g.entry] = true;
    s_.next_seq[kind] = (s_.next_seq[kind] + 1) & static_cast<uint32_t>(mask_of(p_.seq_bits()));
    s_.busy[kind][g.engine] = true;
    s_.engine_entry[kind][g.engine] = g.entry;
  }
  // Insertion, against the entries that stay.
  uint64_t live = 0;
  for (unsigned e = 0; e < p_.entries; ++e) {
    if (s_.valid[e]) live |= uint64_t{1} << e;
  }
  live &= ~freed;
  for (unsigned e = 0; e < p_.entries; ++e) {
    if ((freed >> e) & 1U) {
      s_.valid[e] = false;
      s_.started[e] = false;
    }
    s_.dep[e] &= ~freed;
    s_.conf[e] &= ~freed;
  }
  if (insert) {
    uint64_t dep = 0, conf = 0;
    for (unsigned j = 0; j < p_.entries; ++j) {
      if (!((live >> j) & 1U)) continue;
      const TaskConfig& old = s_.entry[j];
      if (overlap(old, kOut, incoming, kIn0) || overlap(old, kOut, incoming, kIn1)) {
        dep |= uint64_t{1} << j;
      }
      if (overlap(incoming, kOut, old, kIn0) || overlap(incoming, kOut, old, kIn1) ||
          overlap(incoming, kOut, old, kOut)) {
        conf |= uint64_t{1} << j;
      }
    }
    const unsigned kind = incoming.kind();
    s_.valid[slot] = true;
    s_.started[slot] = false;
    s_.entry[slot] = incoming;
    s_.seq[slot] = s_.ins_seq[kind];
    s_.ins_seq[kind] = (s_.ins_seq[kind] + 1) & static_cast<uint32_t>(mask_of(p_.seq_bits()));
    s_.dep[slot] = dep;
    s_.conf[slot] = conf;
    s_.cq_rd = (s_.cq_rd + 1) % p_.config_queue_depth;
    --s_.cq_count;
  }
  // Fetch queue and task queues.
  const uint64_t addr_mask = mask_of(p_.memory_address_bits());
  const uint64_t count_mask = mask_of(tasks_csr::kCountBits);
  switch (s_.fetch) {
    case Fetch::kIdle:
      if (sel_valid) {
        s_.fetch = Fetch::kFetch;
        s_.fq_queue = sel;
        s_.fetch_base = s_.head[sel];
        s_.issued = s_.received = s_.total = 0;
        s_.total_known = false;
        s_.group_left = s_.reg_addr = 0;
        s_.task_switch = true;
        s_.fq = TaskConfig{};
        s_.fq.network_id = s_.network_id[sel];
        s_.fq.base_index = s_.base_index[sel];
        s_.fq.desc = s_.head[sel];
      }
      break;
    case Fetch::kFetch:
      if (o.mem_req && in.mem_ready) ++s_.issued;  // only a taken request is issued
      if (in.mem_rvalid) parse_word(s_, in.mem_rdata);
      break;
    case Fetch::kFull:
      if (o.commit) {
        const unsigned q = s_.fq_queue;
        s_.cq[s_.cq_wr] = committed;
        s_.cq_wr = (s_.cq_wr + 1) % p_.config_queue_depth;
        ++s_.cq_count;
        s_.head[q] = (s_.head[q] + s_.total) & addr_mask;
        s_.count[q] = (s_.count[q] - 1) & count_mask;
        s_.lock_valid = !s_.task_switch && s_.count[q] != 0;
        s_.lock_queue = q;
        s_.fetch = Fetch::kIdle;
      } else if (replace) {
        s_.fetch = Fetch::kIdle;
      }
      break;
  }
  // Register writes (they win over the commit's update of the same register); a STATUS.ERR
  // set this cycle wins over its clear.
  const bool err_set = s_.err;
  s_.err = err_was;
  if (const auto target = apb_target(map_, in.apb); target && in.apb.pwrite) {
    const regmap::Register& r = *target->reg;
    const uint32_t wdata = in.apb.pwdata;
    if (target->group == nullptr) {
      s_.err = ((r.after_write(s_.err ? 1U << tasks_csr::kStatusErrBit : 0U, wdata) >>
                 tasks_csr::kStatusErrBit) &
                1U) != 0;
    } else {
      const unsigned q = target->instance;
      switch (r.offset) {
        case tasks_csr::kHead:
          s_.head[q] = r.after_write(static_cast<uint32_t>(s_.head[q]), wdata);
          break;
        case tasks_csr::kCount:
          s_.count[q] = r.after_write(static_cast<uint32_t>(s_.count[q]), wdata);
          break;
        case tasks_csr::kNetworkId:
          s_.network_id[q] = r.after_write(s_.network_id[q], wdata);
          break;
        case tasks_csr::kBaseIndex:
          s_.base_index[q] = r.after_write(s_.base_index[q], wdata);
          break;
        case tasks_csr::kPriority:
          s_.priority[q] = r.after_write(s_.priority[q], wdata);
          break;
        default:
          break;
      }
    }
  }
  s_.err = s_.err || err_set;
}

}  // namespace npugen::golden
