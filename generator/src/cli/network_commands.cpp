// npugen compile and npugen run (docs/npu.md): a network file compiled for a
// design's NPU top, and run on its verilated model against the golden model and the plain
// reference network interpreter, layer by layer.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "blocks/npu/npu.hpp"
#include "cli/commands.hpp"
#include "cli/sim_setup.hpp"
#include "emit/design_emitter.hpp"
#include "explore/network_cost.hpp"
#include "net/network_file.hpp"
#include "net/onnx_reader.hpp"
#include "npugen/compiler/compile.hpp"
#include "npugen/golden/network/reference.hpp"
#include "npugen/golden/npu/program.hpp"
#include "npugen/golden/npu/run_file.hpp"
#include "npugen/golden/tasks/list.hpp"
#include "util/npy.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {
namespace {

constexpr const char* kRunMarker = ".npugen-run";
constexpr const char* kCompileMarker = ".npugen-compile";
constexpr const char* kReferenceMarker = ".npugen-reference";

const blocks::npu::Design& npu_of(const elab::Design& design, const std::string& config) {
  const auto* b = design.find("npu");
  if (b == nullptr) {
    throw CommandError(kBadInput, fmt::format("{}: the design does not generate the NPU top "
                                              "(set npu.enabled; docs/npu.md)",
                                              config));
  }
  return static_cast<const blocks::npu::Design&>(*b);
}

// An ONNX model read for compile and run: its network and its edges' quantization.
std::optional<net::OnnxModel> g_onnx;

net::NetworkFile read_onnx(const std::string& file) {
  net::OnnxResult r = net::read_onnx_file(file);
  if (!r.model) refuse(r.diagnostics, file);
  g_onnx = std::move(r.model);
  return g_onnx->file;
}

net::NetworkFile read_network(const std::string& file) {
  net::NetworkResult r = net::read_network_file(file);
  if (!r.file) refuse(r.diagnostics, file);
  if (!r.file->network.has_arithmetic) {
    throw CommandError(kBadInput,
                       fmt::format("{}: the network has no weights (a shape-only network "
                                   "is for npugen schedule; give each conv and fc layer its "
                                   "weights, bias and output quantization)",
                                   file));
  }
  return std::move(*r.file);
}

// The zero weights of a [K][taps] weight matrix in a grid of at most 16 x 32 cells (filters
// down, taps across), each the zero fraction of its block: the zero-skipping array's
// opportunity, as the HTML report draws it.
struct SparsityMap {
  size_t rows = 0, cols = 0;
  std::vector<double> values;
  double zero_fraction = 0;
};
SparsityMap sparsity_map(const std::vector<int8_t>& w, size_t filters) {
  SparsityMap m;
  const size_t taps = w.size() / filters;
  m.rows = std::min<size_t>(16, filters);
  m.cols = std::min<size_t>(32, std::max<size_t>(1, taps));
  std::vector<size_t> zeros(m.rows * m.cols, 0), all(m.rows * m.cols, 0);
  size_t total = 0;
  for (size_t k = 0; k < filters; ++k) {
    for (size_t t = 0; t < taps; ++t) {
      const size_t cell = k * m.rows / filters * m.cols + t * m.cols / taps;
      const bool zero = w[k * taps + t] == 0;
      zeros[cell] += zero, ++all[cell], total += zero;
    }
  }
  for (size_t c = 0; c < zeros.size(); ++c)
    m.values.push_back(all[c] ? static_cast<double>(zeros[c]) / static_cast<double>(all[c]) : 0);
  m.zero_fraction = w.empty() ? 0 : static_cast<double>(total) / static_cast<double>(w.size());
  return m;
}

golden::Sequencing sequencing_of(const std::string& name) {
  return name == "host" ? golden::Sequencing::kHost : golden::Sequencing::kTasks;
}

golden::Program compile(const golden::NpuDesign& d, const net::NetworkFile& f,
                        const std::string& file, int batch, const compiler::CompileOptions& how) {
  try {
    return compiler::compile_network(d, f.network, batch, how);
  } catch (const compiler::CompileError& e) {
    const bool layer = e.layer >= 0 && static_cast<size_t>(e.layer) < f.network.layers.size();
    if (g_onnx) {  // an ONNX model has no lines: the layer's nodes
      const std::string nodes =
          layer ? fmt::format("{}: ",
                              fmt::join(g_onnx->layers[static_cast<size_t>(e.layer)].nodes, ", "))
                : "";
      std::fprintf(stderr, "%s: error: %s%s\n", file.c_str(), nodes.c_str(), e.what());
    } else {
      const int line = layer ? f.network.layers[static_cast<size_t>(e.layer)].line : f.input_line;
      std::fprintf(stderr, "%s:%d: error: %s\n", file.c_str(), line, e.what());
    }
    throw CommandError(kBadInput, "");
  }
}

// The network of --network or --onnx (exactly one).
std::string source_of(const std::string& network, const std::string& onnx) {
  if (network.empty() == onnx.empty()) {
    throw CommandError(kBadInput, "give the network as --network NET.yaml or --onnx MODEL.onnx");
  }
  return network.empty() ? onnx : network;
}
net::NetworkFile read_source(const std::string& network, const std::string& onnx) {
  return onnx.empty() ? read_network(source_of(network, onnx))
                      : read_onnx(source_of(network, onnx));
}

// With --onnx: the model's float input (its graph shape, NCHW or NHWC as the graph has it),
// quantized as its QuantizeLinear does (round half to even, the zero point, saturation) and
// laid out int8 NHWC.
golden::reference::Tensor onnx_input(const std::string& file, const util::NpyArray& a,
                                     const golden::net::Network& n) {
  const net::OnnxEdge& e = g_onnx->input;
  std::vector<size_t> want(e.dims.begin(), e.dims.end());
  bool ok = a.floating && a.dtype.size() == 3 && a.dtype[2] == '4' &&
            a.shape.size() == want.size() && !a.shape.empty() && a.shape[0] >= 1;
  for (size_t i = 1; ok && i < want.size(); ++i) ok = a.shape[i] == want[i];
  if (!ok) {
    std::string shape, model;
    for (size_t v : a.shape) shape += fmt::format("[{}]", v);
    for (size_t i = 0; i < want.size(); ++i) model += i == 0 ? "[N]" : fmt::format("[{}]", want[i]);
    throw CommandError(kBadInput, fmt::format("{}: expected float32 {} (the ONNX model's input "
                                              "{}) or int8 [N][{}][{}][{}], got {} {}",
                                              file, model, e.name, n.input.h, n.input.w, n.input.c,
                                              a.dtype, shape));
  }
  golden::reference::Tensor t;
  t.n = static_cast<int>(a.shape[0]);
  t.h = n.input.h, t.w = n.input.w, t.c = n.input.c;
  t.data.resize(a.reals.size());
  const double lo = e.uint8 ? 0 : -128, hi = e.uint8 ? 255 : 127;
  for (int img = 0; img < t.n; ++img) {
    for (int y = 0; y < t.h; ++y) {
      for (int x = 0; x < t.w; ++x) {
        for (int ch = 0; ch < t.c; ++ch) {
          const size_t from = want.size() == 2 || !e.nchw
                                  ? ((static_cast<size_t>(img) * t.h + y) * t.w + x) * t.c + ch
                                  : ((static_cast<size_t>(img) * t.c + ch) * t.h + y) * t.w + x;
          const double q =
              std::clamp(std::nearbyint(static_cast<double>(static_cast<float>(a.reals[from]) /
                                                            static_cast<float>(e.scale))) +
                             e.zero_point,
                         lo, hi);
          t.data[((static_cast<size_t>(img) * t.h + y) * t.w + x) * t.c + ch] =
              static_cast<int8_t>(q - (e.uint8 ? 128 : 0));
        }
      }
    }
  }
  return t;
}

// The input .npy: int8 [N][H][W][C] of the network's input shape (with --onnx also the
// model's float input).
golden::reference::Tensor read_input(const std::string& file, const golden::net::Network& n) {
  util::NpyArray a;
  try {
    a = util::read_npy(file, g_onnx.has_value());
  } catch (const util::NpyError& e) {
    throw CommandError(kBadInput, fmt::format("{}: {}", file, e.what()));
  }
  if (g_onnx && !(a.dtype.size() == 3 && a.dtype[1] == 'i' && a.dtype[2] == '1')) {
    return onnx_input(file, a, n);
  }
  const bool ok =
      a.dtype.size() == 3 && a.dtype[1] == 'i' && a.dtype[2] == '1' && a.shape.size() == 4 &&
      a.shape[0] >= 1 && a.shape[1] == static_cast<size_t>(n.input.h) &&
      a.shape[2] == static_cast<size_t>(n.input.w) && a.shape[3] == static_cast<size_t>(n.input.c);
  if (!ok) {
    std::string shape;
    for (size_t s : a.shape) shape += fmt::format("[{}]", s);
    throw CommandError(kBadInput,
                       fmt::format("{}: expected int8 [N][{}][{}][{}] (the "
                                   "network's input), got {} {}",
                                   file, n.input.h, n.input.w, n.input.c, a.dtype, shape));
  }
  golden::reference::Tensor t;
  t.n = static_cast<int>(a.shape[0]);
  t.h = n.input.h;
  t.w = n.input.w;
  t.c = n.input.c;
  t.data.assign(a.values.begin(), a.values.end());
  return t;
}

// Images n0 .. n0 + n - 1 of a tensor.
golden::reference::Tensor slice(const golden::reference::Tensor& t, int n0, int n) {
  golden::reference::Tensor s = t;
  const size_t per = static_cast<size_t>(t.h) * t.w * t.c;
  s.n = n;
  s.data.assign(t.data.begin() + static_cast<std::ptrdiff_t>(per * n0),
                t.data.begin() + static_cast<std::ptrdiff_t>(per * (n0 + n)));
  return s;
}

// Appends `more`'s images to `t` (empty: becomes `more`).
void append(golden::reference::Tensor& t, const golden::reference::Tensor& more) {
  if (t.data.empty()) {
    t = more;
    return;
  }
  t.n += more.n;
  t.data.insert(t.data.end(), more.data.begin(), more.data.end());
}

std::string tensor_npy(const golden::reference::Tensor& t, bool flat) {
  std::vector<size_t> shape =
      flat ? std::vector<size_t>{static_cast<size_t>(t.n), static_cast<size_t>(t.c)}
           : std::vector<size_t>{static_cast<size_t>(t.n), static_cast<size_t>(t.h),
                                 static_cast<size_t>(t.w), static_cast<size_t>(t.c)};
  return util::npy_bytes(util::NpyType::kInt8, shape,
                         std::vector<int64_t>(t.data.begin(), t.data.end()));
}

// Which PE array runs a layer: "dense", "zero_skip" (the sequencer's zero-skipping array,
// its steps replayed for every output pixel), or null for the planar engine.
nlohmann::json array_name(const golden::ProgramLayer& l) {
  if (!l.neural) return nullptr;
  return l.zs_steps != 0 ? "zero_skip" : "dense";
}

// Where a tensor is: its buffer and base, or "memory" and the word (row bands).
nlohmann::json tensor_place(const golden::ProgramTensor& t) {
  if (t.mem) return {{"buffer", "memory"}, {"base", *t.mem}};
  return {{"buffer", t.buf == 0 ? "A" : "B"}, {"base", t.base}};
}

// The compiled network as JSON: layers, where their outputs are, the bounds.
nlohmann::json program_json(const golden::NpuDesign& d, const golden::Program& p) {
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& l : p.layers) {
    nlohmann::json out = tensor_place(l.out);
    out["words"] = l.out.words(d.lanes());
    out["shape"] = {l.out.n, l.out.h, l.out.w, l.out.c};
    layers.push_back({{"name", l.name},
                      {"op", golden::net::op_name(l.op)},
                      {"engine", l.neural ? "neural" : "planar"},
                      {"tasks", l.tasks},
                      {"output", out},
                      {"macs", l.macs},
                      {"mapping_bound", l.mapping_bound},
                      {"weight_rows", l.weight_rows},
                      {"weight_bits", l.weight_bits},
                      {"array", array_name(l)},
                      {"zs_steps_per_pixel", l.zs_steps}});
  }
  size_t host_writes = 0, apb_writes = 0;
  for (const auto& s : p.steps) {
    host_writes += s.kind == golden::ProgramStep::Kind::kHostWrite;
    apb_writes += s.kind == golden::ProgramStep::Kind::kApbWrite;
  }
  nlohmann::json descriptors = nlohmann::json::array();
  for (const uint64_t w : p.descriptors) descriptors.push_back(w);
  nlohmann::json input = tensor_place(p.input);
  input["words"] = p.input.words(d.lanes());
  input["packed"] = p.packing.on;
  input["in_memory_at"] = p.input_at ? nlohmann::json(*p.input_at) : nlohmann::json(nullptr);
  input["shape"] = {p.input.n, p.input.h, p.input.w, p.input.c};
  nlohmann::json outputs = nlohmann::json::array();
  for (const golden::ProgramOutput& o : p.outputs) {
    outputs.push_back({{"name", o.name},
                       {"layer", p.layers.at(o.layer).name},
                       {"in_memory_at", o.at ? nlohmann::json(*o.at) : nlohmann::json(nullptr)}});
  }
  return {{"lanes", p.lanes},
          {"sequencing", p.sequencing == golden::Sequencing::kTasks ? "tasks" : "host"},
          {"system_memory_words", p.memory.size()},
          {"descriptors", descriptors},
          {"input", input},
          {"layers", layers},
          {"outputs", outputs},
          {"steps", {{"host_writes", host_writes}, {"apb_writes", apb_writes}}}};
}

