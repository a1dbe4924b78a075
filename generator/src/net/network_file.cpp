#include "net/network_file.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

#include "config/schema_reader.hpp"
#include "net/lut_function.hpp"
#include "npugen/golden/post/requant.hpp"
#include "sched/task_file.hpp"
#include "util/input_file.hpp"
#include "util/npy.hpp"
#include "util/text.hpp"

namespace npugen::net {
namespace {

using config::Location;
using config::Section;
using golden::Requant;
using golden::net::Layer;
using golden::net::Op;
using golden::net::Shape;

constexpr int kMaxDim = 1 << 16;

struct Pair {
  int a = 1, b = 1;
};

// TensorFlow's SAME padding along one axis: the output is ceil(in / stride) and the padding
// the windows need is split with the extra row or column at the end.
std::pair<int, int> same_padding(int in, int kernel, int stride) {
  const int out = (in + stride - 1) / stride;
  const int need = (out - 1) * stride + kernel;
  const int total = std::max(need - in, 0);
  return {total / 2, total - total / 2};
}

std::string shape_text(const std::vector<size_t>& shape) {
  std::string s;
  for (size_t d : shape) s += fmt::format("[{}]", d);
  return s.empty() ? "a scalar" : s;
}

// Reads one layer's keys; knows the file, its folder and the reader.
class LayerReader {
 public:
  LayerReader(config::Reader& reader, std::filesystem::path dir)
      : reader_(reader), dir_(std::move(dir)) {}

  void error(Location at, const std::string& key, const std::string& message) {
    reader_.error(at, key, message);
  }

  // `3` or `[3, 3]`: the same value for both axes, or (first, second).
  Pair pair(Section& s, const std::string& key, int min, int max, std::optional<Pair> fallback,
            const char* doc) {
    const YAML::Node* v = s.value(key, "integer or [a, b]", "", doc);
    if (v == nullptr) {
      if (!fallback) error(s.location_of(key), s.path_of(key), "required key is missing");
      return fallback.value_or(Pair{min, min});
    }
    std::vector<YAML::Node> items;
    if (v->IsScalar()) {
      items = {*v, *v};
    } else if (v->IsSequence() && v->size() == 2) {
      items = {(*v)[0], (*v)[1]};
    } else {
      error(
          s.location_of(key), s.path_of(key),
          fmt::format("expected an integer or a list of two, got {}", config::describe_value(*v)));
      return fallback.value_or(Pair{min, min});
    }
    int out[2] = {min, min};
    for (int i = 0; i < 2; ++i) {
      if (!integer(items[static_cast<size_t>(i)], s.location_of(key), s.path_of(key), min, max,
                   out[i]))
        return fallback.value_or(Pair{min, min});
    }
    return {out[0], out[1]};
  }

  bool integer(const YAML::Node& n, Location at, const std::string& key, int64_t min, int64_t max,
               int& out) {
    int64_t v = 0;
    if (!integer64(n, at, key, min, max, v)) return false;
    out = static_cast<int>(v);
    return true;
  }

  bool integer64(const YAML::Node& n, Location at, const std::string& key, int64_t min, int64_t max,
                 int64_t& out) {
    const std::string expected = fmt::format("an integer from {} to {}", min, max);
    if (!n.IsScalar() || n.Tag() == "!") {
      error(at, key, fmt::format("expected {}, got {}", expected, config::describe_value(n)));
      return false;
    }
    const std::string& text = n.Scalar();
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(text, &used, 10);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || v < min || v > max) {
      error(at, key, fmt::format("expected {}, got {}", expected, config::describe_value(n)));
      return false;
    }
    out = v;
    return true;
  }

