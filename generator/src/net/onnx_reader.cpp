#include "net/onnx_reader.hpp"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "net/lut_function.hpp"

namespace npugen::net {

void quantize_multiplier(double real, int32_t& multiplier, int& shift) {
  if (!(real > 0.0) || !std::isfinite(real)) {  // 0, negative, NaN or infinite: nothing
    multiplier = 0, shift = 0;
    return;
  }
  const double q = std::frexp(real, &shift);
  auto fixed = static_cast<int64_t>(std::round(q * static_cast<double>(int64_t{1} << 31)));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) shift = 0, fixed = 0;
  if (shift > 30) shift = 30, fixed = (int64_t{1} << 31) - 1;
  multiplier = static_cast<int32_t>(fixed);
}

namespace {

namespace gn = golden::net;
using golden::Requant;
using golden::reference::PoolWindow;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The attributes of the operators npugen maps, in opsets 10 to 25 of ONNX's domain and in
// com.microsoft's (ONNX Runtime refuses a node with another).
const std::map<std::string, std::set<std::string>>& known_attributes() {
  static const std::set<std::string> kWindow = {"auto_pad", "dilations", "kernel_shape", "pads",
                                                "strides"};
  auto with = [](std::set<std::string> a, std::initializer_list<const char*> more) {
    a.insert(more.begin(), more.end());
    return a;
  };
  static const std::map<std::string, std::set<std::string>> kKnown = {
      {"QuantizeLinear", {"axis", "block_size", "output_dtype", "precision", "saturate"}},
      {"DequantizeLinear", {"axis", "block_size", "output_dtype"}},
      {"Identity", {}},
      {"QLinearConv", with(kWindow, {"group", "channels_last"})},
      {"QLinearMatMul", {}},
      {"QGemm", {"alpha", "transA", "transB"}},
      {"ConvInteger", with(kWindow, {"group"})},
      {"MatMulInteger", {}},
      {"QLinearAdd", {}},
      {"QLinearAveragePool",
       {"auto_pad", "ceil_mode", "channels_last", "count_include_pad", "kernel_shape", "pads",
        "strides"}},
      {"QLinearGlobalAveragePool", {"channels_last"}},
      {"MaxPool", with(kWindow, {"ceil_mode", "storage_order"})},
      {"AveragePool", with(kWindow, {"ceil_mode", "count_include_pad"})},
      {"GlobalAveragePool", {}},
      {"GlobalMaxPool", {}},
      {"Conv", with(kWindow, {"group"})},
      {"Gemm", {"alpha", "beta", "transA", "transB"}},
      {"MatMul", {}},
      {"Add", {}},
      {"Relu", {}},
      {"Clip", {"min", "max"}},
      {"Flatten", {"axis"}},
      {"Reshape", {"allowzero"}},
      {"Transpose", {"perm"}},
      {"QLinearSigmoid", {}},
      {"QLinearLeakyRelu", {"alpha"}},
      {"Sigmoid", {}},
      {"Tanh", {}},
      {"HardSigmoid", {"alpha", "beta"}},
      {"HardSwish", {}},
      {"LeakyRelu", {"alpha"}},
      {"Elu", {"alpha"}},
      {"Swish", {"alpha"}},
      {"Concat", {"axis"}},
      {"Resize",
       {"antialias", "axes", "coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside",
        "extrapolation_value", "keep_aspect_ratio_policy", "mode", "nearest_mode"}},
      {"QLinearConcat", {"axis"}},
  };
  return kKnown;
}

// A problem with a node (or the graph): thrown, turned into one diagnostic.
struct Failure {
  std::string where, message;
};

std::string node_name(const onnx::NodeProto& n) {
  const std::string& name = n.name().empty() && n.output_size() > 0 ? n.output(0) : n.name();
  return fmt::format("node {} ({})", name, n.op_type());
}
[[noreturn]] void fail(const onnx::NodeProto& n, const std::string& why) {
  throw Failure{node_name(n), why};
}
[[noreturn]] void fail_graph(const std::string& why) { throw Failure{"", why}; }

// A tensor's values (exact as doubles: int8, uint8, int32 and float32 all are).
struct Data {
  std::vector<int64_t> dims;
  int type = 0;
  std::vector<double> v;
  [[nodiscard]] bool is_uint8() const { return type == onnx::TensorProto::UINT8; }
};

template <typename T>
std::vector<double> raw_values(const std::string& raw, size_t count) {
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) {
    T x;
    std::memcpy(&x, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(x);
  }
  return out;
}

Data data_of(const onnx::TensorProto& t, const onnx::NodeProto& n) {
  Data d;
  d.type = t.data_type();
  size_t count = 1;
  for (const int64_t dim : t.dims()) {
    if (dim < 0 || dim > (int64_t{1} << 28)) {
      fail(n, fmt::format("tensor {} has a dimension {}", t.name(), dim));
    }
    d.dims.push_back(dim);
    count *= static_cast<size_t>(dim);
    if (count > (size_t{1} << 28)) fail(n, fmt::format("tensor {} is too large", t.name()));
  }
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    fail(n, fmt::format("tensor {} keeps its data in an external file", t.name()));
  }
  const bool raw = t.has_raw_data();
  // Present, raw_data is the data (as ONNX Runtime reads it): of the wrong size, the tensor
  // is refused, never read from its typed field instead.
  auto check_raw = [&](size_t bytes) {
    if (raw && t.raw_data().size() != count * bytes) {
      fail(n, fmt::format("tensor {} has {} bytes of raw_data, not {} ({} element{} of {} bytes)",
                          t.name(), t.raw_data().size(), count * bytes, count,
                          count == 1 ? "" : "s", bytes));
    }
  };
  size_t width = 0;
  switch (d.type) {
    case onnx::TensorProto::FLOAT:
      width = 4;
      check_raw(width);
      if (raw)
        d.v = raw_values<float>(t.raw_data(), count);
      else
        for (const float x : t.float_data()) d.v.push_back(x);
      break;
    case onnx::TensorProto::INT8:
      width = 1;
      check_raw(width);
      if (raw)
        d.v = raw_values<int8_t>(t.raw_data(), count);
      else
        for (const int32_t x : t.int32_data()) d.v.push_back(static_cast<int8_t>(x));
      break;
    case onnx::TensorProto::UINT8:
      width = 1;
      check_raw(width);
      if (raw)
        d.v = raw_values<uint8_t>(t.raw_data(), count);
      else
        for (const int32_t x : t.int32_data()) d.v.push_back(static_cast<uint8_t>(x));
      break;
    case onnx::TensorProto::INT32:
      width = 4;
      check_raw(width);
      if (raw)
        d.v = raw_values<int32_t>(t.raw_data(), count);
      else
        for (const int32_t x : t.int32_data()) d.v.push_back(x);
      break;
    case onnx::TensorProto::INT64:
      width = 8;
      check_raw(width);
      if (raw)
        d.v = raw_values<int64_t>(t.raw_data(), count);
      else
        for (const int64_t x : t.int64_data()) d.v.push_back(static_cast<double>(x));
      break;
    default:
      fail(n, fmt::format("tensor {} is of ONNX data type {}, not float, int8, uint8, int32 or "
                          "int64",
                          t.name(), d.type));
  }
  if (d.v.size() != count) {
    fail(n, fmt::format("tensor {} holds {} values for its {} elements ({} bytes each)", t.name(),
                        d.v.size(), count, width));
  }
  return d;
}

// How an activation tensor of the network is seen by the ONNX graph.
enum class View : uint8_t {
  kNchw,     ///< [N][C][H][W] (the network keeps NHWC)
  kNhwc,     ///< [N][H][W][C] after a transpose
  kFlatChw,  ///< [N][C*H*W], flattened from NCHW
  kFlatHwc,  ///< [N][H*W*C], flattened from NHWC
};

struct Quant {
  size_t t = 0;        ///< the network's tensor
  double scale = 1.0;  ///< float
  int32_t zp = 0;      ///< int8 domain
  View view = View::kNchw;
  bool uint8 = false;  ///< uint8 in the model (its zero point there is zp + 128)
};

// A float op over dequantized values, waiting for the QuantizeLinear that gives its output.
struct Pending {
  enum Op : uint8_t {
    kConv,
    kFc,
    kMaxPool,
    kAvgPool,
    kAdd,
    kActivation,
    kLut,
    kConcat,
    kResize
  } op = kConv;
  const onnx::NodeProto* node = nullptr;  ///< the op's node
  Quant x, y;                             ///< inputs (y: add's second)
  std::shared_ptr<Data> w, b;             ///< conv, fc: integer weights and bias (or float)
  std::vector<double> w_scales;
  std::vector<int64_t> w_zps;
  bool b_float = false;
  PoolWindow win;
  bool global = false;                           ///< a global average pool (reduce_sum over H x W)
  bool transpose_w = false;                      ///< fc: weights [IN][K]
  double lo = -kInf, hi = kInf;                  ///< fused Relu or Clip (float)
  LutFunction function = LutFunction::kSigmoid;  ///< lut: the element-wise function
  float alpha = 0.0F, beta = 0.0F;               ///< lut: its parameters
  std::vector<Quant> parts;                      ///< concat: its inputs
  int resize_h = 1, resize_w = 1;                ///< resize: its factors
  std::vector<std::string> nodes;
};

struct Value {
  enum Kind : uint8_t { kInit, kFloatInput, kQuant, kDeq, kDeqConst, kPending } kind = kInit;
  const onnx::TensorProto* init = nullptr;
  Quant q;  // kQuant, kDeq
  // kDeqConst: integer values, their scales and zero points (per channel along `axis`, or one)
  std::shared_ptr<Data> data;
  std::vector<double> scales;
  std::vector<int64_t> zps;
  int64_t axis = 1;  // kDeqConst: DequantizeLinear's axis (its per-channel scales' dimension)
  Pending p;         // kPending
  View input_view = View::kNchw;  // kFloatInput
};

class Importer {
 public:
  explicit Importer(const onnx::ModelProto& m) : m_(m) {}