// The network's outputs as files: output.npy for one, output_<name>.npy for each of several
// (the name's characters outside letters, digits, '-', '_' and '.' as '_'); `tensor` gives
// tensor t (t - 1 layer's output).
template <typename Tensor>
void add_outputs(util::FileMap& files, const golden::net::Network& n, Tensor&& tensor) {
  const auto outputs = golden::net::network_outputs(n);
  for (const golden::net::NetworkOutput& o : outputs) {
    const bool flat = n.layers.at(o.tensor - 1).op == golden::net::Op::kFc;
    std::string name = o.name;
    for (char& ch : name) {
      if (std::isalnum(static_cast<unsigned char>(ch)) == 0 && ch != '-' && ch != '_' &&
          ch != '.') {
        ch = '_';
      }
    }
    std::string file = outputs.size() == 1 ? std::string("output.npy") : "output_" + name + ".npy";
    for (int k = 2; files.contains(file); ++k) file = fmt::format("output_{}_{}.npy", name, k);
    files[file] = tensor_npy(tensor(o.tensor), flat);
  }
}

struct NetOptions {
  std::string config, network, onnx, input, out, design_dir, trace, labels;
  std::string sequencing = "tasks";
  bool no_packing = false;      ///< --no-input-packing
  bool host_io = false;         ///< --host-io
  bool no_zero_skip = false;    ///< --no-zero-skip
  bool weights_by_dma = false;  ///< --weights-by-dma
  int batch = 1;
  int only_batch = 0;  ///< npugen run --batch K: only that batch (1-based); 0: all
  uint64_t seed = 1;
  uint64_t trace_from = 0;
};

