#include "sched/network.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

#include "blocks/pe_array/pe_array.hpp"
#include "blocks/planar/planar.hpp"
#include "blocks/tasks/tasks.hpp"
#include "config/schema_reader.hpp"

namespace npugen::sched {
namespace {

using config::Location;
using config::Section;

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

// TensorFlow's SAME padding along one axis: the output ceil(in / stride), the padding the
// windows need split with the extra row or column at the end.
std::pair<unsigned, unsigned> same_padding(uint64_t in, uint64_t kernel, uint64_t stride) {
  const uint64_t out = ceil_div(in, stride);
  const uint64_t need = (out - 1) * stride + kernel;
  const uint64_t total = need > in ? need - in : 0;
  return {static_cast<unsigned>(total / 2), static_cast<unsigned>(total - total / 2)};
}

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
                                 const config::Config& config) {
  TaskListResult result;
  const auto yaml = parse_document(text, display_name, result.diagnostics);
  if (!yaml) return result;
  const YAML::Node& document = *yaml;
  const blocks::tasks::TasksConfig& unit = blocks::tasks::config_of(config);
  const golden::TaskParams params = unit.params;
  const golden::PeArrayParams& array = blocks::pe_array::params(config);
  // Planar task durations come from the planar engine's cycle model (its section, or its
  // defaults when the design has none); when the design generates the engine, a layer it
  // would refuse is an error here.
  const blocks::planar::PlanarConfig& planar = blocks::planar::config_of(config);
  config::Diagnostics& diags = result.diagnostics;
  config::Reader reader(display_name, diags);
  Section root = reader.root(document);
  Section input = root.section("input", "The network's input tensor (height, width, channels).");
  const Location input_where = root.key_location_of("input");
  Shape in_shape;
  in_shape.h = static_cast<uint64_t>(input.integer("height", {1, 1 << 16, std::nullopt, "H"}));
  in_shape.w = static_cast<uint64_t>(input.integer("width", {1, 1 << 16, std::nullopt, "W"}));
  in_shape.c = static_cast<uint64_t>(input.integer("channels", {1, 1 << 16, std::nullopt, "C"}));
  input.finish();
  // A network without layers is reported at its input, the last thing it has.
  std::vector<Section> layers;
  if (root.has("layers")) {
    layers = root.list("layers", "Layers, in list order.", 1, 1 << 16, 0);
  } else {
    reader.error(input_where, "layers",
                 fmt::format("required key is missing: a list of layers must follow the "
                             "input (line {})",
                             input_where.line));
  }

  struct Layer {
    std::string name;
    std::string op;
    std::vector<size_t> inputs;  ///< tensor indices
    Shape out;
    uint64_t split = 1, kernel = 1, stride = 1;
    bool same = true;
    Location where;
  };
  std::vector<Tensor> tensors(1);
  tensors[0].shape = in_shape;
  std::map<std::string, size_t> tensor_of = {{"input", 0}};
  std::vector<Layer> parsed;
  const uint64_t macs_per_cycle = uint64_t{array.tiles} * array.lanes;
  const uint64_t ne_latency = array.latency();
  for (size_t i = 0; i < layers.size(); ++i) {
    Section& s = layers[i];
    Layer l;
    l.where = s.location_of("name");
    l.name = s.identifier("name", std::nullopt, "Layer name.");
    l.op = s.choice(
        "op", "conv", "conv, fc, pool, add or activation", "Layer kind.", [](const std::string& v) {
          return v == "conv" || v == "fc" || v == "pool" || v == "add" || v == "activation";
        });
    const auto names = s.names("inputs", "Input layers (default: the previous layer).", 0, 2);
    if (names.empty()) {
      l.inputs.push_back(tensors.size() - 1);
    }
    for (const auto& n : names) {
      const auto it = tensor_of.find(n.text);
      if (it == tensor_of.end()) {
        reader.error(n.location, s.path_of("inputs"),
                     fmt::format("layer {} reads {}, which is not an earlier layer (or input)",
                                 l.name, n.text));
      } else {
        l.inputs.push_back(it->second);
      }
    }
    if (l.inputs.empty()) l.inputs.push_back(0);
    const Shape x = tensors[l.inputs[0]].shape;
    const bool conv = l.op == "conv", pool = l.op == "pool";
    l.kernel = static_cast<uint64_t>(
        s.integer("kernel", {1, 15, conv || pool ? std::optional<int64_t>(3) : 1, "Kernel size."}));
    l.stride = static_cast<uint64_t>(s.integer("stride", {1, 8, 1, "Stride."}));
    const bool same =
        s.choice("padding", "same", "same or valid", "Padding.",
                 [](const std::string& v) { return v == "same" || v == "valid"; }) == "same";
    l.same = same;
    const int64_t channels = s.integer("channels", {0, 1 << 16, 0, "Output channels (conv, fc)."});
    l.split = static_cast<uint64_t>(
        s.integer("split", {1, 64, 1,
                            "Tasks the layer is split into along channels: neural parts compute "
                            "a slice of the output channels from the whole input, planar parts "
                            "a slice of the channels from the same slice of the input."}));
    s.finish();
    const size_t given = names.empty() ? 1 : names.size();
    if ((l.op == "add") != (given == 2)) {
      reader.error(
          s.location_of("inputs"), s.path_of("inputs"),
          fmt::format("layer {}: {} takes {} input(s)", l.name, l.op, l.op == "add" ? 2 : 1));
    }
    if (conv || pool) {
      if (same) {
        l.out = {ceil_div(x.h, l.stride), ceil_div(x.w, l.stride), x.c};
      } else if (x.h < l.kernel || x.w < l.kernel) {
        reader.error(l.where, s.path_of("kernel"),
                     fmt::format("layer {}: a {}x{} kernel does not fit a {}x{} input", l.name,
                                 l.kernel, l.kernel, x.h, x.w));
        l.out = x;
      } else {
        l.out = {(x.h - l.kernel) / l.stride + 1, (x.w - l.kernel) / l.stride + 1, x.c};
      }
    } else {
      l.out = x;
    }
    if (conv || l.op == "fc") {
      if (channels < 1) {
        reader.error(
            l.where, s.path_of("channels"),
            fmt::format("layer {}: {} needs channels (its output channels)", l.name, l.op));
      }
      l.out.c = static_cast<uint64_t>(std::max<int64_t>(channels, 1));
      if (l.op == "fc") l.out.h = l.out.w = 1;
      if (l.out.c % l.split != 0) {
        reader.error(l.where, s.path_of("split"),
                     fmt::format("layer {}: {} output channels do not split into {} equal parts",
                                 l.name, l.out.c, l.split));
      }
    } else if (l.out.c % l.split != 0) {
      reader.error(l.where, s.path_of("split"),
                   fmt::format("layer {}: {} channels do not split into {} equal parts", l.name,
                               l.out.c, l.split));
    }
    if (l.op == "add" && l.inputs.size() == 2) {
      const Shape y = tensors[l.inputs[1]].shape;
      if (x.h != y.h || x.w != y.w || x.c != y.c) {
        reader.error(l.where, s.path_of("inputs"),
                     fmt::format("layer {} adds a {}x{}x{} tensor to a {}x{}x{} one", l.name, x.h,
                                 x.w, x.c, y.h, y.w, y.c));
      }
    }
    if (!tensor_of.emplace(l.name, tensors.size()).second) {
      reader.error(l.where, s.path_of("name"), fmt::format("layer name {} is used twice", l.name));
    }
    Tensor t;
    t.shape = l.out;
    tensors.push_back(t);
    parsed.push_back(l);
  }
  root.finish();
  if (!diags.empty()) return result;

  // A planar layer's part as the planar engine's task (pool: max pooling).
  auto planar_task = [&](const Layer& l) {
    const Shape x = tensors[l.inputs[0]].shape;
    const golden::PlanarOp op = l.op == "pool"  ? golden::PlanarOp::kMaxPool
                                : l.op == "add" ? golden::PlanarOp::kAdd
                                                : golden::PlanarOp::kActivation;
    golden::PlanarTask pt = golden::PlanarTask::dense(planar.params, op, static_cast<unsigned>(x.h),
                                                      static_cast<unsigned>(x.w),
                                                      static_cast<unsigned>(x.c / l.split), 1);
    if (l.op == "pool") {
      pt.kernel_h = pt.kernel_w = static_cast<unsigned>(l.kernel);
      pt.stride_y = pt.stride_x = static_cast<unsigned>(l.stride);
      if (l.same) {
        std::tie(pt.pad_top, pt.pad_bottom) = same_padding(x.h, l.kernel, l.stride);
        std::tie(pt.pad_left, pt.pad_right) = same_padding(x.w, l.kernel, l.stride);
      }
    }
    return pt;
  };
  if (planar.enabled) {
    for (size_t li = 0; li < parsed.size(); ++li) {
      const Layer& l = parsed[li];
      if (l.op != "pool" && l.op != "add" && l.op != "activation") continue;
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
  tensors.back().keep = true;
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
    const bool neural = l.op == "conv" || l.op == "fc";
    for (size_t k = 0; k < l.inputs.size(); ++k) {
      const golden::Region whole = tensors[l.inputs[k]].region;
      const uint64_t part_words = neural ? whole.words : whole.words / l.split;
      t.in[k] = golden::Region{neural ? whole.base : whole.base + part * part_words, part_words};
    }
    if (l.op == "conv") {
      t.op = golden::TaskOp::kConv;
      const uint64_t macs = l.out.h * l.out.w * (l.out.c / l.split) * l.kernel * l.kernel * x.c;
      t.cycles = ceil_div(macs, macs_per_cycle) + ne_latency;
      t.shape = {static_cast<uint32_t>(x.h),      static_cast<uint32_t>(x.w),
                 static_cast<uint32_t>(x.c),      static_cast<uint32_t>(l.out.c / l.split),
                 static_cast<uint32_t>(l.kernel), static_cast<uint32_t>(l.stride)};
    } else if (l.op == "fc") {
      t.op = golden::TaskOp::kTensor;
      t.cycles = ceil_div(x.words() * (l.out.c / l.split), macs_per_cycle) + ne_latency;
      t.shape = {static_cast<uint32_t>(x.words()), static_cast<uint32_t>(l.out.c / l.split)};
    } else {
      t.op = l.op == "pool" ? golden::TaskOp::kPool : golden::TaskOp::kElementwise;
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
  ListLocations where{display_name, "layers", root.location_of("layers"), {}, {}};
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
    return load_network_text(text, name, config);
  });
}

}  // namespace npugen::sched
