// encode (passes.hpp): the program. With the task unit, one descriptor a task in system
// memory from word 0, the data area after them (the DMA's pointers moved there), and the C
// driver's queueing and waits; with the host, the steps lower made.
#include <fmt/format.h>

#include "npugen/golden/tasks/params.hpp"
#include "passes.hpp"

namespace npugen::compiler {
namespace {

// The descriptors into system memory, then the host's queueing and waits.
void enqueue(const Target& t, Graph& g, golden::Program& p) {
  namespace td = golden::task_desc;
  const golden::TaskParams& tp = t.d.tasks;
  std::vector<uint32_t>& m = p.memory;
  for (size_t i = 0; i < g.tasks.size(); ++i) {
    const LayerTask& task = g.tasks[i];
    const uint64_t first = m.size();
    p.descriptors.push_back(first);
    m.push_back(static_cast<uint32_t>(i & 0xffffU) | (1U << td::kTaskSwitchBit) |
                (task.load ? 1U << td::kInMemoryBit : 0U) |
                (task.store ? 1U << td::kOutMemoryBit : 0U));
    m.push_back(0);  // the length, below
    m.push_back(0);  // the DMA's pointers, below
    m.push_back(0);
    m.push_back((7U << td::kGroupCountShift) | td::kRegOp);
    m.push_back(static_cast<uint32_t>(task.op));
    for (const uint64_t v : task.region) m.push_back(static_cast<uint32_t>(v));
    if (task.dma_target != golden::DmaTarget::kBuffers) {  // a load of rows
      m.push_back((3U << td::kGroupCountShift) | td::kRegDmaTarget);
      m.push_back(static_cast<uint32_t>(task.dma_target));
      m.push_back(static_cast<uint32_t>(task.dma_row));
      m.push_back(static_cast<uint32_t>(task.dma_rows));
    }
    // The engine's registers, consecutive ones in one group.
    for (size_t w = 0; w < task.writes.size();) {
      size_t n = 1;
      while (w + n < task.writes.size() && n < td::kMaxGroupCount &&
             task.writes[w + n].first == task.writes[w].first + n) {
        ++n;
      }
      m.push_back(task.writes[w].first | static_cast<uint32_t>(n << td::kGroupCountShift));
      for (size_t k = 0; k < n; ++k) m.push_back(task.writes[w + k].second);
      w += n;
    }
    const uint64_t length = m.size() - first;
    if (length > td::kMaxWords) {
      throw t.error(task.layer,
                    fmt::format("its descriptor has {} words, above {}", length, td::kMaxWords));
    }
    m[first + 1] = static_cast<uint32_t>(length);
  }
  // The data area after the descriptors: the input, the tensors kept in memory, the
  // output (a buffer word ceil(L / 4) memory words); the DMA's pointers into it.
  const uint64_t data = m.size();
  auto place_data = [&](std::optional<uint64_t>& at) {
    if (at) *at += data;
  };
  for (size_t i = 0; i < g.tasks.size(); ++i) {
    const LayerTask& task = g.tasks[i];
    if (task.load) m[p.descriptors[i] + 2] = static_cast<uint32_t>(data + *task.load);
    if (task.store) m[p.descriptors[i] + 3] = static_cast<uint32_t>(data + *task.store);
  }
  place_data(p.input_at);
  for (golden::ProgramOutput& o : p.outputs) place_data(o.at);
  place_data(p.input.mem);
  for (golden::ProgramLayer& l : p.layers) place_data(l.out.mem);
  m.insert(m.end(), g.data.begin(), g.data.end());
  if (m.size() > tp.memory_words) {
    throw CompileError(
        fmt::format("the descriptors ({} words for {} tasks) and the data the DMA moves ({} "
                    "words: the input, the output, the tensors kept in memory and the rows the "
                    "DMA loads: weights, parameters, gains) do not fit "
                    "the system memory the task unit addresses ({} words; "
                    "tasks.memory_words)",
                    data, g.tasks.size(), g.data.size(), tp.memory_words),
        static_cast<int>(g.tasks.back().layer));
  }
  for (golden::ProgramStep& s : golden::npu_driver_steps(0, 0, g.tasks.size())) {
    p.steps.push_back(std::move(s));
  }
}

}  // namespace

golden::Program encode(const Target& t, Graph& g) {
  golden::Program p;
  p.lanes = t.d.lanes();
  p.sequencing = t.tasks ? golden::Sequencing::kTasks : golden::Sequencing::kHost;
  p.input = g.tensors[0];
  p.packing = g.packing;
  p.layers = std::move(g.layers);
  p.steps = std::move(g.steps);
  if (t.tasks) p.input_at = g.input_at;
  // The network's outputs, with the DMA each with its area (placed by enqueue).
  for (const golden::net::NetworkOutput& o : golden::net::network_outputs(t.n)) {
    p.outputs.push_back({o.tensor - 1, o.name, t.tasks ? g.output_at[o.tensor - 1] : std::nullopt});
  }
  if (t.tasks) enqueue(t, g, p);
  return p;
}

}  // namespace npugen::compiler