void add_sequencing_option(CLI::App& cmd, NetOptions& o) {
  cmd.add_option("--sequencing", o.sequencing,
                 "tasks: descriptors in system memory (compile: memory.bin), the task unit runs "
                 "the layers; host: the host programs each layer and waits for it")
      ->check(CLI::IsMember({"tasks", "host"}))
      ->capture_default_str();
  cmd.add_flag("--no-input-packing", o.no_packing,
               "Write the input as it is, never im2col'd for a first convolution with few "
               "channels (docs/npu.md: input packing)");
  cmd.add_flag("--host-io", o.host_io,
               "With the task unit: the host writes the input into its buffer and the output "
               "stays there, instead of the DMA moving them from and to system memory");
  cmd.add_flag("--no-zero-skip", o.no_zero_skip,
               "With the zero-skipping array (zs.enabled): run every layer on the dense array "
               "(docs/sequencer.md: zero skipping)");
  cmd.add_flag("--weights-by-dma", o.weights_by_dma,
               "With the task unit: the DMA loads each layer's weights, parameters and gains "
               "from system memory just before it, instead of the host writing every layer's "
               "first (chosen anyway when they do not fit the store together; docs/npu.md)");
}

compiler::CompileOptions compile_options(const NetOptions& o) {
  compiler::CompileOptions c;
  c.sequencing = sequencing_of(o.sequencing);
  c.pack_input = !o.no_packing;
  c.dma = !o.host_io;
  c.zero_skip = !o.no_zero_skip;
  c.weights_by_dma = o.weights_by_dma;
  return c;
}

}  // namespace

