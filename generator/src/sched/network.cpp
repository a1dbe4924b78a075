#include "sched/network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "blocks/pe_array/pe_array.hpp"
#include "blocks/planar/planar.hpp"
#include "blocks/tasks/tasks.hpp"
#include "config/schema_reader.hpp"
#include "net/network_file.hpp"
#include "npugen/compiler/op_table.hpp"

namespace npugen::sched {
namespace {

using config::Location;

struct Shape {
  uint64_t h = 0, w = 0, c = 0;
  [[nodiscard]] uint64_t words() const { return h * w * c; }
};

struct Tensor {
  Shape shape;
  golden::Region region;
  size_t last_reader = 0;  ///< index of the last task (list order) reading it
  bool keep = false;       ///< the network's output: never freed
};

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Next-fit allocation over the free gaps of [0, size): the search starts where the last
// allocation ended and wraps around, so freed space is reused only when the buffer has
// gone round once. Reusing it at once would tie a tensor to the last reader of the one it
// replaces (a write-after-read conflict) and serialize tasks that could overlap.
class BufferAllocator {
 public:
  explicit BufferAllocator(uint64_t size) : size_(size) {}
  bool allocate(uint64_t words, golden::Region& out) {
    for (const uint64_t from : {cursor_, uint64_t{0}}) {
      uint64_t at = from;
      bool placed = false;
      for (auto it = used_.begin(); it != used_.end(); ++it) {
        const uint64_t end = it->first + it->second;
        if (end <= at) continue;
        if (it->first >= at && it->first - at >= words) {
          placed = true;
          break;
        }
        at = std::max(at, end);
      }
      if (placed || at + words <= size_) {
        used_.emplace(at, words);
        out = golden::Region{at, words};
        cursor_ = at + words;
        return true;
      }
    }
    return false;
  }
  void release(const golden::Region& r) { used_.erase(r.base); }
  [[nodiscard]] uint64_t live() const {
    uint64_t n = 0;
    for (const auto& [base, len] : used_) n += len;
    return n;
  }