  // A .npy file named by a key, checked for its element type and shape.
  std::optional<util::NpyArray> array(Section& s, const std::string& key, const YAML::Node& v,
                                      const char* dtype_name, char kind, size_t bytes,
                                      const std::vector<size_t>& shape) {
    const Location at = s.location_of(key);
    const std::string name = v.Scalar();
    util::NpyArray a;
    try {
      a = util::read_npy(dir_ / name);
    } catch (const util::NpyError& e) {
      error(at, s.path_of(key), fmt::format("{}: {}", util::shorten(name), e.what()));
      return std::nullopt;
    } catch (const util::InputError& e) {
      error(at, s.path_of(key), fmt::format("{}: {}", util::shorten(name), e.what()));
      return std::nullopt;
    }
    const bool type_ok =
        a.dtype.size() == 3 && a.dtype[1] == kind && static_cast<size_t>(a.dtype[2] - '0') == bytes;
    if (!type_ok || a.shape != shape) {
      error(at, s.path_of(key),
            fmt::format("{}: expected {} {}, got {} {}", util::shorten(name), dtype_name,
                        shape_text(shape), a.dtype, shape_text(a.shape)));
      return std::nullopt;
    }
    return a;
  }

  // int8 weights of a given shape, from a file.
  std::vector<int8_t> weights(Section& s, const std::vector<size_t>& shape) {
    const YAML::Node* v = s.value("weights", "file", ".npy, int8",
                                  "Weights: int8 [K][KH][KW][C] (conv), [K][IN] (fc).");
    if (v == nullptr) return {};
    if (!v->IsScalar()) {
      error(s.location_of("weights"), s.path_of("weights"),
            fmt::format("expected a .npy file name, got {}", config::describe_value(*v)));
      return {};
    }
    const auto a = array(s, "weights", *v, "int8", 'i', 1, shape);
    if (!a) return {};
    return {a->values.begin(), a->values.end()};
  }

  // count int32 values: a file of int32 [count] or one integer for all.
  std::vector<int32_t> per_channel(Section& s, const std::string& key, size_t count, int64_t min,
                                   int64_t max, std::optional<int32_t> fallback, const char* doc) {
    const YAML::Node* v = s.value(key, "file or integer", "", doc);
    if (v == nullptr) {
      if (!fallback) {
        error(s.location_of(key), s.path_of(key), "required key is missing");
        return std::vector<int32_t>(count, 0);
      }
      return std::vector<int32_t>(count, *fallback);
    }
    if (!v->IsScalar()) {
      error(s.location_of(key), s.path_of(key),
            fmt::format("expected a .npy file name or an integer, got {}",
                        config::describe_value(*v)));
      return std::vector<int32_t>(count, fallback.value_or(0));
    }
    const std::string& text = v->Scalar();
    // A number when the whole text is one (a file name may start with a digit).
    bool number = !text.empty();
    for (size_t i = 0; i < text.size() && number; ++i) {
      number = std::isdigit(static_cast<unsigned char>(text[i])) != 0 ||
               (i == 0 && (text[i] == '-' || text[i] == '+') && text.size() > 1);
    }
    if (number) {
      int64_t x = 0;
      if (!integer64(*v, s.location_of(key), s.path_of(key), min, max, x)) return {};
      return std::vector<int32_t>(count, static_cast<int32_t>(x));
    }
    const auto a = array(s, key, *v, "int32", 'i', 4, {count});
    if (!a) return std::vector<int32_t>(count, fallback.value_or(0));
    std::vector<int32_t> out;
    for (size_t i = 0; i < a->values.size(); ++i) {
      const int64_t x = a->values[i];
      if (x < min || x > max) {
        error(s.location_of(key), s.path_of(key),
              fmt::format("{}: element {} is {}, outside {} to {}", util::shorten(text), i, x, min,
                          max));
        return std::vector<int32_t>(count, fallback.value_or(0));
      }
      out.push_back(static_cast<int32_t>(x));
    }
    return out;
  }

  // The output's quantization: per channel multiplier and shift, one zero point.
  std::vector<Requant> output(Section& layer, size_t channels, bool required) {
    Section o =
        layer.section("output",
                      "The output's quantization: multiplier and shift (TFLite's, per channel: an "
                      "int32 .npy of [K] or one integer) and zero point.");
    if (required && !layer.has("output")) {
      error(layer.location_of("output"), layer.path_of("output"), "required key is missing");
    }
    const auto m = per_channel(o, "multiplier", channels, 0, std::numeric_limits<int32_t>::max(),
                               1 << 30, "Q31 multipliers M (TFLite QuantizeMultiplier).");
    const auto sh = per_channel(o, "shift", channels, golden::kMinShift, golden::kMaxShift, 0,
                                "Shifts: left (> 0) or right (< 0).");
    const int zp = static_cast<int>(o.integer("zero_point", {-128, 127, 0, "Output zero point."}));
    o.finish();
    std::vector<Requant> out(channels);
    for (size_t k = 0; k < channels; ++k) {
      if (k < m.size()) out[k].multiplier = m[k];
      if (k < sh.size()) out[k].shift = sh[k];
      out[k].zero_point = zp;
    }
    return out;
  }