void add_network_commands(CLI::App& app) {
  static NetOptions c;
  auto* compile_cmd = app.add_subcommand(
      "compile",
      "Compile a network file for a design's NPU top: tensor placement, weight and parameter "
      "images, the register writes of every layer, and a report with the expected cycles of "
      "every layer (the golden model's, on zero input).");
  compile_cmd->add_option("CONFIG", c.config, "YAML configuration (npu.enabled)")->required();
  compile_cmd->add_option("--network", c.network, "Network file (docs/network.md)")
      ->check(non_empty());
  compile_cmd
      ->add_option("--onnx", c.onnx,
                   "Quantized ONNX model, in place of --network "
                   "(docs/onnx.md)")
      ->check(non_empty());
  compile_cmd->add_option("--out", c.out, "Output folder")->check(non_empty())->required();
  compile_cmd->add_option("--batch", c.batch, "Images")
      ->check(positive_integer())
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  add_sequencing_option(*compile_cmd, c);
  compile_cmd->callback([] {
    check_output_folder("--out", c.out, kCompileMarker);
    const elab::Design design = load_design(c.config);
    const golden::NpuDesign& d = npu_of(design, c.config).design;
    const net::NetworkFile f = read_source(c.network, c.onnx);
    const golden::Program p =
        compile(d, f, source_of(c.network, c.onnx), c.batch, compile_options(c));
    golden::reference::Tensor zero;
    zero.n = c.batch;
    zero.h = f.network.input.h;
    zero.w = f.network.input.w;
    zero.c = f.network.input.c;
    zero.data.assign(static_cast<size_t>(c.batch) * f.network.input.elements(), 0);
    const golden::ProgramRun run = golden::run_program(d, p, zero);
    nlohmann::json report = program_json(d, p);
    uint64_t last = 0;
    for (size_t i = 0; i < p.layers.size(); ++i) {
      report["layers"][i]["expected_cycles"] = run.finished_at[i] - last;
      last = run.finished_at[i];
    }
    report["expected_cycles"] = run.cycles;
    util::FileMap files;
    files[kCompileMarker] = "npugen compile output\n";
    files["program.txt"] = golden::program_text(p);
    files["report.json"] = report.dump(2) + "\n";
    if (!p.memory.empty()) files["memory.bin"] = golden::image_bytes(p.memory);
    util::write_tree_atomically(c.out, files, kCompileMarker, {});
    std::printf("%s: %zu layers, %zu steps, %llu cycles expected for %d image(s); %s\n",
                source_of(c.network, c.onnx).c_str(), p.layers.size(), p.steps.size(),
                static_cast<unsigned long long>(run.cycles), c.batch, c.out.c_str());
  });

  static NetOptions f;
  auto* ref_cmd = app.add_subcommand(
      "reference",
      "Run a network file or a quantized ONNX model through the plain reference network "
      "interpreter alone (no design, no RTL): DIR/output.npy (several outputs: "
      "DIR/output_<name>.npy each) and DIR/layers/<name>.npy, int8 NHWC (fc [N][K]).");
  ref_cmd->add_option("--network", f.network, "Network file (docs/network.md)")->check(non_empty());
  ref_cmd->add_option("--onnx", f.onnx, "Quantized ONNX model (docs/onnx.md)")->check(non_empty());
  ref_cmd
      ->add_option("--input", f.input,
                   "Input images: int8 [N][H][W][C] .npy (with --onnx "
                   "also the model's float input)")
      ->check(non_empty())
      ->required();
  ref_cmd->add_option("--out", f.out, "Output folder")->check(non_empty())->required();
  ref_cmd->callback([] {
    check_output_folder("--out", f.out, kReferenceMarker);
    const net::NetworkFile nf = read_source(f.network, f.onnx);
    const golden::reference::Tensor x = read_input(f.input, nf.network);
    const auto tensors = golden::reference::run_network(nf.network, x);
    util::FileMap files;
    files[kReferenceMarker] = "npugen reference output\n";
    for (size_t i = 0; i < nf.network.layers.size(); ++i) {
      const golden::net::Layer& l = nf.network.layers[i];
      files["layers/" + l.name + ".npy"] = tensor_npy(tensors[i + 1], l.op == golden::net::Op::kFc);
    }
    add_outputs(files, nf.network,
                [&](size_t t) -> const golden::reference::Tensor& { return tensors[t]; });
    util::write_tree_atomically(f.out, files, kReferenceMarker, {});
    std::printf("%s: %zu layers, %d image(s) through the reference interpreter; %s\n",
                source_of(f.network, f.onnx).c_str(), nf.network.layers.size(), x.n, f.out.c_str());
  });

  static NetOptions r;
  auto* run_cmd = app.add_subcommand(
      "run",
      "Compile a network, run it on the design's verilated NPU top (the model cached by "
      "content hash) against the golden model every cycle and the plain reference network "
      "interpreter every layer, and write every layer's tensor and stats.json. Exit status 1 "
      "on the first mismatch, with the command that reproduces it with a waveform.");
  run_cmd->add_option("CONFIG", r.config, "YAML configuration (npu.enabled)")->required();
  run_cmd->add_option("--network", r.network, "Network file (docs/network.md)")->check(non_empty());
  run_cmd
      ->add_option("--onnx", r.onnx,
                   "Quantized ONNX model, in place of --network "
                   "(docs/onnx.md); --input may then be its float input")
      ->check(non_empty());
  run_cmd->add_option("--input", r.input, "Input images: int8 [N][H][W][C] .npy")
      ->check(non_empty())
      ->required();
  run_cmd->add_option("--out", r.out, "Output folder (default: generated/<design>/run)")
      ->check(non_empty());
  run_cmd->add_option("--design", r.design_dir, "Design folder (default: generated/<design>)")
      ->check(non_empty());
  run_cmd
      ->add_option("--labels", r.labels,
                   "Class labels .npy [N]: report the top-1 accuracy of the last layer")
      ->check(non_empty());
  run_cmd->add_option("--seed", r.seed, "Seed (kept for the reproduce line)")
      ->check(unsigned_integer())
      ->capture_default_str();
  run_cmd
      ->add_option("--batch", r.only_batch,
                   "Run only the K-th batch of images (1-based), as a reproduce line does")
      ->check(positive_integer());
  add_sequencing_option(*run_cmd, r);
  run_cmd->add_option("--trace", r.trace, "Write an FST waveform to this file")->check(non_empty());
  run_cmd->add_option("--trace-from", r.trace_from, "First cycle in the waveform")
      ->check(unsigned_integer());
  run_cmd->callback([] {
    const elab::Design design = load_design(r.config);
    const auto& npu = npu_of(design, r.config);
    const golden::NpuDesign& d = npu.design;
    // Every output is checked before the co-simulation is built and run.
    const fs::path dir = output_dir(design, r.design_dir);
    const fs::path out = r.out.empty() ? dir / "run" : fs::path(r.out);
    check_output_folder("--design", dir, emit::kManifest);
    check_output_folder("--out", out, kRunMarker);
    check_distinct("--design", dir, "--out", out);
    if (!r.trace.empty()) check_output_file("--trace", r.trace, dir);
    const net::NetworkFile f = read_source(r.network, r.onnx);
    const std::string source = source_of(r.network, r.onnx);
    golden::RunFile run;
    run.input = read_input(r.input, f.network);
    std::vector<int64_t> labels;
    if (!r.labels.empty()) {
      try {
        const util::NpyArray a = util::read_npy(r.labels);
        if (a.shape.size() != 1 || a.shape[0] != static_cast<size_t>(run.input.n)) {
          throw util::NpyError(fmt::format("expected [{}] labels", run.input.n));
        }
        labels = a.values;
      } catch (const util::NpyError& e) {
        throw CommandError(kBadInput, fmt::format("{}: {}", r.labels, e.what()));
      }
    }
    // Images go in batches of the most that fit the buffers (and the engines' batch maxima);
    // one image at a time, in row bands, when even one does not fit.
    const int batch = explore::largest_batch(d, f.network, run.input.n, compile_options(r));
    const golden::Program first = compile(d, f, source, batch, compile_options(r));
    const auto t0 = std::chrono::steady_clock::now();
    auto tensors = golden::reference::run_network(f.network, run.input);
    const double reference_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    require_sim_tools();
    generate_design(design, dir, true);
    const bool trace = !r.trace.empty();
    const SimBuild build = build_sim(design, dir, trace, false, npu);
    const fs::path work = dir / "sim" / "run-work";
    fs::create_directories(work);
    const fs::path results = work / "results.txt";
    std::string repro = fmt::format("npugen run {} --{} {} --input {}", r.config,
                                    r.onnx.empty() ? "network" : "onnx", source, r.input);
    if (!r.design_dir.empty()) repro += " --design " + r.design_dir;
    if (r.sequencing != "tasks") repro += " --sequencing " + r.sequencing;
    if (r.no_packing) repro += " --no-input-packing";
    if (r.host_io) repro += " --host-io";
    if (r.no_zero_skip) repro += " --no-zero-skip";
    if (r.weights_by_dma) repro += " --weights-by-dma";
    // Per layer, summed over the batches: cycles, MACs, bounds; the tensors joined.
    const size_t count = f.network.layers.size();
    golden::RunResults res;
    res.layers.resize(count);
    std::vector<uint64_t> layer_cycles(count, 0);
    std::vector<uint64_t> first_finish(count, 0);  ///< the first batch's completion cycles
    golden::Program p = first;
    for (auto& l : p.layers) l.macs = l.mapping_bound = 0;
    const int all_batches = (run.input.n + batch - 1) / batch;
    if (r.only_batch > all_batches) {
      throw CommandError(kBadInput, fmt::format("--batch {}: the run has {} batch(es) of up to {} "
                                                "images",
                                                r.only_batch, all_batches, batch));
    }
    // --batch K: that batch's images alone (and their labels and reference tensors).
    if (r.only_batch > 0) {
      const int n0 = (r.only_batch - 1) * batch, n = std::min(batch, run.input.n - n0);
      run.input = slice(run.input, n0, n);
      for (auto& t : tensors) t = slice(t, n0, n);
      if (!labels.empty()) {
        labels = std::vector<int64_t>(labels.begin() + n0, labels.begin() + n0 + n);
      }
    }
    const int batches = (run.input.n + batch - 1) / batch;
    const bool terminal = isatty(fileno(stdout)) != 0;
    for (int b = 0; b < batches; ++b) {
      const int n0 = b * batch, n = std::min(batch, run.input.n - n0);
      golden::RunFile chunk;
      chunk.program = n == batch ? first : compile(d, f, source, n, compile_options(r));
      chunk.input = slice(run.input, n0, n);
      for (size_t i = 1; i < tensors.size(); ++i)
        chunk.expected.push_back(slice(tensors[i], n0, n));
      util::write_file_atomically(work / "network.run", golden::run_file_text(chunk));
      fs::remove(results);
      std::vector<std::string> argv = {
          build.binary.string(),
          "--repro",
          repro + (batches > 1 ? fmt::format(" (batch {} of {}: "
                                             "images {} to {})",
                                             b + 1, batches, n0, n0 + n - 1)
                               : std::string()),
          "--run",
          (work / "network.run").string(),
          "--results",
          results.string(),
          "--summary",
          (work / "summary.json").string(),
          "--cycles",
          "4000000000",
          "--seed",
          std::to_string(r.seed)};
      if (trace) {
        argv.insert(argv.end(), {"--trace", fs::absolute(r.trace).string(), "--trace-from",
                                 std::to_string(r.trace_from)});
      }
      const fs::path log = work / "sim.log";
      const int rc = util::run_program(argv, log);
      if (rc == -1) throw CommandError(kToolFailed, "cannot start " + build.binary.string());
      if (rc != 0) {
        std::fprintf(stderr, "%s", util::tail_of_file(log, 60).c_str());
        throw CommandError(rc == 1 ? kSimulationFailed : rc == 2 ? kBadInput : kToolFailed, "");
      }
      const golden::RunResults part = golden::parse_results(util::read_file(results));
      res.cycles += part.cycles;
      // A layer's cycles: from the completion before it (of any layer; with the task unit
      // layers overlap and may finish out of list order) to its own.
      if (part.layers.size() != count) {
        throw CommandError(kToolFailed, fmt::format("{}: {} layers, the network has {}",
                                                    results.string(), part.layers.size(), count));
      }
      std::vector<size_t> order(count);
      for (size_t i = 0; i < count; ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return part.layers[a].finished_at < part.layers[b].finished_at;
      });
      uint64_t last = 0;
      for (const size_t i : order) {
        layer_cycles[i] += part.layers[i].finished_at - last;
        last = part.layers[i].finished_at;
      }
      if (b == 0) {
        for (size_t i = 0; i < count; ++i) first_finish[i] = part.layers[i].finished_at;
      }
      for (size_t i = 0; i < count; ++i) {
        const golden::LayerResult& l = part.layers[i];
        res.layers[i].name = l.name;
        append(res.layers[i].tensor, l.tensor);
        p.layers[i].macs += chunk.program.layers[i].macs;
        p.layers[i].mapping_bound += chunk.program.layers[i].mapping_bound;
      }
      if (terminal) {
        std::printf("\r[%-30s] batch %d of %d, %llu cycles",
                    std::string(static_cast<size_t>(30 * (b + 1) / batches), '#').c_str(), b + 1,
                    batches, static_cast<unsigned long long>(res.cycles));
        std::fflush(stdout);
      }
    }
    if (terminal) std::printf("\n");
    uint64_t sum = 0;
    for (size_t i = 0; i < count; ++i) res.layers[i].finished_at = sum += layer_cycles[i];
    // The files: every layer's tensor, the output, stats.json.
    util::FileMap files;
    files[kRunMarker] = "npugen run output\n";
    // When each layer of the first batch could start: its inputs done and its engine free
    // (with host sequencing, the layer before it done): the Gantt chart's bars of the HTML
    // report run from here to its completion marker.
    auto ready_at = [&](size_t i) {
      uint64_t t = 0;
      for (const size_t in : f.network.layers[i].inputs) {
        if (in > 0) t = std::max(t, first_finish[in - 1]);
      }
      for (size_t j = 0; j < i; ++j) {
        if (r.sequencing == "host" || p.layers[j].neural == p.layers[i].neural)
          t = std::max(t, first_finish[j]);
      }
      return std::min(t, first_finish[i]);
    };
    // A neural layer's array steps for one output pixel on the dense array (its mapping
    // bound over its output pixels): what zs_steps_per_pixel is compared against.
    auto dense_steps = [&](size_t i) -> uint64_t {
      const golden::reference::Tensor& y = tensors[i + 1];
      const uint64_t pixels =
          static_cast<uint64_t>(y.n) * static_cast<uint64_t>(y.h) * static_cast<uint64_t>(y.w);
      return p.layers[i].neural && pixels > 0 ? p.layers[i].mapping_bound / pixels : 0;
    };
    nlohmann::json layers = nlohmann::json::array();
    uint64_t last = 0, total_macs = 0;
    const double macs_per_cycle = static_cast<double>(d.seq.tiles()) * d.lanes();
    for (size_t i = 0; i < res.layers.size(); ++i) {
      const golden::LayerResult& l = res.layers[i];
      const golden::ProgramLayer& pl = p.layers[i];
      const bool flat = pl.op == golden::net::Op::kFc;
      files["layers/" + l.name + ".npy"] = tensor_npy(l.tensor, flat);
      const uint64_t cycles = l.finished_at - last;
      last = l.finished_at;
      total_macs += pl.macs;
      layers.push_back(
          {{"name", l.name},
           {"op", golden::net::op_name(pl.op)},
           {"engine", pl.neural ? "neural" : "planar"},
           {"cycles", cycles},
           {"macs", pl.macs},
           {"mapping_bound", pl.mapping_bound},
           {"mac_utilisation", pl.neural && cycles > 0
                                   ? static_cast<double>(pl.macs) / (macs_per_cycle * cycles)
                                   : 0.0},
           {"mapping_efficiency",
            cycles > 0 ? static_cast<double>(pl.mapping_bound) / static_cast<double>(cycles) : 0.0},
           {"weight_rows", pl.weight_rows},
           {"weight_bits_per_batch", pl.weight_bits},
           {"array", array_name(pl)},
           {"zs_steps_per_pixel", pl.zs_steps},
           {"dense_steps_per_pixel", dense_steps(i)},
           {"output_words_per_batch", pl.out.words(d.lanes())},
           {"first_batch_finished_at", first_finish[i]},
           {"first_batch_ready_at", ready_at(i)}});
      const auto& weights = f.network.layers[i].conv.weights;
      if (golden::net::is_neural(pl.op) && !weights.empty()) {
        const int k = std::max(1, f.network.layers[i].conv.filters);
        const auto map = sparsity_map(weights, static_cast<size_t>(k));
        layers.back()["weight_zero_fraction"] = map.zero_fraction;
        layers.back()["sparsity_map"] = {
            {"rows", map.rows}, {"cols", map.cols}, {"values", map.values}};
      }
    }
    add_outputs(files, f.network, [&](size_t t) -> const golden::reference::Tensor& {
      return res.layers.at(t - 1).tensor;
    });
    const double clock = design.config.design.clock_mhz;
    const double per_image = static_cast<double>(res.cycles) / run.input.n;
    nlohmann::json stats = {
        {"design", design.config.design.name},
        {"network", source},
        {"images", run.input.n},
        {"layers", layers},
        {"total",
         {{"cycles", res.cycles},
          {"cycles_per_image", per_image},
          {"macs", total_macs},
          {"mac_utilisation",
           res.cycles > 0 ? static_cast<double>(total_macs) / (macs_per_cycle * res.cycles) : 0.0},
          {"clock_mhz", clock},
          {"images_per_second", per_image > 0 ? clock * 1e6 / per_image : 0.0}}}};
    auto top1 = [&](const golden::reference::Tensor& y) {
      const size_t k = static_cast<size_t>(y.h) * y.w * y.c;
      size_t correct = 0;
      for (int n = 0; n < y.n; ++n) {
        size_t best = 0;  // ties go to the lower class, as numpy's argmax
        for (size_t j = 1; j < k; ++j) {
          if (y.data[n * k + j] > y.data[n * k + best]) best = j;
        }
        correct += static_cast<int64_t>(best) == labels[static_cast<size_t>(n)];
      }
      return correct;
    };
    size_t reference_correct = 0;
    if (!labels.empty()) {
      stats["total"]["top1_correct"] = top1(res.layers.back().tensor);
      reference_correct = top1(tensors.back());
      stats["total"]["top1_correct_reference"] = reference_correct;
      stats["total"]["top1_accuracy"] =
          static_cast<double>(stats["total"]["top1_correct"].get<size_t>()) / run.input.n;
    }
    files["stats.json"] = stats.dump(2) + "\n";
    util::write_tree_atomically(out, files, kRunMarker, {});
    // (util: the layer's MACs over cycles x T x L; above 1 on the zero-skipping array, which
    // skips the zero weights the MACs count.)
    std::printf("%-12s %-10s %-9s %10s %10s %8s\n", "layer", "op", "engine", "cycles", "MACs",
                "util");
    for (const auto& l : layers) {
      const std::string engine =
          l["engine"].get<std::string>() + (l["array"] == "zero_skip" ? " zs" : "");
      std::printf("%-12s %-10s %-9s %10llu %10llu %8.3f\n", l["name"].get<std::string>().c_str(),
                  l["op"].get<std::string>().c_str(), engine.c_str(),
                  static_cast<unsigned long long>(l["cycles"].get<uint64_t>()),
                  static_cast<unsigned long long>(l["macs"].get<uint64_t>()),
                  l["mac_utilisation"].get<double>());
    }
    std::printf(
        "every layer equals the golden model and the reference interpreter "
        "(%d batch(es) of up to %d images; reference: %.2f s)\n",
        batches, batch, reference_seconds);
    std::printf("%d image(s): %llu cycles, %.1f cycles per image, %.0f images/s at %.0f MHz\n",
                run.input.n, static_cast<unsigned long long>(res.cycles), per_image,
                per_image > 0 ? clock * 1e6 / per_image : 0.0, clock);
    if (!labels.empty()) {
      std::printf("top-1 accuracy: %zu of %d (%.2f%%); the reference interpreter's: %zu of %d\n",
                  stats["total"]["top1_correct"].get<size_t>(), run.input.n,
                  100.0 * stats["total"]["top1_accuracy"].get<double>(), reference_correct,
                  run.input.n);
    }
    std::printf("results: %s\n", out.string().c_str());
  });
}

}  // namespace npugen::cli