  OnnxModel run() {
    const onnx::GraphProto& g = m_.graph();
    for (const auto& o : m_.opset_import()) {
      if (o.domain().empty() || o.domain() == "ai.onnx") model_.opset = o.version();
    }
    if (model_.opset < kOnnxOpsetMin || model_.opset > kOnnxOpsetMax) {
      fail_graph(
          fmt::format("the model imports opset {} of the default domain; npugen maps "
                      "opsets {} to {}",
                      model_.opset, kOnnxOpsetMin, kOnnxOpsetMax));
    }
    for (const auto& t : g.initializer()) {
      Value v;
      v.kind = Value::kInit;
      v.init = &t;
      values_[t.name()] = v;  // named twice: the last (as ONNX Runtime takes it)
      defined_[t.name()] = "an initializer";
    }
    std::vector<const onnx::ValueInfoProto*> inputs;
    for (const auto& in : g.input()) {
      if (!values_.contains(in.name())) inputs.push_back(&in);
      defined_.try_emplace(in.name(), "the graph's input");
    }
    if (inputs.size() != 1) {
      fail_graph(
          fmt::format("the graph has {} inputs besides its initializers; npugen runs "
                      "networks of one input",
                      inputs.size()));
    }
    if (g.output_size() < 1) fail_graph("the graph has no output");
    g_outputs_ = g.output_size();
    input_edge(*inputs.front());
    for (const auto& n : g.node()) {
      for (const std::string& in : n.input()) ++consumers_[in];
    }
    for (const auto& n : g.node()) node(n);
    for (const auto& out : g.output()) output_edge(out);
    // One output: the last layer's, as a network file's default; several: named after the
    // graph's outputs.
    if (model_.outputs.size() > 1) {
      for (const OnnxEdge& e : model_.outputs) {
        model_.file.network.outputs.push_back({output_tensor_.at(e.name), e.name});
      }
    }
    // The format.
    const bool qdq = ops_.contains("QuantizeLinear") && ops_.contains("DequantizeLinear") &&
                     (ops_.contains("Conv") || ops_.contains("Gemm") || ops_.contains("MatMul") ||
                      ops_.contains("Add"));
    const bool qop = ops_.contains("QLinearConv") || ops_.contains("QLinearMatMul") ||
                     ops_.contains("QGemm") || ops_.contains("QLinearAdd");
    model_.format = qdq && qop ? "QOperator and QDQ" : qdq ? "QDQ" : "QOperator";
    NetworkFile& f = model_.file;
    f.network.has_arithmetic = true;
    f.plan.assign(f.network.layers.size(), LayerPlan{});
    return std::move(model_);
  }

 private:
  // ---------------------------------------------------------------------------- edges
  void input_edge(const onnx::ValueInfoProto& in) {
    OnnxEdge& e = model_.input;
    e.name = in.name();
    if (!in.type().has_tensor_type()) fail_graph(fmt::format("input {} is not a tensor", e.name));
    const auto& tt = in.type().tensor_type();
    if (tt.elem_type() != onnx::TensorProto::FLOAT) {
      fail_graph(
          fmt::format("input {} is not float (ONNX data type {}); npugen quantizes a float "
                      "input with the model's QuantizeLinear",
                      e.name, tt.elem_type()));
    }
    for (int i = 0; i < tt.shape().dim_size(); ++i) {
      const auto& d = tt.shape().dim(i);
      if (d.has_dim_value() && d.dim_value() > (int64_t{1} << 16)) {
        fail_graph(fmt::format("input {} has a dimension of {}", e.name, d.dim_value()));
      }
      if (d.has_dim_value() && d.dim_value() > 0) {
        e.dims.push_back(d.dim_value());
      } else if (i == 0) {
        e.dims.push_back(0);  // the batch
      } else {
        fail_graph(fmt::format("input {} has a dynamic dimension {} ({}) without a given size",
                               e.name, i, d.dim_param().empty() ? "?" : d.dim_param()));
      }
    }
    if (e.dims.size() < 2 || e.dims.size() > 4) {
      fail_graph(
          fmt::format("input {} has rank {}; npugen maps [N][C][H][W], [N][C][L] (as H "
                      "1) and [N][F]",
                      e.name, e.dims.size()));
    }
    rank3_ = e.dims.size() == 3;  // [N][C][L]: H 1
    Value v;
    v.kind = Value::kFloatInput;
    v.input_view = e.dims.size() == 2 ? View::kFlatChw : View::kNchw;
    values_[e.name] = v;
  }

  void output_edge(const onnx::ValueInfoProto& out) {
    const Value& v = value_of(out.name(), nullptr);
    if (v.kind != Value::kDeq && v.kind != Value::kQuant) {
      fail_graph(
          fmt::format("output {} is not a quantized tensor or its DequantizeLinear", out.name()));
    }
    const NetworkFile& f = model_.file;
    if (v.q.t == 0 || f.network.layers.empty()) {
      fail_graph(fmt::format("output {} is the graph's input (a network of no layer)", out.name()));
    }
    if (model_.outputs.empty() && g_outputs_ == 1 && v.q.t != f.network.layers.size()) {
      fail_graph(fmt::format("output {} is not the last layer's tensor", out.name()));
    }
    for (const auto& [name, t] : output_tensor_) {
      if (t == v.q.t) {
        fail_graph(fmt::format("outputs {} and {} are one tensor", name, out.name()));
      }
    }
    output_tensor_[out.name()] = v.q.t;
    OnnxEdge& e = model_.outputs.emplace_back();
    e.name = out.name();
    e.scale = v.q.scale;
    e.uint8 = dequantized_uint8_.contains(out.name()) ? dequantized_uint8_[out.name()] : v.q.uint8;
    e.zero_point = v.q.zp + (e.uint8 ? 128 : 0);
    const gn::Shape& s = f.network.shape_of(v.q.t);
    e.dims = v.q.view == View::kFlatChw || v.q.view == View::kFlatHwc
                 ? std::vector<int64_t>{0, static_cast<int64_t>(s.elements())}
             : rank3_ && s.h == 1 ? std::vector<int64_t>{0, s.c, s.w}
                                  : std::vector<int64_t>{0, s.c, s.h, s.w};
    e.nchw = v.q.view == View::kNchw;
    e.int32 = int32_output_;
  }

  // ---------------------------------------------------------------------------- values
  const Value& value_of(const std::string& name, const onnx::NodeProto* n) {
    const auto it = values_.find(name);
    if (it == values_.end()) {
      if (n != nullptr) fail(*n, fmt::format("its input {} is made by no earlier node", name));
      fail_graph(fmt::format("{} is made by no node", name));
    }
    return it->second;
  }
  // The value of input i (a missing or empty input is a failure).
  const Value& in(const onnx::NodeProto& n, int i) {
    if (n.input_size() <= i || n.input(i).empty()) {
      fail(n, fmt::format("it has {} inputs; input {} is missing", n.input_size(), i));
    }
    return value_of(n.input(i), &n);
  }
  const onnx::TensorProto& init_of(const onnx::NodeProto& n, int i, const char* what) {
    if (n.input_size() <= i || n.input(i).empty()) fail(n, fmt::format("it has no {}", what));
    const Value& v = in(n, i);
    if (v.kind != Value::kInit) {
      fail(n, fmt::format("its {} ({}) is not a constant initializer", what, n.input(i)));
    }
    return *v.init;
  }
  double scalar_of(const onnx::NodeProto& n, int i, const char* what) {
    const Data d = data_of(init_of(n, i, what), n);
    if (d.v.size() != 1) fail(n, fmt::format("its {} has {} values, not one", what, d.v.size()));
    return d.v[0];
  }
  // A scale and a zero point of an activation (one each); uint8 zero points map to int8. A
  // zero point not given is 0 of the tensor's type: uint8 when `absent_uint8`.
  std::pair<double, int32_t> activation_q(const onnx::NodeProto& n, int scale, int zp,
                                          bool* uint8 = nullptr, bool absent_uint8 = false) {
    const double s = scalar_of(n, scale, "scale");
    if (!(s > 0) || !(s < 1e30)) {
      fail(n, fmt::format("its scale {} is not a positive float32", s));
    }
    bool u = absent_uint8;
    int32_t z = u ? -128 : 0;
    if (n.input_size() > zp && !n.input(zp).empty()) {
      const Data d = data_of(init_of(n, zp, "zero point"), n);
      if (d.v.size() != 1) fail(n, "its zero point has more than one value");
      if (d.type != onnx::TensorProto::INT8 && d.type != onnx::TensorProto::UINT8) {
        fail(n, fmt::format("its zero point is of ONNX data type {}, not int8 or uint8 (npugen "
                            "runs int8 activations)",
                            d.type));
      }
      u = d.is_uint8();
      z = static_cast<int32_t>(d.v[0]) - (u ? 128 : 0);
    }
    if (uint8 != nullptr) *uint8 = u;
    return {s, z};
  }
  // A QOperator node's quantization of input x (its scale at input s, its zero point at z)
  // must be the one x has: npugen computes with x's (ONNX Runtime with the node's).
  void same_input_q(const onnx::NodeProto& n, const Quant& x, int s, int z) {
    bool u8 = false;
    const auto [scale, zp] = activation_q(n, s, z, &u8, x.uint8);
    if (std::abs(scale - x.scale) > 1e-6 * x.scale || zp != x.zp || u8 != x.uint8) {
      fail(n, fmt::format("its input {} is read with scale {:g} and zero point {} ({}), not "
                          "the tensor's {:g} and {} ({})",
                          n.input(s - 1), scale, zp + (u8 ? 128 : 0), u8 ? "uint8" : "int8",
                          x.scale, x.zp + (x.uint8 ? 128 : 0), x.uint8 ? "uint8" : "int8"));
    }
  }
  // A layer's output of the given type in the model.
  static Value typed(Quant q, bool uint8) {
    q.uint8 = uint8;
    Value v;
    v.kind = Value::kQuant;
    v.q = q;
    return v;
  }
  void set(const onnx::NodeProto& n, Value v) {
    if (n.output_size() < 1) fail(n, "it has no output");
    values_[n.output(0)] = std::move(v);
  }
  Value quant_value(const Quant& q) {
    Value v;
    v.kind = Value::kQuant;
    v.q = q;
    return v;
  }