  // activation (none | relu) and clamp [lo, hi] over an output zero point.
  std::pair<int32_t, int32_t> clamp(Section& s, int32_t zero_point, const std::string& fallback) {
    const std::string act = s.choice(
        "activation", fallback, "none or relu", "Fused activation: relu clamps at the zero point.",
        [](const std::string& v) { return v == "none" || v == "relu"; });
    int32_t lo = act == "relu" ? zero_point : -128, hi = 127;
    if (const YAML::Node* c = s.value("clamp", "[lo, hi]", "-128 to 127",
                                      "A clamp of the output (quantized values).")) {
      int v[2] = {0, 0};
      if (!c->IsSequence() || c->size() != 2) {
        error(s.location_of("clamp"), s.path_of("clamp"),
              fmt::format("expected [lo, hi], got {}", config::describe_value(*c)));
      } else if (integer((*c)[0], s.location_of("clamp"), s.path_of("clamp"), -128, 127, v[0]) &&
                 integer((*c)[1], s.location_of("clamp"), s.path_of("clamp"), -128, 127, v[1])) {
        if (v[0] > v[1]) {
          error(s.location_of("clamp"), s.path_of("clamp"),
                fmt::format("the clamp's low bound {} is above its high bound {}", v[0], v[1]));
        }
        lo = std::max(lo, v[0]);
        hi = std::min(hi, v[1]);
      }
    }
    return {lo, std::max(lo, hi)};
  }

 private:
  config::Reader& reader_;
  std::filesystem::path dir_;
};

// The window of a convolution or pooling: kernel, stride, padding; the output size.
struct Window {
  golden::reference::PoolWindow w;
  int out_h = 1, out_w = 1;
};

// A lut layer's table: a function of the input's and the output's scales, computed as ONNX
// Runtime computes DequantizeLinear -> f -> QuantizeLinear (net/lut_function.hpp), or given
// as an int8 .npy of 256 entries. Returns the output's zero point.
int32_t lut_layer(Section& s, LayerReader& lr, Layer& l, int32_t x_zp) {
  const std::string fn = s.choice(
      "function", "",
      "sigmoid, tanh, hard_sigmoid, hard_swish, leaky_relu, elu, silu, identity (a "
      "requantization) or table",
      "lut: the element-wise function its 256-entry table computes (docs/network.md), or table "
      "(the entries given).",
      [](const std::string& v) { return v == "table" || lut_function_of(v).has_value(); });
  const auto f = lut_function_of(fn);
  const float alpha = static_cast<float>(
      s.number("alpha", {-1e6, 1e6, f ? default_alpha(*f) : 0.0,
                         "lut: the function's alpha (leaky_relu 0.01, elu 1, hard_sigmoid 0.2, "
                         "silu 1: ONNX's defaults)."}));
  const float beta = static_cast<float>(
      s.number("beta", {-1e6, 1e6, f ? default_beta(*f) : 0.0, "lut: hard_sigmoid's beta (0.5)."}));
  LutQuant q;
  q.x_zero_point = x_zp;
  q.x_scale = static_cast<float>(s.number(
      "input_scale", {1e-30, 1e30, 1.0, "lut: the input's scale (a float32; the function's)."}));
  q.y_scale = static_cast<float>(s.number(
      "output_scale", {1e-30, 1e30, 1.0, "lut: the output's scale (a float32; the function's)."}));
  q.y_zero_point = static_cast<int32_t>(
      s.integer("output_zero_point",
                {-128, 127, x_zp, "lut: the output's zero point (default: the input's)."}));
  const YAML::Node* table =
      s.value("table", "file", ".npy, int8 [256]",
              "lut, function table: the output for every input x, at x + 128.");
  if (f) {
    for (const char* key : {"input_scale", "output_scale"}) {
      if (!s.has(key)) {
        lr.error(s.location_of(key), s.path_of(key),
                 fmt::format("layer {}: function {} needs its {}", l.name, fn, key));
      }
    }
    if (table != nullptr) {
      lr.error(s.location_of("table"), s.path_of("table"),
               fmt::format("layer {}: a table is given with function {} (use function: table)",
                           l.name, fn));
    }
    l.lut = lut_table(*f, alpha, beta, q);
  } else if (fn.empty()) {
    lr.error(s.location_of("function"), s.path_of("function"),
             fmt::format("layer {}: lut needs its function (sigmoid, tanh, hard_sigmoid, "
                         "hard_swish, leaky_relu, elu, silu or table)",
                         l.name));
  } else if (fn == "table") {
    if (table == nullptr) {
      lr.error(
          s.location_of("table"), s.path_of("table"),
          fmt::format("layer {}: function table needs its table (an int8 .npy of 256)", l.name));
    } else if (!table->IsScalar()) {
      lr.error(s.location_of("table"), s.path_of("table"),
               fmt::format("expected a .npy file name, got {}", config::describe_value(*table)));
    } else if (const auto a = lr.array(s, "table", *table, "int8", 'i', 1, {256})) {
      for (size_t i = 0; i < l.lut.size(); ++i) l.lut[i] = static_cast<int8_t>(a->values[i]);
    }
  }
  return q.y_zero_point;
}

}  // namespace