 private:
  uint64_t size_;
  uint64_t cursor_ = 0;
  std::map<uint64_t, uint64_t> used_;
};

}  // namespace

TaskListResult load_network_text(const std::string& text, const std::string& display_name,
                                 const config::Config& config, const std::filesystem::path& dir) {
  TaskListResult result;
  net::NetworkResult read = net::read_network_text(text, display_name, dir);
  result.diagnostics = std::move(read.diagnostics);
  if (!read.file) return result;
  const net::NetworkFile& file = *read.file;
  const blocks::tasks::TasksConfig& unit = blocks::tasks::config_of(config);
  const golden::TaskParams params = unit.params;
  const golden::PeArrayParams& array = blocks::pe_array::params(config);
  // Planar task durations come from the planar engine's cycle model (its section, or its
  // defaults when the design has none); when the design generates the engine, a layer it
  // would refuse is an error here.
  const blocks::planar::PlanarConfig& planar = blocks::planar::config_of(config);
  config::Diagnostics& diags = result.diagnostics;
  const Location input_where{file.input_line, 1};

  struct Layer {
    std::string name;
    golden::net::Op op;
    std::vector<size_t> inputs;  ///< tensor indices
    Shape out;
    uint64_t split = 1;
    golden::reference::PoolWindow window;
    golden::reference::ReduceAxis axis;
    Location where;
  };
  auto shape = [](const golden::net::Shape& s) {
    return Shape{static_cast<uint64_t>(s.h), static_cast<uint64_t>(s.w),
                 static_cast<uint64_t>(s.c)};
  };
  std::vector<Tensor> tensors(1);
  tensors[0].shape = shape(file.network.input);
  std::vector<Layer> parsed;
  const uint64_t macs_per_cycle = uint64_t{array.tiles} * array.lanes;
  const uint64_t ne_latency = array.latency();
  for (size_t i = 0; i < file.network.layers.size(); ++i) {
    const golden::net::Layer& nl = file.network.layers[i];
    Layer l{nl.name,
            nl.op,
            nl.inputs,
            shape(nl.out),
            file.plan[i].split,
            nl.window,
            nl.axis,
            Location{nl.line, file.plan[i].column}};
    const char* what = golden::net::is_neural(l.op) ? "output channels" : "channels";
    if (l.out.c % l.split != 0) {
      config::report(
          diags, {display_name, l.where.line, l.where.column, fmt::format("layers[{}].split", i),
                  fmt::format("layer {}: {} {} do not split into {} equal parts", l.name, l.out.c,
                              what, l.split)});
    }
    // A task has two input regions (golden::Task::in): a concat of more is not scheduled.
    if (l.inputs.size() > 2) {
      config::report(
          diags, {display_name, l.where.line, l.where.column, fmt::format("layers[{}].inputs", i),
                  fmt::format("layer {}: {} inputs; npugen schedule's tasks read two "
                              "regions at most (npugen compile runs a concat of more)",
                              l.name, l.inputs.size())});
    }
    Tensor t;
    t.shape = l.out;
    tensors.push_back(t);
    parsed.push_back(l);
  }
  if (!diags.empty()) return result;

  // A planar layer's part as the planar engine's task (pool: max pooling).
  auto planar_task = [&](const Layer& l) {
    const Shape x = tensors[l.inputs[0]].shape;
    const compiler::OpInfo& info = compiler::op_info(l.op);
    const bool pool = golden::is_pool(info.planar);
    const golden::PlanarOp op = info.planar;
    golden::PlanarTask pt = golden::PlanarTask::dense(planar.params, op, static_cast<unsigned>(x.h),
                                                      static_cast<unsigned>(x.w),
                                                      static_cast<unsigned>(x.c / l.split), 1);
    if (golden::is_reduce(op)) {
      pt.axis = l.axis == golden::reference::ReduceAxis::kSpatial ? golden::PlanarAxis::kSpatial
                                                                  : golden::PlanarAxis::kChannels;
    }
    if (pool) {
      pt.kernel_h = static_cast<unsigned>(l.window.kernel_h);
      pt.kernel_w = static_cast<unsigned>(l.window.kernel_w);
      pt.stride_y = static_cast<unsigned>(l.window.stride_y);
      pt.stride_x = static_cast<unsigned>(l.window.stride_x);
      pt.pad_top = static_cast<unsigned>(l.window.pad_top);
      pt.pad_bottom = static_cast<unsigned>(l.window.pad_bottom);
      pt.pad_left = static_cast<unsigned>(l.window.pad_left);
      pt.pad_right = static_cast<unsigned>(l.window.pad_right);
    }
    return pt;
  };
  if (planar.enabled) {
    for (size_t li = 0; li < parsed.size(); ++li) {
      const Layer& l = parsed[li];
      if (golden::net::is_neural(l.op)) continue;
      const golden::PlanarTask pt = planar_task(l);
      std::string why = golden::planar_refusal(planar.params, pt);
      if (why.empty()) continue;
      if (pt.kernel_h > planar.params.max_window) {
        why = fmt::format(
            "a {}x{} window is larger than the generated maximum {} "
            "(planar.max_window)",
            pt.kernel_h, pt.kernel_w, planar.params.max_window);
      }
      config::report(diags,
                     {display_name, l.where.line, l.where.column, fmt::format("layers[{}]", li),
                      fmt::format("layer {}: the planar engine refuses its task "
                                  "({}x{}x{}): {}",
                                  l.name, pt.height, pt.width, pt.channels, why)});
    }
    if (!diags.empty()) return result;
  }

  // Tasks in list order; record each tensor's last reader.
  std::vector<golden::Task> tasks;
  std::vector<std::pair<size_t, uint64_t>> task_layer;  // (layer, split part)
  for (size_t li = 0; li < parsed.size(); ++li) {
    for (uint64_t part = 0; part < parsed[li].split; ++part) {
      task_layer.emplace_back(li, part);
      for (size_t in : parsed[li].inputs) tensors[in].last_reader = task_layer.size() - 1;
    }
  }
  for (const golden::net::NetworkOutput& o : golden::net::network_outputs(file.network)) {
    tensors.at(o.tensor).keep = true;  // the network's outputs stay
  }
  BufferAllocator buffer(params.buffer_words);
  auto place = [&](size_t tensor, const std::string& who, Location where, const std::string& key) {
    if (!buffer.allocate(tensors[tensor].shape.words(), tensors[tensor].region)) {
      config::report(
          diags,
          {display_name, where.line, where.column, key,
           fmt::format("{}: its {} words do not fit the data buffer ({} words, {} in "
                       "use; tasks.buffer_words)",
                       who, tensors[tensor].shape.words(), params.buffer_words, buffer.live())});
      return false;
    }
    return true;
  };
  if (!place(0, "the input", input_where, "input")) return result;
  for (size_t ti = 0; ti < task_layer.size(); ++ti) {
    const auto [li, part] = task_layer[ti];
    const Layer& l = parsed[li];
    const size_t out_tensor = li + 1;
    if (part == 0 && !place(out_tensor, "layer " + l.name, l.where, fmt::format("layers[{}]", li)))
      return result;
    golden::Task t;
    t.name = l.split > 1 ? fmt::format("{}{}", l.name, part) : l.name;
    const Shape x = tensors[l.inputs[0]].shape;
    const Tensor& out = tensors[out_tensor];
    const uint64_t slice = out.region.words / l.split;
    t.out = golden::Region{out.region.base + part * slice, slice};
    // Neural parts read the whole input; planar parts their channel slice of it.
    const bool neural = golden::net::is_neural(l.op);
    for (size_t k = 0; k < l.inputs.size(); ++k) {
      const golden::Region whole = tensors[l.inputs[k]].region;
      const uint64_t part_words = neural ? whole.words : whole.words / l.split;
      t.in[k] = golden::Region{neural ? whole.base : whole.base + part * part_words, part_words};
    }
    t.op = compiler::op_info(l.op).task;
    if (l.op == golden::net::Op::kConv) {
      const uint64_t kernel =
          static_cast<uint64_t>(l.window.kernel_h) * static_cast<uint64_t>(l.window.kernel_w);
      const uint64_t macs = l.out.h * l.out.w * (l.out.c / l.split) * kernel * x.c;
      t.cycles = ceil_div(macs, macs_per_cycle) + ne_latency;
      t.shape = {static_cast<uint32_t>(x.h),
                 static_cast<uint32_t>(x.w),
                 static_cast<uint32_t>(x.c),
                 static_cast<uint32_t>(l.out.c / l.split),
                 static_cast<uint32_t>(l.window.kernel_h),
                 static_cast<uint32_t>(l.window.stride_y)};
    } else if (l.op == golden::net::Op::kFc) {
      t.cycles = ceil_div(x.words() * (l.out.c / l.split), macs_per_cycle) + ne_latency;
      t.shape = {static_cast<uint32_t>(x.words()), static_cast<uint32_t>(l.out.c / l.split)};
    } else {
      t.cycles = golden::planar_cycles(planar.params, planar_task(l));
      t.shape = {static_cast<uint32_t>(l.out.h), static_cast<uint32_t>(l.out.w),
                 static_cast<uint32_t>(l.out.c)};
    }
    tasks.push_back(std::move(t));
    // Free every tensor whose last reader this was (the compiler's view, in list order;
    // the hardware's conflict tracking keeps later writers off it until it is read).
    for (size_t in : l.inputs) {
      if (tensors[in].last_reader == ti && !tensors[in].keep) buffer.release(tensors[in].region);
    }
  }
  // Each task is reported at the layer it comes from.
  ListLocations where{
      display_name, "layers", Location{file.layers_line, file.layers_column}, {}, {}};
  for (const auto& [li, part] : task_layer) {
    where.task.push_back(parsed[li].where);
    where.task_key.push_back(fmt::format("layers[{}]", li));
  }
  check_task_limits(tasks, params, where, diags);
  if (diags.empty()) result.tasks = std::move(tasks);
  return result;
}

TaskListResult load_network_file(const std::filesystem::path& file, const config::Config& config) {
  return load_input_file(file, [&](const std::string& text, const std::string& name) {
    return load_network_text(text, name, config, file.parent_path());
  });
}

}  // namespace npugen::sched
