// The task unit's files: its RTL, register map (Markdown and C header) and synthesis
// script.
#include <fmt/format.h>

#include <algorithm>

#include "blocks/tasks/tasks.hpp"
#include "elab/design.hpp"
#include "emit/eda_emitter.hpp"
#include "emit/templates.hpp"

namespace npugen::blocks::tasks {
namespace {

using emit::dec;
using emit::file_header;
using emit::render;
using emit::TemplateData;
using emit::upper_case;

// A count of zero-extension to `to` bits of a `from`-bit signal (or its low bits).
std::string fit(const std::string& signal, int from, int to) {
  if (from == to) return signal;
  if (from > to) return fmt::format("{}[{}:0]", signal, to - 1);
  return fmt::format("{{{}'d0, {}}}", to - from, signal);
}

TemplateData tasks_data(const elab::Design& design, const Design& t) {
  const auto& p = t.params;
  const int rb = static_cast<int>(p.region_bits());
  const int cb = static_cast<int>(p.cycle_bits);
  const int maw = static_cast<int>(p.memory_address_bits());
  const int eb = static_cast<int>(p.entry_bits());
  const int qb = static_cast<int>(p.queue_bits());
  const int sb = static_cast<int>(p.seq_bits());
  const int neural_bits = static_cast<int>(p.engine_bits(golden::EngineKind::kNeural));
  const int planar_bits = static_cast<int>(p.engine_bits(golden::EngineKind::kPlanar));
  const int cq = static_cast<int>(p.config_queue_depth);
  const int cqp = static_cast<int>(golden::field_bits(p.config_queue_depth));
  const int cqc = static_cast<int>(p.config_queue_bits());
  TemplateData d = emit::common_data(design, "//");
  d.set("unit_module", t.unit_module);
  d.set("manager_module", t.manager_module);
  d.set("config_queue_module", t.config_queue_module);
  d.set("buffer_module", t.buffer_module);
  d.set("queues", dec(p.queues));
  d.set("entries", dec(p.entries));
  d.set("neural_engines", dec(p.neural_engines));
  d.set("planar_engines", dec(p.planar_engines));
  d.set("neural_msb", dec(p.neural_engines - 1));
  d.set("planar_msb", dec(p.planar_engines - 1));
  d.set("neural_bits", dec(neural_bits));
  d.set("neural_bits_msb", dec(neural_bits - 1));
  d.set("planar_bits", dec(planar_bits));
  d.set("planar_bits_msb", dec(planar_bits - 1));
  d.set("cq_depth", dec(cq));
  d.set("cq_last", dec(cq - 1));
  d.set("cqp", dec(cqp));
  d.set("cqp_msb", dec(cqp - 1));
  d.set("cqc", dec(cqc));
  d.set("cqc_msb", dec(cqc - 1));
  d.set("cfg_msb", dec(t.config_width - 1));
  d.set("rb", dec(rb));
  d.set("rb_msb", dec(rb - 1));
  d.set("cb", dec(cb));
  d.set("cb_msb", dec(cb - 1));
  d.set("cycles_lsb", dec(35 + 6 * rb));
  d.set("cfg_upper_zero", fmt::format("{}'d0", t.config_width - 32));
  d.set("maw_msb", dec(maw - 1));
  d.set("eb", dec(eb));
  d.set("eb_msb", dec(eb - 1));
  d.set("qb", dec(qb));
  d.set("qb_msb", dec(qb - 1));
  d.set("sb", dec(sb));
  d.set("sb_msb", dec(sb - 1));
  d.set("issued_to_maw", fit("issued_q", 16, maw));
  d.set("total_to_maw", fit("total_q", 16, maw));
  d.set("header_words", dec(golden::task_desc::kHeaderWords));
  d.set("switch_bit", dec(golden::task_desc::kTaskSwitchBit));
  d.set("reg_op", fmt::format("{:03x}", golden::task_desc::kRegOp));
  d.set("reg_in0", dec(golden::task_desc::kRegIn0Base));
  d.set("reg_cycles", fmt::format("{:03x}", golden::task_desc::kRegCycles));
  d.set("csr_head", dec(golden::task_csr::kHead));
  d.set("csr_count", dec(golden::task_csr::kCount));
  d.set("csr_netid", dec(golden::task_csr::kNetworkId));
  d.set("csr_baseidx", dec(golden::task_csr::kBaseIndex));
  d.set("csr_prio", dec(golden::task_csr::kPriority));
  d.set("head_rdata", fit("head_q[q]", maw, 32));
  // Interface bits the manager ignores.
  std::vector<std::string> unused;
  const int wdata_used = std::max(24, maw);
  if (wdata_used < 32) unused.push_back(fmt::format("csr_wdata_i[31:{}]", wdata_used));
  const int rdata_used = std::max({25, rb, cb});
  if (rdata_used < 32) unused.push_back(fmt::format("mem_rdata_i[31:{}]", rdata_used));
  std::string joined;
  for (const auto& u : unused) joined += (joined.empty() ? "" : ", ") + u;
  d.set("unused_bits", unused.empty() ? std::string("{1'b0}") : "{" + joined + "}");
  return d;
}

void emit_docs(const elab::Design& design, const Design& t, BlockFiles& out, util::FileMap& files) {
  namespace csr = golden::task_csr;
  const auto& p = t.params;
  const std::string registers_md = "docs/tasks_registers.md";
  const std::string registers_h = fmt::format("sw/{}_tasks_regs.h", design.config.design.name);
  out.register_maps = {registers_md, registers_h};
  struct Reg {
    const char* name;
    unsigned offset;
    std::string bits;
    const char* meaning;
  };
  const Reg regs[] = {
      {"HEAD", csr::kHead, fmt::format("{}:0", p.memory_address_bits() - 1),
       "Descriptor-memory word address of the queue's next task descriptor."},
      {"COUNT", csr::kCount, fmt::format("{}:0", csr::kCountBits - 1),
       "Tasks left in the list; writing a non-zero count enqueues the list. Program the "
       "other registers while COUNT is 0."},
      {"NETWORK_ID", csr::kNetworkId, "7:0", "Network id carried with each task."},
      {"BASE_INDEX", csr::kBaseIndex, "7:0",
       "Base-table index carried with each task (for the DMA's address relocation)."},
      {"PRIORITY", csr::kPriority, fmt::format("{}:0", csr::kPriorityBits - 1),
       "Priority: the highest non-empty queue is fetched from (ties: the lower queue)."}};
  std::string md = fmt::format(
      "<!-- {} -->\n# Registers of {}\n\n"
      "{} task queue(s); 32-bit registers on `csr_addr_i` at word address queue x {} + "
      "offset, written with `csr_we_i` / `csr_wdata_i` and read back on `csr_rdata_o` "
      "(combinational; an address with no register reads 0). The C header `{}` holds the same map; "
      "descriptor layout in the npugen "
      "documentation (docs/tasks.md).\n\n"
      "| register | offset | bits | meaning |\n| --- | --- | --- | --- |\n",
      file_header(design, "").substr(1), t.unit_module, p.queues, csr::kQueueStride, registers_h);
  const std::string prefix = upper_case(design.config.design.name) + "_TASKS";
  const std::string guard = prefix + "_REGS_H";
  std::string h = fmt::format(
      "{}\n//\n// Task-queue registers of {} (SPEC M2), as in {}.\n#ifndef {}\n#define {}\n\n"
      "#define {}_QUEUES {}u\n#define {}_QUEUE_STRIDE {}u /* words */\n",
      file_header(design, "//"), t.unit_module, registers_md, guard, guard, prefix, p.queues,
      prefix, csr::kQueueStride);
  for (const Reg& r : regs) {
    md += fmt::format("| `{}` | {} | {} | {} |\n", r.name, r.offset, r.bits, r.meaning);
    h += fmt::format("/* {} */\n#define {}_{}(queue) ((queue) * {}u + {}u)\n", r.meaning, prefix,
                     r.name, csr::kQueueStride, r.offset);
  }
  h += fmt::format("\n#endif /* {} */\n", guard);
  files[registers_md] = md;
  files[registers_h] = h;
}

}  // namespace

BlockFiles Design::emit(const elab::Design& design, util::FileMap& files) const {
  const Design& t = *this;
  BlockFiles out;
  out.top = unit_module;
  const TemplateData d = tasks_data(design, t);
  const std::pair<std::string, const char*> modules[] = {
      {manager_module, "tasks/manager.sv.mustache"},
      {config_queue_module, "tasks/config_queue.sv.mustache"},
      {buffer_module, "tasks/buffer.sv.mustache"},
      {unit_module, "tasks/tasks.sv.mustache"}};
  for (const auto& [module, tmpl] : modules) {
    const std::string path = fmt::format("rtl/{}.sv", module);
    files[path] = render(tmpl, d);
    out.rtl.push_back(path);
  }
  emit_docs(design, t, out, files);
  out.synthesis_script = emit::synthesis_script(design, block(), out.top, out.rtl, files);
  return out;
}

}  // namespace npugen::blocks::tasks