NetworkResult read_network_text(const std::string& text, const std::string& display_name,
                                const std::filesystem::path& dir) {
  NetworkResult result;
  const auto yaml = sched::parse_document(text, display_name, result.diagnostics);
  if (!yaml) return result;
  config::Diagnostics& diags = result.diagnostics;
  config::Reader reader(display_name, diags);
  Section root = reader.root(*yaml);
  NetworkFile f;
  golden::net::Network& net = f.network;
  Section input = root.section("input", "The network's input tensor (int8 NHWC).");
  const Location input_where = root.key_location_of("input");
  f.input_line = input_where.line;
  net.input.h = static_cast<int>(input.integer("height", {1, kMaxDim, std::nullopt, "H"}));
  net.input.w = static_cast<int>(input.integer("width", {1, kMaxDim, std::nullopt, "W"}));
  net.input.c = static_cast<int>(input.integer("channels", {1, kMaxDim, std::nullopt, "C"}));
  net.input_zero_point =
      static_cast<int32_t>(input.integer("zero_point", {-128, 127, 0, "The input's zero point."}));
  input.finish();
  std::vector<Section> layers;
  if (root.has("layers")) {
    layers = root.list("layers", "Layers, in execution order.", 1, 1 << 16, 0);
    const Location at = root.location_of("layers");
    f.layers_line = at.line;
    f.layers_column = at.column;
  } else {
    reader.error(input_where, "layers",
                 fmt::format("required key is missing: a list of layers must follow the "
                             "input (line {})",
                             input_where.line));
  }
  LayerReader lr(reader, dir);
  std::map<std::string, size_t> tensor_of = {{"input", 0}};
  f.zero_point = {net.input_zero_point};
  std::vector<bool> weighted;  // per layer: conv / fc with weights given
  for (size_t i = 0; i < layers.size(); ++i) {
    Section& s = layers[i];
    Layer l;
    LayerPlan plan;
    const Location where = s.location_of("name");
    l.line = where.line;
    plan.column = where.column;
    l.name = s.identifier("name", std::nullopt, "Layer name.");
    const std::string op = s.choice(
        "op", "conv",
        "conv, fc, max_pool, avg_pool, pool (max_pool, stride 1 and same padding by default), "
        "add, gain_bias, reduce, activation, lut, concat or resize",
        "Layer kind.", [](const std::string& v) {
          return v == "conv" || v == "fc" || v == "max_pool" || v == "avg_pool" || v == "pool" ||
                 v == "add" || v == "gain_bias" || v == "reduce" || v == "activation" ||
                 v == "lut" || v == "concat" || v == "resize";
        });
    const auto names =
        s.names("inputs",
                "Input layers (default: the previous layer; add two, concat two or more).", 0, 64);
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
    if (names.empty()) l.inputs.push_back(f.zero_point.size() - 1);
    if (l.inputs.empty()) l.inputs.push_back(0);
    const size_t given = names.empty() ? 1 : names.size();
    if (op == "concat" ? given < 2 : (op == "add") != (given == 2)) {
      reader.error(s.location_of("inputs"), s.path_of("inputs"),
                   fmt::format("layer {}: {} takes {} input(s)", l.name, op,
                               op == "add"      ? "2"
                               : op == "concat" ? "2 or more"
                                                : "1"));
    }
    const Shape x = net.shape_of(l.inputs[0]);
    const int32_t x_zp = f.zero_point[l.inputs[0]];
    const bool conv = op == "conv", fc = op == "fc", legacy_pool = op == "pool";
    const bool pool = legacy_pool || op == "max_pool" || op == "avg_pool";
    l.op = conv                ? Op::kConv
           : fc                ? Op::kFc
           : op == "avg_pool"  ? Op::kAvgPool
           : pool              ? Op::kMaxPool
           : op == "add"       ? Op::kAdd
           : op == "gain_bias" ? Op::kGainBias
           : op == "reduce"    ? Op::kReduceSum
           : op == "lut"       ? Op::kLut
           : op == "concat"    ? Op::kConcat
           : op == "resize"    ? Op::kResize
                               : Op::kActivation;
    l.out = x;
    int32_t out_zp = x_zp;
    std::string fallback_act = "none";
    if (conv || pool) {
      Window win;
      const Pair k = lr.pair(s, "kernel", 1, 15,
                             conv || legacy_pool ? std::optional<Pair>({3, 3}) : std::nullopt,
                             "Kernel: KH and KW, or one number for both.");
      const Pair st = lr.pair(s, "stride", 1, 8, conv || legacy_pool ? Pair{1, 1} : Pair{k.a, k.b},
                              "Stride: SY and SX (default 1; new pooling layers: the kernel).");
      win.w.kernel_h = k.a;
      win.w.kernel_w = k.b;
      win.w.stride_y = std::min(st.a, 8);
      win.w.stride_x = std::min(st.b, 8);
      const YAML::Node* pad = s.value(
          "padding", "same, valid or [t, b, l, r]", "",
          "Padding: TensorFlow's SAME or VALID, or explicit rows and columns (default: same for "
          "conv and pool, valid for max_pool and avg_pool).");
      std::string mode = conv || legacy_pool ? "same" : "valid";
      if (pad != nullptr) {
        if (pad->IsScalar() && (pad->Scalar() == "same" || pad->Scalar() == "valid")) {
          mode = pad->Scalar();
        } else if (pad->IsSequence() && pad->size() == 4) {
          mode = "explicit";
          int p[4] = {0, 0, 0, 0};
          for (size_t j = 0; j < 4; ++j) {
            if (!lr.integer((*pad)[j], s.location_of("padding"), s.path_of("padding"), 0, 15, p[j]))
              break;
          }
          win.w.pad_top = p[0];
          win.w.pad_bottom = p[1];
          win.w.pad_left = p[2];
          win.w.pad_right = p[3];
        } else {
          reader.error(s.location_of("padding"), s.path_of("padding"),
                       fmt::format("expected same, valid or [top, bottom, left, right], got {}",
                                   config::describe_value(*pad)));
        }
      }
      if (mode == "same") {
        std::tie(win.w.pad_top, win.w.pad_bottom) = same_padding(x.h, k.a, win.w.stride_y);
        std::tie(win.w.pad_left, win.w.pad_right) = same_padding(x.w, k.b, win.w.stride_x);
      }
      const int ph = x.h + win.w.pad_top + win.w.pad_bottom;
      const int pw = x.w + win.w.pad_left + win.w.pad_right;
      if (ph < k.a || pw < k.b) {
        reader.error(where, s.path_of("kernel"),
                     fmt::format("layer {}: a {}x{} kernel does not fit a {}x{} input{}", l.name,
                                 k.a, k.b, x.h, x.w, mode == "valid" ? "" : " with its padding"));
      } else {
        l.out.h = (ph - k.a) / win.w.stride_y + 1;
        l.out.w = (pw - k.b) / win.w.stride_x + 1;
      }
      l.window = win.w;
    }
    const int channels =
        static_cast<int>(s.integer("channels", {0, kMaxDim, 0, "Output channels (conv, fc)."}));
    plan.split = static_cast<unsigned>(
        s.integer("split", {1, 64, 1,
                            "Tasks the layer is split into along channels (npugen schedule): "
                            "neural parts compute a slice of the output channels from the whole "
                            "input, planar parts a slice of the channels."}));
    if (conv || fc) {
      if (channels < 1) {
        reader.error(where, s.path_of("channels"),
                     fmt::format("layer {}: {} needs channels (its output channels)", l.name, op));
      }
      const int kk = std::max(channels, 1);
      l.out.c = kk;
      if (fc) l.out.h = l.out.w = 1;
      golden::reference::ConvLayer& c = l.conv;
      c.filters = kk;
      c.kernel_h = conv ? l.window.kernel_h : 1;
      c.kernel_w = conv ? l.window.kernel_w : 1;
      c.stride_y = l.window.stride_y;
      c.stride_x = l.window.stride_x;
      c.pad_top = l.window.pad_top;
      c.pad_bottom = l.window.pad_bottom;
      c.pad_left = l.window.pad_left;
      c.pad_right = l.window.pad_right;
      c.input_zero_point = x_zp;
      const std::vector<size_t> wshape =
          conv ? std::vector<size_t>{static_cast<size_t>(kk), static_cast<size_t>(c.kernel_h),
                                     static_cast<size_t>(c.kernel_w), static_cast<size_t>(x.c)}
               : std::vector<size_t>{static_cast<size_t>(kk), x.elements()};
      c.weights = lr.weights(s, wshape);
      const bool has_weights = s.has("weights");
      weighted.push_back(has_weights);
      if (!has_weights && (s.has("bias") || s.has("output"))) {
        reader.error(where, s.path_of("weights"),
                     fmt::format("layer {} gives its {} but no weights", l.name,
                                 s.has("bias") ? "bias" : "output quantization"));
      }
      c.bias =
          lr.per_channel(s, "bias", static_cast<size_t>(kk), std::numeric_limits<int32_t>::min(),
                         std::numeric_limits<int32_t>::max(),
                         has_weights ? std::nullopt : std::optional<int32_t>(0),
                         "Bias: int32 [K] (or one integer).");
      c.output = lr.output(s, static_cast<size_t>(kk), has_weights);
      out_zp = c.output.empty() ? 0 : c.output[0].zero_point;
      fallback_act = "none";
      if (!has_weights)
        c.weights.assign(
            wshape.size() == 4 ? kk * c.kernel_h * c.kernel_w * x.c : kk * x.elements(), 0);
      Section v = s.section(
          "vq",
          "conv, fc: load the weights as codebook indices through the NPU's VQ weight loader "
          "(docs/npu.md). Every run of vector_length weights along the input channels becomes "
          "the nearest of `codewords` vectors (vector 0 all zeros, the others trained by k-means "
          "as npugen vq encode trains them, seed 1), and the layer computes with those.");
      const auto m = static_cast<unsigned>(
          v.integer("vector_length", {1, 32, 4, "m: weights a codebook index stands for."}));
      const auto codewords = static_cast<unsigned>(v.integer(
          "codewords", {2, 65536, 256, "V: vectors of the layer's codebook (at most vq.rows)."}));
      v.finish();
      if (s.has("vq")) {
        if (!has_weights) {
          reader.error(s.location_of("vq"), s.path_of("vq"),
                       fmt::format("layer {} asks for VQ but gives no weights", l.name));
        } else {
          try {
            golden::net::make_vq_layer(l, x.c, m, codewords);
          } catch (const std::invalid_argument& e) {
            reader.error(s.location_of("vq"), s.path_of("vq"),
                         fmt::format("layer {}: {}", l.name, e.what()));
          }
        }
      }
      std::tie(l.act_min, l.act_max) = lr.clamp(s, out_zp, fallback_act);
      for (Requant& r : c.output) {
        r.act_min = l.act_min;
        r.act_max = l.act_max;
      }
    } else if (op == "add") {
      l.add.left_shift = static_cast<int>(
          s.integer("left_shift", {0, 23, 20, "ADD: both inputs are shifted left this far."}));
      const Shape y = l.inputs.size() == 2 ? net.shape_of(l.inputs[1]) : x;
      if (!(x == y)) {
        reader.error(where, s.path_of("inputs"),
                     fmt::format("layer {} adds a {}x{}x{} tensor to a {}x{}x{} one", l.name, x.h,
                                 x.w, x.c, y.h, y.w, y.c));
      }
      l.add.a_zero_point = x_zp;
      l.add.b_zero_point = l.inputs.size() == 2 ? f.zero_point[l.inputs[1]] : x_zp;
      int m[2] = {1 << 30, 1 << 30}, sh[2] = {0, 0};
      for (const char* key : {"input_multipliers", "input_shifts"}) {
        const bool mult = key[6] == 'm';
        const YAML::Node* v = s.value(
            key, "[a, b]", "",
            mult ? "ADD: each input's Q31 multiplier." : "ADD: each input's shift (TFLite's).");
        if (v == nullptr) continue;
        if (!v->IsSequence() || v->size() != 2) {
          reader.error(
              s.location_of(key), s.path_of(key),
              fmt::format("expected a list of two integers, got {}", config::describe_value(*v)));
          continue;
        }
        for (size_t j = 0; j < 2; ++j) {
          if (mult) {
            lr.integer((*v)[j], s.location_of(key), s.path_of(key), 0,
                       std::numeric_limits<int32_t>::max(), m[j]);
          } else {
            lr.integer((*v)[j], s.location_of(key), s.path_of(key), golden::kMinShift,
                       golden::kMaxShift, sh[j]);
          }
        }
      }
      l.add.a_multiplier = m[0];
      l.add.b_multiplier = m[1];
      l.add.a_shift = sh[0];
      l.add.b_shift = sh[1];
      const auto o = lr.output(s, 1, false);
      l.add.output = o[0];
      out_zp = o[0].zero_point;
      std::tie(l.act_min, l.act_max) = lr.clamp(s, out_zp, "none");
      l.add.output.act_min = l.act_min;
      l.add.output.act_max = l.act_max;
    } else if (op == "gain_bias") {
      l.gain.input_zero_point = x_zp;
      l.gain.bias =
          lr.per_channel(s, "bias", static_cast<size_t>(x.c), std::numeric_limits<int32_t>::min(),
                         std::numeric_limits<int32_t>::max(), 0,
                         "gain_bias: the bias added after the gain, int32 [C].");
      l.gain.output = lr.output(s, static_cast<size_t>(x.c), false);
      out_zp = l.gain.output[0].zero_point;
      std::tie(l.act_min, l.act_max) = lr.clamp(s, out_zp, "none");
      for (Requant& r : l.gain.output) {
        r.act_min = l.act_min;
        r.act_max = l.act_max;
      }
    } else if (op == "reduce") {
      const bool max =
          s.choice("function", "sum", "sum or max", "reduce: the reduction.",
                   [](const std::string& v) { return v == "sum" || v == "max"; }) == "max";
      const bool spatial =
          s.choice("axis", "spatial", "spatial or channels",
                   "reduce: over H x W per channel (spatial) or over the channels per pixel.",
                   [](const std::string& v) { return v == "spatial" || v == "channels"; }) ==
          "spatial";
      l.op = max ? Op::kReduceMax : Op::kReduceSum;
      l.axis = spatial ? golden::reference::ReduceAxis::kSpatial
                       : golden::reference::ReduceAxis::kChannels;
      l.out = spatial ? Shape{1, 1, x.c} : Shape{x.h, x.w, 1};
      if (!max) {
        l.reduce_input_zero_point = x_zp;
        l.reduce_output = lr.output(s, static_cast<size_t>(l.out.c), false);
        out_zp = l.reduce_output[0].zero_point;
      }
      std::tie(l.act_min, l.act_max) = lr.clamp(s, out_zp, "none");
      for (Requant& r : l.reduce_output) {
        r.act_min = l.act_min;
        r.act_max = l.act_max;
      }
    } else if (op == "resize") {
      // Nearest-neighbour upsampling by whole factors: output (y, x) is input (y / fy, x / fx).
      const Pair f = lr.pair(s, "factor", 1, 16, std::nullopt,
                             "resize: the factors FY and FX (or one for both), 1 to 16.");
      l.resize_h = f.a, l.resize_w = f.b;
      l.out = Shape{x.h * f.a, x.w * f.b, x.c};
      std::tie(l.act_min, l.act_max) = lr.clamp(s, x_zp, "none");
    } else if (op == "concat") {
      // A copy of each input into its channels: one H and W, one zero point (a lut layer
      // requantizes an input whose differs, as ONNX Runtime's QLinearConcat does).
      l.out.c = 0;
      for (const size_t t : l.inputs) {
        const Shape y = net.shape_of(t);
        if (y.h != x.h || y.w != x.w) {
          reader.error(where, s.path_of("inputs"),
                       fmt::format("layer {} concatenates a {}x{} tensor with a {}x{} one (one "
                                   "height and width)",
                                   l.name, x.h, x.w, y.h, y.w));
        }
        if (f.zero_point[t] != x_zp) {
          reader.error(where, s.path_of("inputs"),
                       fmt::format("layer {}: its inputs' zero points differ ({} and {}): a "
                                   "concat copies; requantize an input with a lut layer first",
                                   l.name, x_zp, f.zero_point[t]));
        }
        l.out.c += y.c;
      }
      std::tie(l.act_min, l.act_max) = lr.clamp(s, x_zp, "none");
    } else if (op == "lut") {
      out_zp = lut_layer(s, lr, l, x_zp);
      std::tie(l.act_min, l.act_max) = lr.clamp(s, out_zp, "none");
    } else {
      // Pooling and activation keep their input's quantization.
      std::tie(l.act_min, l.act_max) = lr.clamp(s, x_zp, op == "activation" ? "relu" : "none");
    }
    if ((conv || fc) == false) weighted.push_back(false);
    s.finish();
    l.zero_point = out_zp;
    if (!tensor_of.emplace(l.name, f.zero_point.size()).second) {
      reader.error(where, s.path_of("name"), fmt::format("layer name {} is used twice", l.name));
    }
    f.zero_point.push_back(out_zp);
    net.layers.push_back(std::move(l));
    f.plan.push_back(plan);
  }
  // The outputs: layers named once each (default: the last layer).
  const auto outs =
      root.names("outputs",
                 "The network's outputs: layer names, in order (default: the last layer). With "
                 "several, npugen reference and run write output_<name>.npy for each.",
                 0, 1 << 16);
  for (const auto& o : outs) {
    const auto it = tensor_of.find(o.text);
    if (it == tensor_of.end() || it->second == 0) {
      reader.error(o.location, "outputs",
                   fmt::format("{} is not a layer of the network", util::shorten(o.text)));
    } else if (std::any_of(net.outputs.begin(), net.outputs.end(),
                           [&](const auto& x) { return x.tensor == it->second; })) {
      reader.error(o.location, "outputs", fmt::format("layer {} is named twice", o.text));
    } else {
      net.outputs.push_back({it->second, o.text});
    }
  }
  root.finish();
  // Either every conv and fc layer has its weights or none does (a shape-only network).
  bool any = false, all = true;
  for (size_t i = 0; i < net.layers.size(); ++i) {
    if (!golden::net::is_neural(net.layers[i].op)) continue;
    any = any || weighted[i];
    all = all && weighted[i];
  }
  if (any && !all) {
    for (size_t i = 0; i < net.layers.size(); ++i) {
      if (golden::net::is_neural(net.layers[i].op) && !weighted[i]) {
        config::report(diags, {display_name, net.layers[i].line, f.plan[i].column,
                               fmt::format("layers[{}].weights", i),
                               fmt::format("layer {} has no weights, but other layers have "
                                           "theirs (a network gives all or none)",
                                           net.layers[i].name)});
      }
    }
  }
  // Runnable: every conv and fc layer has its weights (a network of planar layers only
  // needs none); a shape-only network (npugen schedule's) has none.
  net.has_arithmetic = all;
  if (diags.empty()) result.file = std::move(f);
  return result;
}

NetworkResult read_network_file(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::string text;
  try {
    text = util::read_input_file(file);
  } catch (const util::InputError& e) {
    NetworkResult r;
    r.diagnostics.push_back({name, 0, 0, "", e.what()});
    return r;
  }
  return read_network_text(text, name, file.parent_path());
}

}  // namespace npugen::net