  // ---------------------------------------------------------------------------- windows
  // An attribute of a node, which must be of its operator's type (ONNX Runtime refuses
  // another; an attribute without a type, of old models, is read by its field); nullptr when
  // absent.
  static const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const char* name,
                                               onnx::AttributeProto::AttributeType type) {
    for (const auto& a : n.attribute()) {
      if (a.name() != name) continue;
      if (a.type() != onnx::AttributeProto::UNDEFINED && a.type() != type) {
        fail(n, fmt::format("its attribute {} is of type {}, not {}", name,
                            onnx::AttributeProto::AttributeType_Name(a.type()),
                            onnx::AttributeProto::AttributeType_Name(type)));
      }
      return &a;
    }
    return nullptr;
  }
  // An attribute's integers (a window's sizes: within +-65535, else a failure).
  static std::vector<int64_t> ints(const onnx::NodeProto& n, const char* name) {
    const auto* a = attribute(n, name, onnx::AttributeProto::INTS);
    if (a == nullptr) return {};
    for (const int64_t v : a->ints()) {
      if (v < -65535 || v > 65535) fail(n, fmt::format("its {} {} is out of range", name, v));
    }
    return {a->ints().begin(), a->ints().end()};
  }
  static std::optional<int64_t> int_attr(const onnx::NodeProto& n, const char* name) {
    const auto* a = attribute(n, name, onnx::AttributeProto::INT);
    return a == nullptr ? std::nullopt : std::optional<int64_t>(a->i());
  }
  static std::optional<double> float_attr(const onnx::NodeProto& n, const char* name) {
    const auto* a = attribute(n, name, onnx::AttributeProto::FLOAT);
    return a == nullptr ? std::nullopt : std::optional<double>(a->f());
  }
  static std::string string_attr(const onnx::NodeProto& n, const char* name) {
    const auto* a = attribute(n, name, onnx::AttributeProto::STRING);
    return a == nullptr ? std::string() : a->s();
  }
  // The window of a Conv or a pool over a tensor of h x w (kernel from the weights when
  // the attribute is absent).
  PoolWindow window(const onnx::NodeProto& n, int h, int w, int kh = 0, int kw = 0) {
    // A 1-D window (over [N][C][L], seen as H 1) is 1 x k.
    auto two = [&](std::vector<int64_t> v, int64_t fill) {
      if (rank3_ && v.size() == 1) v.insert(v.begin(), fill);
      return v;
    };
    const auto k = two(ints(n, "kernel_shape"), 1);
    if (!k.empty() && k.size() != 2) fail(n, "its kernel is not two-dimensional");
    PoolWindow win;
    win.kernel_h = k.empty() ? kh : static_cast<int>(k[0]);
    win.kernel_w = k.empty() ? kw : static_cast<int>(k[1]);
    if (win.kernel_h < 1 || win.kernel_w < 1) fail(n, "it has no kernel shape");
    const auto s = two(ints(n, "strides"), 1);
    win.stride_y = s.empty() ? 1 : static_cast<int>(s.at(0));
    win.stride_x = s.size() < 2 ? win.stride_y : static_cast<int>(s.at(1));
    for (const int64_t d : ints(n, "dilations")) {
      if (d != 1) fail(n, fmt::format("dilation {} (npugen maps dilation 1)", d));
    }
    const std::string pad = string_attr(n, "auto_pad");
    if (pad.empty() || pad == "NOTSET") {
      auto p = ints(n, "pads");
      if (rank3_ && p.size() == 2) p = {0, p[0], 0, p[1]};
      if (!p.empty() && p.size() != 4) fail(n, "its pads are not four");
      if (p.size() == 4) {
        win.pad_top = static_cast<int>(p[0]), win.pad_left = static_cast<int>(p[1]);
        win.pad_bottom = static_cast<int>(p[2]), win.pad_right = static_cast<int>(p[3]);
      }
    } else if (pad == "SAME_UPPER" || pad == "SAME_LOWER") {
      auto same = [&](int size, int kernel, int stride, int& lo, int& hi) {
        const int out = (size + stride - 1) / stride;
        const int total = std::max(0, (out - 1) * stride + kernel - size);
        lo = pad == "SAME_UPPER" ? total / 2 : total - total / 2;
        hi = total - lo;
      };
      same(h, win.kernel_h, win.stride_y, win.pad_top, win.pad_bottom);
      same(w, win.kernel_w, win.stride_x, win.pad_left, win.pad_right);
    } else if (pad != "VALID") {
      fail(n, fmt::format("auto_pad {} is not mapped", pad));
    }
    if (win.stride_y < 1 || win.stride_x < 1 || win.pad_top < 0 || win.pad_left < 0 ||
        win.pad_bottom < 0 || win.pad_right < 0) {
      fail(n, "its strides or pads are negative or zero");
    }
    if (h + win.pad_top + win.pad_bottom < win.kernel_h ||
        w + win.pad_left + win.pad_right < win.kernel_w) {
      fail(n, fmt::format("its {}x{} window does not fit the {}x{} input", win.kernel_h,
                          win.kernel_w, h, w));
    }
    if (int_attr(n, "ceil_mode").value_or(0) != 0) {
      // ceil_mode 1: one more output where the last window would reach past the padding, as
      // long as it starts inside the input or its leading padding (ONNX Runtime's and
      // PyTorch's rule); its positions past the input are padding the pools skip (max over
      // the valid positions; the average over them: count_include_pad 0).
      auto extend = [](int size, int kernel, int stride, int lo, int& hi) {
        const int span = size + lo + hi - kernel;
        int out = (span + stride - 1) / stride + 1;
        if ((out - 1) * stride >= size + lo) --out;
        hi += std::max(0, (out - 1) * stride + kernel - (size + lo + hi));
      };
      extend(h, win.kernel_h, win.stride_y, win.pad_top, win.pad_bottom);
      extend(w, win.kernel_w, win.stride_x, win.pad_left, win.pad_right);
    }
    return win;
  }

  // ---------------------------------------------------------------------------- layers
  gn::Layer& new_layer(const std::vector<std::string>& nodes, gn::Op op, const Quant& x) {
    gn::Layer l;
    l.name = fmt::format("l{}", model_.file.network.layers.size());
    l.op = op;
    l.inputs = {x.t};
    model_.file.network.layers.push_back(std::move(l));
    OnnxLayerInfo info;
    info.nodes = nodes;
    info.input_scale = x.scale;
    model_.layers.push_back(info);
    return model_.file.network.layers.back();
  }
  Quant finish_layer(double scale, int32_t zp, View view) {
    NetworkFile& f = model_.file;
    f.network.layers.back().zero_point = zp;
    f.zero_point.push_back(zp);
    model_.layers.back().output_scale = scale;
    return Quant{f.network.layers.size(), scale, zp, view};
  }
  // A requantization's real multiplier, which must be a positive finite number.
  static double checked(const onnx::NodeProto& n, double real) {
    if (!(real > 0.0) || !std::isfinite(real)) {
      fail(n, fmt::format("its scales give the requantization multiplier {}, not a positive "
                          "finite number",
                          real));
    }
    return real;
  }
  static int32_t clamp_q(double v, double scale, int32_t zp, bool low) {
    if (std::isinf(v)) return low ? -128 : 127;
    const double q = std::nearbyint(v / scale) + zp;
    return static_cast<int32_t>(std::clamp(q, -128.0, 127.0));
  }

  // conv or fc from integer weights (ONNX layout), their scales and zero points, a bias.
  Quant neural(const std::vector<std::string>& nodes, const onnx::NodeProto& n, bool fc,
               const Quant& x, const Data& w, const std::vector<double>& w_scales,
               const std::vector<int64_t>& w_zps, const Data* b, bool b_float, double y_scale,
               int32_t y_zp, double lo, double hi, bool transpose_w, const PoolWindow* win) {
    const gn::Shape s = model_.file.network.shape_of(x.t);
    if (w.type != onnx::TensorProto::INT8 && w.type != onnx::TensorProto::UINT8) {
      fail(n, fmt::format("its weights are of ONNX data type {}, not int8 (npugen needs int8 "
                          "weights)",
                          w.type));
    }
    // The weights minus their zero point (per output channel, or one) must be int8:
    // npugen's weights are symmetric.
    if (w.dims.size() != (fc ? 2U : 4U)) {
      fail(n, fmt::format("its weights have {} dimensions, not {}", w.dims.size(), fc ? 2 : 4));
    }
    const auto channels = static_cast<size_t>(fc ? w.dims[transpose_w ? 1 : 0] : w.dims[0]);
    if (w_zps.size() > 1 && w_zps.size() != channels) {
      fail(n, fmt::format("its weights have {} zero points for {} output channels", w_zps.size(),
                          channels));
    }
    auto zp_of = [&](size_t o) {
      return w_zps.empty() ? 0 : w_zps.size() == 1 ? w_zps[0] : w_zps[o];
    };
    int k = 0, kh = 1, kw = 1, c = s.c;
    std::vector<int8_t> weights;
    auto wv = [&](size_t i, size_t o) {
      const double v = w.v[i] - static_cast<double>(zp_of(o));
      if (v < -128 || v > 127) {
        fail(n, fmt::format("its weights minus their zero point ({} - {}) do not fit int8 "
                            "(npugen's weights are symmetric int8)",
                            w.v[i], zp_of(o)));
      }
      return static_cast<int8_t>(v);
    };
    if (!fc) {
      if (int_attr(n, "group").value_or(1) != 1) fail(n, "group convolution is not mapped");
      if (w.dims.size() != 4 || w.dims[1] != s.c) {
        fail(n, fmt::format("its weights are not [K][{}][KH][KW]", s.c));
      }
      k = static_cast<int>(w.dims[0]), kh = static_cast<int>(w.dims[2]);
      kw = static_cast<int>(w.dims[3]);
      weights.resize(w.v.size());
      for (int o = 0; o < k; ++o) {
        for (int y = 0; y < kh; ++y) {
          for (int xx = 0; xx < kw; ++xx) {
            for (int ch = 0; ch < c; ++ch) {
              weights[((static_cast<size_t>(o) * kh + y) * kw + xx) * c + ch] = wv(
                  ((static_cast<size_t>(o) * c + ch) * kh + y) * kw + xx, static_cast<size_t>(o));
            }
          }
        }
      }
    } else {
      const auto in = static_cast<int64_t>(s.elements());
      if (w.dims.size() != 2 || w.dims[transpose_w ? 0 : 1] != in) {
        fail(n, fmt::format("its weights are not {} (the input's {} values)",
                            transpose_w ? "[IN][K]" : "[K][IN]", in));
      }
      if (x.view == View::kNchw && (s.h != 1 || s.w != 1)) {
        fail(n, "it reads a 4-D tensor that is not flattened");
      }
      k = static_cast<int>(w.dims[transpose_w ? 1 : 0]);
      weights.resize(w.v.size());
      const bool chw = x.view == View::kFlatChw || x.view == View::kNchw;
      for (int o = 0; o < k; ++o) {
        for (int y = 0; y < s.h; ++y) {
          for (int xx = 0; xx < s.w; ++xx) {
            for (int ch = 0; ch < s.c; ++ch) {
              const size_t ours = (static_cast<size_t>(y) * s.w + xx) * s.c + ch;
              const size_t theirs = chw ? (static_cast<size_t>(ch) * s.h + y) * s.w + xx : ours;
              const size_t at = transpose_w ? theirs * static_cast<size_t>(k) + o
                                            : static_cast<size_t>(o) * in + theirs;
              weights[static_cast<size_t>(o) * in + ours] = wv(at, static_cast<size_t>(o));
            }
          }
        }
      }
    }
    if (w_scales.size() != 1 && w_scales.size() != static_cast<size_t>(k)) {
      fail(n, fmt::format("its weights have {} scales for {} output channels", w_scales.size(), k));
    }
    gn::Layer& l = new_layer(nodes, fc ? gn::Op::kFc : gn::Op::kConv, x);
    golden::reference::ConvLayer& cl = l.conv;
    cl.filters = k;
    cl.kernel_h = kh, cl.kernel_w = kw;
    if (win != nullptr) {
      l.window = *win;
      cl.stride_y = win->stride_y, cl.stride_x = win->stride_x;
      cl.pad_top = win->pad_top, cl.pad_bottom = win->pad_bottom;
      cl.pad_left = win->pad_left, cl.pad_right = win->pad_right;
      l.window.kernel_h = kh, l.window.kernel_w = kw;
    }
    cl.weights = std::move(weights);
    cl.input_zero_point = x.zp;
    const int32_t act_min = clamp_q(lo, y_scale, y_zp, true);
    const int32_t act_max = clamp_q(hi, y_scale, y_zp, false);
    l.act_min = act_min, l.act_max = act_max;
    OnnxLayerInfo& info = model_.layers.back();
    for (int o = 0; o < k; ++o) {
      const double ws = w_scales.size() == 1 ? w_scales[0] : w_scales[static_cast<size_t>(o)];
      info.weight_scales.push_back(ws);
      if (!(ws > 0) || !(ws < 1e30)) {
        fail(n, fmt::format("weight scale {} of channel {} is not a positive float32", ws, o));
      }
      // As TFLite: the product of the float scales in double.
      const double real = static_cast<double>(static_cast<float>(x.scale)) *
                          static_cast<double>(static_cast<float>(ws)) /
                          static_cast<double>(static_cast<float>(y_scale));
      Requant r;
      quantize_multiplier(checked(n, real), r.multiplier, r.shift);
      r.zero_point = y_zp, r.act_min = act_min, r.act_max = act_max;
      cl.output.push_back(r);
      int64_t bias = 0;
      if (b != nullptr) {
        if (b->v.size() != static_cast<size_t>(k)) {
          fail(n, fmt::format("its bias has {} values for {} channels", b->v.size(), k));
        }
        const double bv = b_float ? std::nearbyint(b->v[static_cast<size_t>(o)] / (x.scale * ws))
                                  : b->v[static_cast<size_t>(o)];
        if (!std::isfinite(bv) || bv < std::numeric_limits<int32_t>::min() ||
            bv > std::numeric_limits<int32_t>::max()) {
          fail(n, fmt::format("channel {}'s bias does not fit int32", o));
        }
        bias = static_cast<int64_t>(bv);
      }
      cl.bias.push_back(static_cast<int32_t>(bias));
    }
    if (fc) {
      l.out = {1, 1, k};
    } else {
      l.out = {(s.h + win->pad_top + win->pad_bottom - kh) / win->stride_y + 1,
               (s.w + win->pad_left + win->pad_right - kw) / win->stride_x + 1, k};
    }
    return finish_layer(y_scale, y_zp, fc ? View::kFlatHwc : View::kNchw);
  }

  Quant pool(const std::vector<std::string>& nodes, const onnx::NodeProto& n, bool max,
             const Quant& x, const PoolWindow& win, double y_scale, int32_t y_zp, double lo,
             double hi) {
    if (x.view != View::kNchw) fail(n, "it pools a tensor that is not NCHW");
    // npugen's pools keep their input's quantization: another output quantization is a
    // gain_bias layer after the pool (a requantization, TFLite's arithmetic).
    const bool requantize = std::abs(y_scale - x.scale) > 1e-6 * x.scale || y_zp != x.zp;
    // (Padding that ceil_mode 1 alone adds is not counted by ONNX Runtime either: its last
    // window stops at the input and the declared padding.)
    const auto pads = ints(n, "pads");
    const std::string auto_pad = string_attr(n, "auto_pad");
    const bool declared = std::any_of(pads.begin(), pads.end(), [](int64_t v) { return v != 0; }) ||
                          auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
    if (!max && int_attr(n, "count_include_pad").value_or(0) != 0 && declared &&
        (win.pad_top | win.pad_bottom | win.pad_left | win.pad_right) != 0) {
      fail(n, "count_include_pad 1 with padding is not mapped (npugen averages the valid values)");
    }
    const gn::Shape s = model_.file.network.shape_of(x.t);
    gn::Layer& l = new_layer(nodes, max ? gn::Op::kMaxPool : gn::Op::kAvgPool, x);
    l.window = win;
    l.act_min = requantize ? -128 : clamp_q(lo, y_scale, y_zp, true);
    l.act_max = requantize ? 127 : clamp_q(hi, y_scale, y_zp, false);
    l.out = {(s.h + win.pad_top + win.pad_bottom - win.kernel_h) / win.stride_y + 1,
             (s.w + win.pad_left + win.pad_right - win.kernel_w) / win.stride_x + 1, s.c};
    const Quant pooled = finish_layer(x.scale, x.zp, View::kNchw);
    if (!requantize) return pooled;
    gn::Layer& g = new_layer(nodes, gn::Op::kGainBias, pooled);
    g.out = model_.file.network.shape_of(pooled.t);
    g.gain.input_zero_point = pooled.zp;
    Requant r;
    quantize_multiplier(checked(n, static_cast<double>(static_cast<float>(x.scale)) /
                                       static_cast<double>(static_cast<float>(y_scale))),
                        r.multiplier, r.shift);
    r.zero_point = y_zp;
    r.act_min = g.act_min = clamp_q(lo, y_scale, y_zp, true);
    r.act_max = g.act_max = clamp_q(hi, y_scale, y_zp, false);
    g.gain.bias.assign(static_cast<size_t>(g.out.c), 0);
    g.gain.output.assign(static_cast<size_t>(g.out.c), r);
    return finish_layer(y_scale, y_zp, View::kNchw);
  }

  // A global average pool: npugen's reduce_sum over H x W, scaled by input scale / (H x W x
  // output scale): one rounding, as ONNX Runtime's float average quantized once.
  Quant global_average(const std::vector<std::string>& nodes, const onnx::NodeProto& n,
                       const Quant& x, double y_scale, int32_t y_zp, double lo, double hi) {
    if (x.view != View::kNchw) fail(n, "it pools a tensor that is not NCHW");
    const gn::Shape s = model_.file.network.shape_of(x.t);
    gn::Layer& l = new_layer(nodes, gn::Op::kReduceSum, x);
    l.axis = golden::reference::ReduceAxis::kSpatial;
    l.reduce_input_zero_point = x.zp;
    Requant r;
    quantize_multiplier(checked(n, static_cast<double>(static_cast<float>(x.scale)) /
                                       (static_cast<double>(s.h) * s.w *
                                        static_cast<double>(static_cast<float>(y_scale)))),
                        r.multiplier, r.shift);
    r.zero_point = y_zp;
    r.act_min = l.act_min = clamp_q(lo, y_scale, y_zp, true);
    r.act_max = l.act_max = clamp_q(hi, y_scale, y_zp, false);
    l.reduce_output.assign(static_cast<size_t>(s.c), r);
    l.out = {1, 1, s.c};
    return finish_layer(y_scale, y_zp, View::kNchw);
  }

  Quant add(const std::vector<std::string>& nodes, const onnx::NodeProto& n, const Quant& a,
            const Quant& b, double y_scale, int32_t y_zp, double lo, double hi) {
    const gn::Network& net = model_.file.network;
    if (!(net.shape_of(a.t) == net.shape_of(b.t)) || a.view != b.view) {
      fail(n, "it adds tensors of different shapes (npugen adds equal shapes)");
    }
    gn::Layer& l = new_layer(nodes, gn::Op::kAdd, a);
    l.inputs.push_back(b.t);
    golden::reference::AddParams& p = l.add;
    p.a_zero_point = a.zp, p.b_zero_point = b.zp;
    p.left_shift = 20;
    // TFLite's ADD: both inputs scaled to twice the larger input scale.
    const double twice = 2 * std::max(a.scale, b.scale);
    quantize_multiplier(checked(n, a.scale / twice), p.a_multiplier, p.a_shift);
    quantize_multiplier(checked(n, b.scale / twice), p.b_multiplier, p.b_shift);
    quantize_multiplier(checked(n, twice / ((1 << 20) * y_scale)), p.output.multiplier,
                        p.output.shift);
    p.output.zero_point = y_zp;
    p.output.act_min = l.act_min = clamp_q(lo, y_scale, y_zp, true);
    p.output.act_max = l.act_max = clamp_q(hi, y_scale, y_zp, false);
    l.out = net.shape_of(a.t);
    return finish_layer(y_scale, y_zp, a.view);
  }

  // A Relu or Clip on a quantized tensor: fused into its producer when nothing else reads
  // the producer's output; otherwise (or on the input) an activation layer.
  Quant clamp_layer(const onnx::NodeProto& n, const Quant& x, double lo, double hi) {
    NetworkFile& f = model_.file;
    const int32_t qlo = clamp_q(lo, x.scale, x.zp, true), qhi = clamp_q(hi, x.scale, x.zp, false);
    if (x.t != 0 && x.t == f.network.layers.size() && n.input_size() > 0 &&
        consumers_[n.input(0)] == 1) {
      gn::Layer& l = f.network.layers.back();
      l.act_min = std::max(l.act_min, qlo), l.act_max = std::min(l.act_max, qhi);
      for (Requant& r : l.conv.output) r.act_min = l.act_min, r.act_max = l.act_max;
      l.add.output.act_min = l.act_min, l.add.output.act_max = l.act_max;
      model_.layers.back().nodes.push_back(node_name(n));
      return x;
    }
    gn::Layer& l = new_layer({node_name(n)}, gn::Op::kActivation, x);
    l.act_min = qlo, l.act_max = qhi;
    l.out = f.network.shape_of(x.t);
    return finish_layer(x.scale, x.zp, x.view);
  }

  // An element-wise function as a LUT layer: its table computed as ONNX Runtime computes
  // DequantizeLinear -> f -> QuantizeLinear (QLinearSigmoid and QLinearLeakyRelu build theirs
  // the same way); a Relu or Clip after it (before its QuantizeLinear) is its clamp.
  Quant lut_layer(const std::vector<std::string>& nodes, const Quant& x, LutFunction f, float alpha,
                  float beta, double y_scale, int32_t y_zp, double lo, double hi) {
    gn::Layer& l = new_layer(nodes, gn::Op::kLut, x);
    LutQuant q;
    q.x_scale = static_cast<float>(x.scale), q.x_zero_point = x.zp;
    q.y_scale = static_cast<float>(y_scale), q.y_zero_point = y_zp;
    l.lut = lut_table(f, alpha, beta, q);
    l.act_min = clamp_q(lo, y_scale, y_zp, true);
    l.act_max = clamp_q(hi, y_scale, y_zp, false);
    l.out = model_.file.network.shape_of(x.t);
    return finish_layer(y_scale, y_zp, x.view);
  }

  // A channel concat: each input whose scale or zero point is not the output's requantized
  // first by a LUT (an identity table: ONNX Runtime's QLinearConcat requantizes through the
  // same table), then the copies. Along H or W (axis 2, 3) it is refused.
  Quant concat(const std::vector<std::string>& nodes, const onnx::NodeProto& n,
               const std::vector<Quant>& parts, double y_scale, int32_t y_zp, double lo,
               double hi) {
    const int64_t axis = int_attr(n, "axis").value_or(1);
    for (const Quant& q : parts) {
      if (q.view != View::kNchw) fail(n, "it concatenates a tensor that is not NCHW");
    }
    // The channels: axis 1, or counted from the end, -3 of [N][C][H][W] and -2 of [N][C][L].
    if (axis != 1 && axis != (rank3_ ? -2 : -3)) {
      fail(n, fmt::format("it concatenates along axis {}: only the channels (axis 1) are mapped",
                          axis));
    }
    if (parts.size() == 1) {  // one input: itself, requantized when its quantization differs
      const Quant& q = parts.front();
      if (std::abs(q.scale - y_scale) <= 1e-6 * y_scale && q.zp == y_zp) return q;
      return lut_layer(nodes, q, LutFunction::kIdentity, 0, 0, y_scale, y_zp, lo, hi);
    }
    std::vector<size_t> inputs;
    for (const Quant& q : parts) {
      if (std::abs(q.scale - y_scale) > 1e-6 * y_scale || q.zp != y_zp) {
        inputs.push_back(lut_layer({node_name(n) + " (requantizing an input)"}, q,
                                   LutFunction::kIdentity, 0, 0, y_scale, y_zp, -kInf, kInf)
                             .t);
      } else {
        inputs.push_back(q.t);
      }
    }
    const gn::Network& net = model_.file.network;
    gn::Layer& l = new_layer(nodes, gn::Op::kConcat, parts.front());
    l.inputs = inputs;
    l.out = net.shape_of(inputs.front());
    l.out.c = 0;
    for (const size_t t : inputs) {
      const gn::Shape s = net.shape_of(t);
      if (s.h != l.out.h || s.w != l.out.w) {
        fail(n, "it concatenates tensors of different heights or widths along the channels");
      }
      l.out.c += s.c;
    }
    l.act_min = clamp_q(lo, y_scale, y_zp, true);
    l.act_max = clamp_q(hi, y_scale, y_zp, false);
    return finish_layer(y_scale, y_zp, View::kNchw);
  }

  // Resize's factors: nearest, and for every output row (column) the input row (column) ONNX
  // Runtime's coordinate transformation and rounding read (computed in float32 as it does)
  // must be the output's over a whole factor; anything else is refused.
  std::pair<int, int> resize_factors(const onnx::NodeProto& n, const gn::Shape& s) {
    const std::string mode = string_attr(n, "mode");
    if (!mode.empty() && mode != "nearest") {
      fail(n, fmt::format("its mode {} is not mapped (nearest only)", mode));
    }
    if (int_attr(n, "antialias").value_or(0) != 0) fail(n, "antialias 1 is not mapped");
    if (!ints(n, "axes").empty()) fail(n, "axes are not mapped (give all four scales)");
    const bool opset10 = model_.opset < 11;
    const int scales_at = opset10 ? 1 : 2;
    std::vector<double> out(4, 0);
    std::array<float, 2> given{0, 0};  // the scales given (ONNX Runtime maps with these)
    if (n.input_size() > scales_at && !n.input(scales_at).empty() &&
        !data_of(init_of(n, scales_at, "scales"), n).v.empty()) {
      const Data d = data_of(init_of(n, scales_at, "scales"), n);
      if (d.v.size() != 4) fail(n, fmt::format("it has {} scales, not 4", d.v.size()));
      if (d.v[0] != 1 || d.v[1] != 1) fail(n, "it resizes the batch or the channels");
      out = {1, 1, static_cast<double>(static_cast<float>(d.v[2]) * static_cast<float>(s.h)),
             static_cast<double>(static_cast<float>(d.v[3]) * static_cast<float>(s.w))};
      out[2] = std::floor(out[2]), out[3] = std::floor(out[3]);
      given = {static_cast<float>(d.v[2]), static_cast<float>(d.v[3])};
    } else if (!opset10 && n.input_size() > 3 && !n.input(3).empty()) {
      const Data d = data_of(init_of(n, 3, "sizes"), n);
      if (d.v.size() != 4) fail(n, fmt::format("it has {} sizes, not 4", d.v.size()));
      out = d.v;
      if (out[1] != s.c) fail(n, "it resizes the channels");
      const std::string policy = string_attr(n, "keep_aspect_ratio_policy");
      if (!policy.empty() && policy != "stretch") {
        fail(n,
             fmt::format("its keep_aspect_ratio_policy {} is not mapped (stretch only)", policy));
      }
    } else {
      fail(n, "it has neither scales nor sizes");
    }
    const std::string ctm = string_attr(n, "coordinate_transformation_mode").empty()
                                ? "half_pixel"
                                : string_attr(n, "coordinate_transformation_mode");
    const std::string nm = string_attr(n, "nearest_mode").empty() ? "round_prefer_floor"
                                                                  : string_attr(n, "nearest_mode");
    auto factor = [&](int in, double out_len, float given_scale, const char* axis) {
      if (out_len < in || std::fmod(out_len, in) != 0) {
        fail(n, fmt::format("it resizes {} {} to {}: not by a whole factor (only upsampling by "
                            "whole factors is mapped)",
                            axis, in, out_len));
      }
      const int f = static_cast<int>(out_len) / in;
      const float scale =
          given_scale > 0 ? given_scale : static_cast<float>(out_len) / static_cast<float>(in);
      for (int d = 0; d < static_cast<int>(out_len); ++d) {
        const auto x = static_cast<float>(d);
        float o = 0;
        if (ctm == "half_pixel") {
          o = (x + 0.5F) / scale - 0.5F;
        } else if (ctm == "pytorch_half_pixel") {
          o = out_len > 1 ? (x + 0.5F) / scale - 0.5F : 0.0F;
        } else if (ctm == "asymmetric") {
          o = x / scale;
        } else if (ctm == "tf_half_pixel_for_nn") {
          o = (x + 0.5F) / scale;
        } else if (ctm == "align_corners") {
          o = out_len == 1 ? 0.0F
                           : x * static_cast<float>(in - 1) / static_cast<float>(out_len - 1);
        } else {
          fail(n, fmt::format("its coordinate_transformation_mode {} is not mapped", ctm));
        }
        float r = 0;
        if (nm == "floor") {
          r = std::floor(o);
        } else if (nm == "ceil") {
          r = std::ceil(o);
        } else if (nm == "round_prefer_floor" || nm == "round_prefer_ceil") {
          const bool half = o == std::floor(o) + 0.5F;
          r = half ? (nm == "round_prefer_floor" ? std::floor(o) : std::ceil(o)) : std::round(o);
        } else {
          fail(n, fmt::format("its nearest_mode {} is not mapped", nm));
        }
        const int src = std::clamp(static_cast<int>(r), 0, in - 1);
        if (src != d / f) {
          fail(n, fmt::format("with coordinate_transformation_mode {} and nearest_mode {}, "
                              "output {} {} reads input {} {}, not {} (npugen upsamples by "
                              "repeating each input {} {} times)",
                              ctm, nm, axis, d, axis, src, d / f, axis, f));
        }
      }
      return f;
    };
    return {factor(s.h, out[2], given[0], "row"), factor(s.w, out[3], given[1], "column")};
  }

  // A resize layer (nearest, whole factors); another output quantization than the input's
  // is an identity LUT after it.
  Quant resize_layer(const std::vector<std::string>& nodes, const onnx::NodeProto& n,
                     const Quant& x, int fy, int fx, double y_scale, int32_t y_zp, double lo,
                     double hi) {
    if (x.view != View::kNchw) fail(n, "it resizes a tensor that is not NCHW");
    const bool requantize = std::abs(y_scale - x.scale) > 1e-6 * x.scale || y_zp != x.zp;
    gn::Layer& l = new_layer(nodes, gn::Op::kResize, x);
    l.resize_h = fy, l.resize_w = fx;
    const gn::Shape s = model_.file.network.shape_of(x.t);
    l.out = {s.h * fy, s.w * fx, s.c};
    l.act_min = requantize ? -128 : clamp_q(lo, x.scale, x.zp, true);
    l.act_max = requantize ? 127 : clamp_q(hi, x.scale, x.zp, false);
    const Quant r = finish_layer(x.scale, x.zp, View::kNchw);
    if (!requantize) return r;
    return lut_layer({node_name(n) + " (requantizing)"}, r, LutFunction::kIdentity, 0, 0, y_scale,
                     y_zp, lo, hi);
  }

  // The LUT function of an ONNX operator (Sigmoid ... Swish; QLinearSigmoid and
  // QLinearLeakyRelu are their quantized forms), its alpha and beta from its attributes.
  static std::optional<LutFunction> lut_function(const onnx::NodeProto& n, float& alpha,
                                                 float& beta) {
    static const std::map<std::string, LutFunction> kFunctions = {
        {"Sigmoid", LutFunction::kSigmoid},
        {"QLinearSigmoid", LutFunction::kSigmoid},
        {"Tanh", LutFunction::kTanh},
        {"HardSigmoid", LutFunction::kHardSigmoid},
        {"HardSwish", LutFunction::kHardSwish},
        {"LeakyRelu", LutFunction::kLeakyRelu},
        {"QLinearLeakyRelu", LutFunction::kLeakyRelu},
        {"Elu", LutFunction::kElu},
        {"Swish", LutFunction::kSilu}};
    const auto it = kFunctions.find(n.op_type());
    if (it == kFunctions.end()) return std::nullopt;
    alpha = static_cast<float>(float_attr(n, "alpha").value_or(default_alpha(it->second)));
    beta = static_cast<float>(float_attr(n, "beta").value_or(default_beta(it->second)));
    return it->second;
  }

  // A float op of node n over dequantized input x, waiting for the QuantizeLinear that gives
  // its output (the op's own fields are the caller's).
  static Value pending(const onnx::NodeProto& n, Pending::Op op, const Quant& x) {
    Value p;
    p.kind = Value::kPending;
    p.p.op = op;
    p.p.node = &n;
    p.p.x = x;
    p.p.nodes = {node_name(n)};
    return p;
  }

  // Relu's and Clip's float bounds.
  std::pair<double, double> bounds(const onnx::NodeProto& n) {
    if (n.op_type() == "Relu") return {0.0, kInf};
    double lo = -kInf, hi = kInf;
    if (const auto v = float_attr(n, "min")) lo = *v;
    if (const auto v = float_attr(n, "max")) hi = *v;
    if (n.input_size() > 1 && !n.input(1).empty()) lo = scalar_of(n, 1, "min");
    if (n.input_size() > 2 && !n.input(2).empty()) hi = scalar_of(n, 2, "max");
    return {lo, hi};
  }

  // A quantized activation (Quant) for input i: a QOperator input.
  Quant quant_in(const onnx::NodeProto& n, int i) {
    const Value& v = in(n, i);
    if (v.kind != Value::kQuant) {
      fail(n, fmt::format("its input {} is not a quantized tensor", n.input(i)));
    }
    return v.q;
  }
  // A dequantized activation for input i: a QDQ input.
  Quant deq_in(const onnx::NodeProto& n, int i) {
    const Value& v = in(n, i);
    if (v.kind != Value::kDeq) {
      fail(n, fmt::format("its input {} is not the DequantizeLinear of a quantized activation "
                          "(float layers in the middle of the network are not mapped)",
                          n.input(i)));
    }
    return v.q;
  }
  // Integer weights of a QOperator node (inputs w, scale, zero point).
  void q_weights(const onnx::NodeProto& n, int w, int s, int z, Data& data,
                 std::vector<double>& scales, std::vector<int64_t>& zps) {
    data = data_of(init_of(n, w, "weights"), n);
    scales = data_of(init_of(n, s, "weight scale"), n).v;
    zps.clear();
    if (n.input_size() > z && !n.input(z).empty()) {
      for (const double v : data_of(init_of(n, z, "weight zero point"), n).v) {
        zps.push_back(static_cast<int64_t>(v));
      }
    }
  }

  // ---------------------------------------------------------------------------- nodes
  void node(const onnx::NodeProto& n) {
    const std::string& op = n.op_type();
    if (n.output_size() < 1 || n.output(0).empty()) fail(n, "it has no output");
    // Every name is defined once, before it is read (ONNX's static single assignment; ONNX
    // Runtime refuses a model that breaks it), whether or not npugen reads the input.
    for (const std::string& name : n.input()) {
      if (!name.empty() && !defined_.contains(name)) {
        fail(n, fmt::format("its input {} is not an initializer, the graph's input or an "
                            "earlier node's output",
                            name));
      }
    }
    const auto known = known_attributes().find(op);
    for (int i = 0; i < n.attribute_size(); ++i) {
      if (known != known_attributes().end() && !known->second.contains(n.attribute(i).name())) {
        fail(n, fmt::format("it has an attribute {} that {} does not define", n.attribute(i).name(),
                            op));
      }
      for (int j = 0; j < i; ++j) {
        if (n.attribute(i).name() == n.attribute(j).name()) {
          fail(n, fmt::format("its attribute {} is given twice", n.attribute(i).name()));
        }
      }
    }
    for (const std::string& name : n.output()) {
      if (name.empty()) continue;
      const auto [it, fresh] = defined_.try_emplace(name, node_name(n));
      if (!fresh) {
        fail(n, fmt::format("its output {} is already defined (by {})", name,
                            it->second == node_name(n) ? "this node" : it->second));
      }
    }
    if (!n.domain().empty() && n.domain() != "ai.onnx" && n.domain() != "com.microsoft") {
      fail(n, fmt::format("its domain {} is not mapped", n.domain()));
    }
    ops_.insert(op);
    // com.microsoft's QLinear operators may read NHWC (channels_last 1): npugen maps NCHW.
    if (int_attr(n, "channels_last").value_or(0) != 0) fail(n, "channels_last 1 is not mapped");
    if (op == "QuantizeLinear") {
      quantize_linear(n);
    } else if (op == "DequantizeLinear") {
      dequantize_linear(n);
    } else if (op == "Identity") {
      set(n, in(n, 0));
    } else if (op == "QLinearConv") {
      const Quant x = quant_in(n, 0);
      Data w;
      std::vector<double> ws;
      std::vector<int64_t> wz;
      same_input_q(n, x, 1, 2);
      q_weights(n, 3, 4, 5, w, ws, wz);
      bool u8 = false;
      const auto [ys, yz] = activation_q(n, 6, 7, &u8);
      std::optional<Data> b;
      if (n.input_size() > 8 && !n.input(8).empty()) b = data_of(init_of(n, 8, "bias"), n);
      const gn::Shape s = model_.file.network.shape_of(x.t);
      if (x.view != View::kNchw) fail(n, "it convolves a tensor that is not NCHW");
      const PoolWindow win =
          window(n, s.h, s.w, static_cast<int>(w.dims.size() == 4 ? w.dims[2] : 0),
                 static_cast<int>(w.dims.size() == 4 ? w.dims[3] : 0));
      set(n, typed(neural({node_name(n)}, n, false, x, w, ws, wz, b ? &*b : nullptr, false, ys, yz,
                          -kInf, kInf, false, &win),
                   u8));
    } else if (op == "QLinearMatMul" || op == "QGemm") {
      const bool gemm = op == "QGemm";
      const Quant x = quant_in(n, 0);
      Data w;
      std::vector<double> ws;
      std::vector<int64_t> wz;
      same_input_q(n, x, 1, 2);
      q_weights(n, 3, 4, 5, w, ws, wz);
      std::optional<Data> b;
      double ys = 0;
      int32_t yz = 0;
      bool u8 = false;
      if (gemm) {
        if (int_attr(n, "transA").value_or(0) != 0) fail(n, "transA 1 is not mapped");
        if (float_attr(n, "alpha").value_or(1.0) != 1.0) fail(n, "alpha other than 1");
        if (n.input_size() > 6 && !n.input(6).empty()) b = data_of(init_of(n, 6, "bias"), n);
        if (n.input_size() < 8 || n.input(7).empty()) {
          fail(n, "its output is float (no y_scale); npugen runs int8 layers");
        }
        std::tie(ys, yz) = activation_q(n, 7, 8, &u8);
      } else {
        std::tie(ys, yz) = activation_q(n, 6, 7, &u8);
      }
      const bool transpose = gemm ? int_attr(n, "transB").value_or(0) == 0 : true;
      set(n, typed(neural({node_name(n)}, n, true, x, w, ws, wz, b ? &*b : nullptr, false, ys, yz,
                          -kInf, kInf, transpose, nullptr),
                   u8));
    } else if (op == "ConvInteger" || op == "MatMulInteger") {
      // int32 results: requantized with multiplier 1 to int8 (exact while they fit int8).
      const Quant x = quant_in(n, 0);
      if (n.input_size() > 2 && !n.input(2).empty()) {
        const Data z = data_of(init_of(n, 2, "input zero point"), n);
        if (z.v.size() != 1 || static_cast<int32_t>(z.v[0]) - (z.is_uint8() ? 128 : 0) != x.zp) {
          fail(n, "its input zero point is not the quantized input's");
        }
      } else if (x.zp != (x.uint8 ? -128 : 0)) {
        fail(n, "its input has a zero point the node does not subtract");
      }
      const Data w = data_of(init_of(n, 1, "weights"), n);
      std::vector<int64_t> wz;
      if (n.input_size() > 3 && !n.input(3).empty()) {
        for (const double v : data_of(init_of(n, 3, "weight zero point"), n).v) {
          wz.push_back(static_cast<int64_t>(v));
        }
      }
      const bool conv = op == "ConvInteger";
      std::optional<PoolWindow> win;
      if (conv) {
        if (x.view != View::kNchw) fail(n, "it convolves a tensor that is not NCHW");
        const gn::Shape s = model_.file.network.shape_of(x.t);
        win = window(n, s.h, s.w, static_cast<int>(w.dims.size() == 4 ? w.dims[2] : 0),
                     static_cast<int>(w.dims.size() == 4 ? w.dims[3] : 0));
      }
      int32_output_ = true;
      set(n, quant_value(neural({node_name(n)}, n, !conv, x, w, {1.0}, wz, nullptr, false, x.scale,
                                0, -kInf, kInf, !conv, win ? &*win : nullptr)));
    } else if (op == "QLinearAdd") {
      const Quant a = quant_in(n, 0);
      const Quant b = quant_in(n, 3);
      same_input_q(n, a, 1, 2);
      same_input_q(n, b, 4, 5);
      bool u8 = false;
      const auto [ys, yz] = activation_q(n, 6, 7, &u8);
      set(n, typed(add({node_name(n)}, n, a, b, ys, yz, -kInf, kInf), u8));
    } else if (op == "QLinearAveragePool" || op == "QLinearGlobalAveragePool") {
      const Quant x = quant_in(n, 0);
      const gn::Shape s = model_.file.network.shape_of(x.t);
      const PoolWindow win = op == "QLinearGlobalAveragePool"
                                 ? PoolWindow{s.h, s.w, 1, 1, 0, 0, 0, 0}
                                 : window(n, s.h, s.w);
      same_input_q(n, x, 1, 2);
      bool u8 = false;
      const auto [ys, yz] = activation_q(n, 3, 4, &u8);
      set(n, typed(op == "QLinearGlobalAveragePool"
                       ? global_average({node_name(n)}, n, x, ys, yz, -kInf, kInf)
                       : pool({node_name(n)}, n, false, x, win, ys, yz, -kInf, kInf),
                   u8));
    } else if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" ||
               op == "GlobalMaxPool") {
      const Value& v = in(n, 0);
      const bool max = op == "MaxPool" || op == "GlobalMaxPool";
      if (n.output_size() > 1 && !n.output(1).empty()) fail(n, "its indices output is not mapped");
      Quant x = v.kind == Value::kQuant ? v.q : deq_in(n, 0);
      const gn::Shape s = model_.file.network.shape_of(x.t);
      const PoolWindow win =
          op.rfind("Global", 0) == 0 ? PoolWindow{s.h, s.w, 1, 1, 0, 0, 0, 0} : window(n, s.h, s.w);
      if (v.kind == Value::kQuant) {  // QOperator: int8 pooling, the input's quantization
        set(n, typed(op == "GlobalAveragePool"
                         ? global_average({node_name(n)}, n, x, x.scale, x.zp, -kInf, kInf)
                         : pool({node_name(n)}, n, max, x, win, x.scale, x.zp, -kInf, kInf),
                     x.uint8));
      } else {
        Value p = pending(n, max ? Pending::kMaxPool : Pending::kAvgPool, x);
        p.p.win = win;
        p.p.global = op == "GlobalAveragePool";
        set(n, p);
      }
    } else if (op == "Conv" || op == "Gemm" || op == "MatMul") {
      qdq_neural(n);
    } else if (op == "Add") {
      qdq_add(n);
    } else if (op == "Relu" || op == "Clip") {
      const Value& v = in(n, 0);
      const auto [lo, hi] = bounds(n);
      if (v.kind == Value::kQuant) {
        set(n, typed(clamp_layer(n, v.q, lo, hi), v.q.uint8));
      } else if (v.kind == Value::kPending) {
        Value p = v;
        p.p.lo = std::max(p.p.lo, lo), p.p.hi = std::min(p.p.hi, hi);
        p.p.nodes.push_back(node_name(n));
        set(n, p);
      } else if (v.kind == Value::kDeq) {
        Value p = pending(n, Pending::kActivation, v.q);
        p.p.lo = lo, p.p.hi = hi;
        set(n, p);
      } else {
        fail(n, "it clamps a float tensor that is not quantized");
      }
    } else if (float alpha = 0, beta = 0; const auto f = lut_function(n, alpha, beta)) {
      if (op == "QLinearSigmoid" || op == "QLinearLeakyRelu") {
        const Quant x = quant_in(n, 0);
        same_input_q(n, x, 1, 2);
        bool u8 = false;
        const auto [ys, yz] = activation_q(n, 3, 4, &u8);
        set(n, typed(lut_layer({node_name(n)}, x, *f, alpha, beta, ys, yz, -kInf, kInf), u8));
      } else {
        // DequantizeLinear -> f -> QuantizeLinear: pending until the QuantizeLinear.
        Value p = pending(n, Pending::kLut, deq_in(n, 0));
        p.p.function = *f;
        p.p.alpha = alpha, p.p.beta = beta;
        set(n, p);
      }
    } else if (op == "Resize") {
      const Value& v = in(n, 0);
      if (v.kind != Value::kQuant && v.kind != Value::kDeq) {
        fail(n, "it resizes a tensor that is not quantized");
      }
      const auto [fy, fx] = resize_factors(n, model_.file.network.shape_of(v.q.t));
      if (v.kind == Value::kQuant) {  // on int8 (QOperator): the same quantization
        set(n, typed(resize_layer({node_name(n)}, n, v.q, fy, fx, v.q.scale, v.q.zp, -kInf, kInf),
                     v.q.uint8));
      } else {
        Value p = pending(n, Pending::kResize, v.q);
        p.p.resize_h = fy, p.p.resize_w = fx;
        set(n, p);
      }
    } else if (op == "QLinearConcat") {
      // Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) an input.
      if (n.input_size() < 5 || (n.input_size() - 2) % 3 != 0) {
        fail(n, fmt::format("it has {} inputs, not 2 + 3 an input", n.input_size()));
      }
      std::vector<Quant> parts;
      for (int k = 2; k + 2 < n.input_size(); k += 3) {
        parts.push_back(quant_in(n, k));
        same_input_q(n, parts.back(), k + 1, k + 2);
      }
      bool u8 = false;
      const auto [ys, yz] = activation_q(n, 0, 1, &u8);
      set(n, typed(concat({node_name(n)}, n, parts, ys, yz, -kInf, kInf), u8));
    } else if (op == "Concat") {
      // Between DequantizeLinear and QuantizeLinear: pending until the QuantizeLinear.
      if (n.input_size() == 0) fail(n, "it has no input");
      Value p = pending(n, Pending::kConcat, deq_in(n, 0));
      for (int k = 0; k < n.input_size(); ++k) p.p.parts.push_back(deq_in(n, k));
      set(n, p);
    } else if (op == "Flatten" || op == "Reshape") {
      reshape(n);
    } else if (op == "Transpose") {
      transpose(n);
    } else {
      fail(n, "this operator is not mapped onto the NPU (docs/onnx.md lists the operators)");
    }
  }

  void quantize_linear(const onnx::NodeProto& n) {
    if (int_attr(n, "block_size").value_or(0) != 0) fail(n, "block quantization is not mapped");
    const Value& v = in(n, 0);
    // Its output's type: its zero point's, else output_dtype's, else uint8 (ONNX's default).
    const int64_t dtype = int_attr(n, "output_dtype").value_or(0);
    if (dtype != 0 && dtype != onnx::TensorProto::INT8 && dtype != onnx::TensorProto::UINT8) {
      fail(n, fmt::format("its output_dtype is ONNX data type {}, not int8 or uint8 (npugen runs "
                          "int8 activations)",
                          dtype));
    }
    if (const int64_t precision = int_attr(n, "precision").value_or(0);
        precision != 0 && precision != onnx::TensorProto::FLOAT) {
      fail(n, fmt::format("its precision (ONNX data type {}) is not float", precision));
    }
    bool u8 = false;
    const auto [s, z] = activation_q(n, 1, 2, &u8, dtype != onnx::TensorProto::INT8);
    if (dtype != 0 && u8 != (dtype == onnx::TensorProto::UINT8)) {
      fail(n, "its output_dtype is not its zero point's type");
    }
    if (v.kind == Value::kFloatInput) {
      NetworkFile& f = model_.file;
      if (!f.network.layers.empty() || quantized_input_) {
        fail(n, "it quantizes the network's input a second time");
      }
      quantized_input_ = true;
      const std::vector<int64_t>& d = model_.input.dims;
      const bool nchw = v.input_view == View::kNchw;
      f.network.input =
          d.size() == 2   ? gn::Shape{1, 1, static_cast<int>(d[1])}
          : d.size() == 3 ? gn::Shape{1, static_cast<int>(d[2]), static_cast<int>(d[1])}
          : nchw
              ? gn::Shape{static_cast<int>(d[2]), static_cast<int>(d[3]), static_cast<int>(d[1])}
              : gn::Shape{static_cast<int>(d[1]), static_cast<int>(d[2]), static_cast<int>(d[3])};
      f.network.input_zero_point = z;
      f.zero_point = {z};
      model_.input.scale = s;
      model_.input.zero_point = z + (u8 ? 128 : 0);
      model_.input.uint8 = u8;
      model_.input.nchw = nchw;
      set(n, typed(Quant{0, s, z, v.input_view}, u8));
      return;
    }
    if (v.kind == Value::kDeq) {  // a requantization: only the identity
      if (std::abs(v.q.scale - s) > 1e-6 * s || v.q.zp != z) {
        fail(n, "it requantizes a tensor to another scale or zero point (not mapped)");
      }
      set(n, typed(v.q, u8));
      return;
    }
    if (v.kind != Value::kPending) fail(n, "it quantizes a float tensor npugen cannot compute");
    const Pending& p = v.p;
    std::vector<std::string> nodes = p.nodes;
    nodes.push_back(node_name(n));
    switch (p.op) {
      case Pending::kConv:
      case Pending::kFc: {
        set(n, typed(neural(nodes, *p.node, p.op == Pending::kFc, p.x, *p.w, p.w_scales, p.w_zps,
                            p.b.get(), p.b_float, s, z, p.lo, p.hi, p.transpose_w,
                            p.op == Pending::kConv ? &p.win : nullptr),
                     u8));
        break;
      }
      case Pending::kMaxPool:
      case Pending::kAvgPool:
        set(n, typed(p.global ? global_average(nodes, *p.node, p.x, s, z, p.lo, p.hi)
                              : pool(nodes, *p.node, p.op == Pending::kMaxPool, p.x, p.win, s, z,
                                     p.lo, p.hi),
                     u8));
        break;
      case Pending::kAdd:
        set(n, typed(add(nodes, *p.node, p.x, p.y, s, z, p.lo, p.hi), u8));
        break;
      case Pending::kLut:
        set(n, typed(lut_layer(nodes, p.x, p.function, p.alpha, p.beta, s, z, p.lo, p.hi), u8));
        break;
      case Pending::kConcat:
        set(n, typed(concat(nodes, *p.node, p.parts, s, z, p.lo, p.hi), u8));
        break;
      case Pending::kResize:
        set(n,
            typed(resize_layer(nodes, *p.node, p.x, p.resize_h, p.resize_w, s, z, p.lo, p.hi), u8));
        break;
      case Pending::kActivation: {
        if (std::abs(p.x.scale - s) > 1e-6 * s || p.x.zp != z) {
          fail(*p.node, "its output's quantization differs from its input's (not mapped)");
        }
        set(n, typed(clamp_layer(*p.node, p.x, p.lo, p.hi), u8));
        break;
      }
    }
  }

  void dequantize_linear(const onnx::NodeProto& n) {
    if (int_attr(n, "block_size").value_or(0) != 0) fail(n, "block quantization is not mapped");
    if (const int64_t dtype = int_attr(n, "output_dtype").value_or(0);
        dtype != 0 && dtype != onnx::TensorProto::FLOAT) {
      fail(n, fmt::format("its output_dtype (ONNX data type {}) is not float", dtype));
    }
    const Value& v = in(n, 0);
    if (v.kind == Value::kQuant) {
      bool u8 = false;
      const auto [s, z] = activation_q(n, 1, 2, &u8, v.q.uint8);
      dequantized_uint8_[n.output(0)] = u8;
      if (std::abs(v.q.scale - s) > 1e-6 * s || v.q.zp != z || u8 != v.q.uint8) {
        fail(n, "it dequantizes with another scale or zero point than the tensor has");
      }
      Value d = v;
      d.kind = Value::kDeq;
      set(n, d);
      return;
    }
    if (v.kind != Value::kInit) fail(n, "it dequantizes something other than a quantized tensor");
    Value d;
    d.kind = Value::kDeqConst;
    d.data = std::make_shared<Data>(data_of(*v.init, n));
    d.scales = data_of(init_of(n, 1, "scale"), n).v;
    if (n.input_size() > 2 && !n.input(2).empty()) {
      for (const double z : data_of(init_of(n, 2, "zero point"), n).v) {
        d.zps.push_back(static_cast<int64_t>(z));
      }
    }
    d.axis = int_attr(n, "axis").value_or(1);
    if (d.axis < 0) d.axis += static_cast<int64_t>(d.data->dims.size());
    set(n, d);
  }

  // Conv, Gemm, MatMul over a dequantized activation and dequantized weights (QDQ).
  void qdq_neural(const onnx::NodeProto& n) {
    const std::string& op = n.op_type();
    Value p;
    p.kind = Value::kPending;
    Pending& q = p.p;
    q.node = &n;
    q.nodes = {node_name(n)};
    q.x = deq_in(n, 0);
    const Value& w = in(n, 1);
    if (w.kind != Value::kDeqConst) {
      fail(n,
           "its weights are not the DequantizeLinear of int8 constants (float weights are not "
           "mapped: quantize the model)");
    }
    q.w = w.data, q.w_scales = w.scales, q.w_zps = w.zps;
    // Per-channel weight scales run along the output channels: a Conv's and a transposed
    // Gemm's axis 0 ([K][C...]), a MatMul's and an untransposed Gemm's axis 1 ([IN][K]).
    const bool untransposed =
        op == "MatMul" || (op == "Gemm" && int_attr(n, "transB").value_or(0) == 0);
    const int64_t out_axis = untransposed ? 1 : 0;
    if (w.scales.size() > 1 && w.data->dims.size() > 1 && w.axis != out_axis) {
      fail(n, fmt::format("its weights' per-channel scales are along axis {}, not axis {} (its "
                          "output channels{})",
                          w.axis, out_axis, untransposed ? ": [inputs][outputs]" : ""));
    }
    if (n.input_size() > 2 && !n.input(2).empty()) {
      const Value& b = in(n, 2);
      if (b.kind == Value::kDeqConst) {
        if (b.data->type != onnx::TensorProto::INT32) fail(n, "its bias is not int32");
        // The bias's scale must be the input's times the weights': its integers are used.
        q.b = b.data;
      } else if (b.kind == Value::kInit) {
        q.b = std::make_shared<Data>(data_of(*b.init, n));
        q.b_float = true;
      } else {
        fail(n, "its bias is not a constant");
      }
    }
    if (op == "Conv") {
      q.op = Pending::kConv;
      if (q.x.view != View::kNchw) fail(n, "it convolves a tensor that is not NCHW");
      const gn::Shape s = model_.file.network.shape_of(q.x.t);
      const Data& wd = *q.w;
      q.win = window(n, s.h, s.w, static_cast<int>(wd.dims.size() == 4 ? wd.dims[2] : 0),
                     static_cast<int>(wd.dims.size() == 4 ? wd.dims[3] : 0));
    } else {
      q.op = Pending::kFc;
      if (op == "Gemm") {
        if (int_attr(n, "transA").value_or(0) != 0) fail(n, "transA 1 is not mapped");
        if (float_attr(n, "alpha").value_or(1.0) != 1.0 ||
            float_attr(n, "beta").value_or(1.0) != 1.0) {
          fail(n, "alpha or beta other than 1 is not mapped");
        }
        q.transpose_w = int_attr(n, "transB").value_or(0) == 0;
      } else {
        q.transpose_w = true;  // MatMul: [IN][K]
      }
    }
    set(n, p);
  }

  // Add (QDQ): two dequantized activations, or a pending fc and a constant bias.
  void qdq_add(const onnx::NodeProto& n) {
    const Value& a = in(n, 0);
    const Value& b = in(n, 1);
    if (a.kind == Value::kDeq && b.kind == Value::kDeq) {
      Value p = pending(n, Pending::kAdd, a.q);
      p.p.y = b.q;
      set(n, p);
      return;
    }
    const Value* fc = a.kind == Value::kPending ? &a : &b;
    const Value* bias = fc == &a ? &b : &a;
    if (fc->kind == Value::kPending && fc->p.op == Pending::kFc && !fc->p.b &&
        (bias->kind == Value::kDeqConst || bias->kind == Value::kInit)) {
      Value p = *fc;
      if (bias->kind == Value::kDeqConst) {
        if (bias->data->type != onnx::TensorProto::INT32) fail(n, "its bias is not int32");
        p.p.b = bias->data;
      } else {
        p.p.b = std::make_shared<Data>(data_of(*bias->init, n));
        p.p.b_float = true;
      }
      p.p.nodes.push_back(node_name(n));
      set(n, p);
      return;
    }
    fail(n, "it adds something other than two quantized activations or a MatMul's bias");
  }

  void reshape(const onnx::NodeProto& n) {
    const Value& v = in(n, 0);
    if (v.kind != Value::kQuant && v.kind != Value::kDeq) {
      fail(n, "it reshapes a tensor that is not quantized");
    }
    const gn::Shape s = model_.file.network.shape_of(v.q.t);
    if (n.op_type() == "Flatten") {
      if (int_attr(n, "axis").value_or(1) != 1) fail(n, "axis other than 1 is not mapped");
    } else {
      const Data shape = data_of(init_of(n, 1, "shape"), n);
      if (int_attr(n, "allowzero").value_or(0) != 0 &&
          std::find(shape.v.begin(), shape.v.end(), 0.0) != shape.v.end()) {
        fail(n, "it reshapes to a dimension of 0 (allowzero 1)");
      }
      const auto elements = static_cast<double>(s.elements());
      const bool flat = shape.v.size() == 2 && (shape.v[1] == -1 || shape.v[1] == elements) &&
                        (shape.v[0] == 0 || shape.v[0] == -1 || shape.v[1] == elements);
      if (!flat) fail(n, "it reshapes to something other than [N][features] (not mapped)");
    }
    Value out = v;
    out.q.view =
        v.q.view == View::kNhwc || v.q.view == View::kFlatHwc ? View::kFlatHwc : View::kFlatChw;
    set(n, out);
  }

  void transpose(const onnx::NodeProto& n) {
    const Value& v = in(n, 0);
    const auto perm = ints(n, "perm");
    const bool to_nhwc = perm == std::vector<int64_t>{0, 2, 3, 1};
    const bool to_nchw = perm == std::vector<int64_t>{0, 3, 1, 2};
    Value out = v;
    View& view = v.kind == Value::kFloatInput ? out.input_view : out.q.view;
    const View from = view;
    if (v.kind != Value::kQuant && v.kind != Value::kDeq && v.kind != Value::kFloatInput) {
      fail(n, "it transposes a tensor that is not an activation");
    }
    if (to_nhwc && from == View::kNchw) {
      view = View::kNhwc;
    } else if (to_nchw && from == View::kNhwc) {
      view = View::kNchw;
    } else if (v.kind == Value::kFloatInput && to_nchw && from == View::kNchw) {
      view = View::kNchw;  // an NHWC graph input turned NCHW: its dims are NHWC
      out.input_view = View::kNchw;
      std::vector<int64_t>& d = model_.input.dims;
      if (d.size() == 4) d = {d[0], d[3], d[1], d[2]};
      model_.input.nchw = false;
    } else {
      fail(n, "it is not a transpose between NCHW and NHWC");
    }
    set(n, out);
  }

  const onnx::ModelProto& m_;
  OnnxModel model_;
  std::map<std::string, Value> values_;
  std::map<std::string, int> consumers_;
  std::map<std::string, std::string> defined_;  ///< every name defined so far, and by what
  std::set<std::string> ops_;
  std::map<std::string, bool> dequantized_uint8_;  ///< a DequantizeLinear's output: of uint8
  bool quantized_input_ = false;
  bool int32_output_ = false;                    ///< ConvInteger, MatMulInteger: int32 in the model
  bool rank3_ = false;                           ///< the graph input is [N][C][L]
  int g_outputs_ = 1;                            ///< the graph's outputs
  std::map<std::string, size_t> output_tensor_;  ///< a graph output's network tensor
};

}  // namespace

OnnxResult read_onnx_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    OnnxResult r;
    config::report(r.diagnostics, config::Diagnostic{file.string(), 0, 0, "", "no such file"});
    return r;
  }
  std::ifstream in(file, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  if (!in) {
    OnnxResult r;
    config::report(r.diagnostics, config::Diagnostic{file.string(), 0, 0, "", "cannot be read"});
    return r;
  }
  return read_onnx_bytes(bytes.str(), file.string());
}

OnnxResult read_onnx_bytes(const std::string& bytes, const std::string& display_name) {
  OnnxResult r;
  auto error = [&](const std::string& where, const std::string& what) {
    config::Diagnostic d;
    d.file = display_name;
    d.message = where.empty() ? what : where + ": " + what;
    config::report(r.diagnostics, d);
    return r;
  };
  onnx::ModelProto m;
  if (!m.ParseFromString(bytes)) {
    return error("", "is not an ONNX model (the protobuf does not parse: corrupt or truncated)");
  }
  if (!m.has_graph() || m.graph().node_size() == 0) return error("", "the model has no graph");
  try {
    r.model = Importer(m).run();
  } catch (const Failure& f) {
    return error(f.where, f.message);
  }
  return r;
}

}  // namespace npugen::net
