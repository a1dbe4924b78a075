// A compiled program as text, the host side of a run (ProgramDriver), and the golden run.
// compile_network is the compiler's (compiler/, docs/compiler.md).
#include "npugen/golden/npu/program.hpp"

#include <fmt/format.h>

#include <charconv>
#include <sstream>

#include "npugen/golden/npu/dma.hpp"
#include "npugen/golden/npu/system_memory.hpp"
#include "npugen/golden/sequencer/lowering.hpp"

namespace npugen::golden {
namespace {

constexpr const char* kMagic = "npugen-program 7";

constexpr net::Op kOps[] = {net::Op::kConv,      net::Op::kFc,        net::Op::kMaxPool,
                            net::Op::kAvgPool,   net::Op::kAdd,       net::Op::kGainBias,
                            net::Op::kReduceSum, net::Op::kReduceMax, net::Op::kActivation,
                            net::Op::kLut,       net::Op::kConcat,    net::Op::kResize};

const char* target_name(HostTarget t) {
  switch (t) {
    case HostTarget::kBufferA:
      return "a";
    case HostTarget::kBufferB:
      return "b";
    case HostTarget::kWeights:
      return "weights";
    case HostTarget::kParams:
      return "params";
    case HostTarget::kPlanarGains:
      return "gains";
    case HostTarget::kVqRow:
      return "vq_row";
    case HostTarget::kVqCodebook:
      return "codebook";
  }
  return "?";
}

// A layer name as one token: bytes outside '!' to '~', '%' and '"' as %XX; "" when empty.
std::string encode_name(const std::string& name) {
  if (name.empty()) return "\"\"";
  std::string out;
  for (const char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (u <= 0x20 || u >= 0x7f || ch == '%' || ch == '"') {
      out += fmt::format("%{:02X}", u);
    } else {
      out += ch;
    }
  }
  return out;
}

std::string hex_bytes(const std::vector<uint8_t>& data) {
  if (data.empty()) return "-";
  std::string out;
  out.reserve(data.size() * 2);
  for (const uint8_t b : data) out += fmt::format("{:02x}", b);
  return out;
}

// "A|B BASE N H W C", or "M WORD N H W C" for a tensor in system memory.
std::string tensor_text(const ProgramTensor& t) {
  return fmt::format("{} {} {} {} {} {}",
                     t.mem        ? "M"
                     : t.buf == 0 ? "A"
                                  : "B",
                     t.mem ? *t.mem : t.base, t.n, t.h, t.w, t.c);
}

// One line's tokens, read in order; every problem names the line.
class Tokens {
 public:
  Tokens(const std::string& line, int number) : number_(number) {
    std::istringstream in(line);
    for (std::string t; in >> t;) tokens_.push_back(t);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(fmt::format("line {}: {}", number_, what));
  }
  [[nodiscard]] size_t size() const { return tokens_.size(); }
  [[nodiscard]] const std::string& keyword() const { return tokens_.at(0); }
  void expect(size_t n, const char* form) const {
    if (tokens_.size() != n) fail(fmt::format("expected '{}'", form));
  }
  [[nodiscard]] const std::string& at(size_t i) const { return tokens_.at(i); }

  uint64_t number(size_t i, const char* what, uint64_t max = ~uint64_t{0}) const {
    const std::string& s = tokens_.at(i);
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char* first = s.data() + (hex ? 2 : 0);
    const char* last = s.data() + s.size();
    uint64_t v = 0;
    const auto r = std::from_chars(first, last, v, hex ? 16 : 10);
    if (s.empty() || r.ec != std::errc{} || r.ptr != last || v > max) {
      fail(fmt::format("{} '{}' is not a number from 0 to {}", what, s, max));
    }
    return v;
  }
  int dimension(size_t i, const char* what) const {
    const uint64_t v = number(i, what, 0x7fffffff);
    if (v == 0) fail(fmt::format("{} is 0", what));
    return static_cast<int>(v);
  }
  unsigned buffer(size_t i) const {
    if (tokens_.at(i) == "A") return 0;
    if (tokens_.at(i) == "B") return 1;
    fail(fmt::format("buffer '{}' is not A, B or M (system memory)", tokens_.at(i)));
  }
  ProgramTensor tensor(size_t i) const {
    ProgramTensor t;
    if (tokens_.at(i) == "M") {
      t.mem = number(i + 1, "memory word");
    } else {
      t.buf = buffer(i);
      t.base = number(i + 1, "base");
    }
    t.n = dimension(i + 2, "N"), t.h = dimension(i + 3, "H");
    t.w = dimension(i + 4, "W"), t.c = dimension(i + 5, "C");
    return t;
  }
  std::string name(size_t i) const {
    const std::string& s = tokens_.at(i);
    if (s == "\"\"") return "";
    std::string out;
    for (size_t k = 0; k < s.size(); ++k) {
      if (s[k] == '"') fail(fmt::format("name '{}' has a bare '\"'", s));
      if (s[k] != '%') {
        out += s[k];
        continue;
      }
      unsigned v = 0;
      const char* first = s.data() + k + 1;
      const auto r = k + 3 <= s.size() ? std::from_chars(first, first + 2, v, 16)
                                       : std::from_chars_result{first, std::errc::invalid_argument};
      if (r.ec != std::errc{} || r.ptr != first + 2) {
        fail(fmt::format("name '{}' has a bad %XX escape", s));
      }
      out += static_cast<char>(v);
      k += 2;
    }
    return out;
  }
  std::vector<uint8_t> bytes(size_t i) const {
    const std::string& s = tokens_.at(i);
    if (s == "-") return {};
    if (s.size() % 2 != 0) fail("data has an odd number of hex digits");
    std::vector<uint8_t> out(s.size() / 2);
    for (size_t k = 0; k < out.size(); ++k) {
      unsigned v = 0;
      const char* first = s.data() + 2 * k;
      const auto r = std::from_chars(first, first + 2, v, 16);
      if (r.ec != std::errc{} || r.ptr != first + 2) fail("data is not hex bytes");
      out[k] = static_cast<uint8_t>(v);
    }
    return out;
  }

 private:
  std::vector<std::string> tokens_;
  int number_;
};

std::vector<uint8_t> resized(const std::vector<uint8_t>& from, size_t n) {
  std::vector<uint8_t> out(n, 0);
  std::copy_n(from.begin(), std::min(n, from.size()), out.begin());
  return out;
}

}  // namespace

std::string program_text(const Program& p) {
  std::string out = std::string(kMagic) + "\n";
  out += fmt::format("lanes {}\n", p.lanes);
  out += fmt::format("sequencing {}\n", p.sequencing == Sequencing::kTasks ? "tasks" : "host");
  out += fmt::format("input {}\n", tensor_text(p.input));
  const InputPacking& k = p.packing;
  out += fmt::format("memory_io {}\n", p.input_at ? fmt::format("{}", *p.input_at) : "-");
  out += k.on ? fmt::format("packing {} {} {} {} {} {} {} {} {} {}\n", k.h, k.w, k.c, k.kernel_h,
                            k.kernel_w, k.stride_y, k.stride_x, k.pad_top, k.pad_left, k.zero_point)
              : std::string("packing none\n");
  out += fmt::format("layers {}\n", p.layers.size());
  for (const ProgramLayer& l : p.layers) {
    out += fmt::format("layer {} {} {} {} {} {} {} {} {} {}\n", encode_name(l.name),
                       net::op_name(l.op), l.neural ? "neural" : "planar", tensor_text(l.out),
                       l.macs, l.mapping_bound, l.weight_rows, l.weight_bits, l.zs_steps, l.tasks);
  }
  out += fmt::format("outputs {}\n", p.outputs.size());
  for (const ProgramOutput& o : p.outputs) {
    out += fmt::format("output {} {} {}\n", o.layer, encode_name(o.name),
                       o.at ? fmt::format("{}", *o.at) : "-");
  }
  out += fmt::format("steps {}\n", p.steps.size());
  for (const ProgramStep& s : p.steps) {
    switch (s.kind) {
      case ProgramStep::Kind::kHostWrite:
        out += fmt::format("host {} {} {}\n", target_name(s.target), s.addr, hex_bytes(s.data));
        break;
      case ProgramStep::Kind::kApbWrite:
        out += fmt::format("apb 0x{:03x} 0x{:08x}\n", s.apb_addr, s.apb_data);
        break;
      case ProgramStep::Kind::kWaitSeqDone:
        out += fmt::format("wait_seq {}\n", s.count);
        break;
      case ProgramStep::Kind::kWaitPlanarDone:
        out += fmt::format("wait_planar {}\n", s.count);
        break;
      case ProgramStep::Kind::kLayerDone:
        out += fmt::format("layer_done {}\n", s.layer);
        break;
      case ProgramStep::Kind::kApbRead:
        out += fmt::format("apb_read 0x{:03x}\n", s.apb_addr);
        break;
      case ProgramStep::Kind::kWaitIrq:
        out += "wait_irq\n";
        break;
    }
  }
  out += fmt::format("memory {}\n", p.memory.size());
  for (size_t i = 0; i < p.memory.size(); i += 8) {
    std::string line = "words";
    for (size_t k = i; k < std::min(i + 8, p.memory.size()); ++k) {
      line += fmt::format(" {:08x}", p.memory[k]);
    }
    out += line + "\n";
  }
  out += fmt::format("descriptors {}\n", p.descriptors.size());
  for (const uint64_t d : p.descriptors) out += fmt::format("descriptor {}\n", d);
  out += "end\n";
  return out;
}

Program parse_program(const std::string& text) {
  std::istringstream in(text);
  int number = 0;
  auto next = [&]() {
    std::string line;
    if (!std::getline(in, line)) {
      throw std::runtime_error(fmt::format("line {}: the program ends early", number + 1));
    }
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return Tokens(line, number);
  };
  Program p;
  {
    std::string line;
    ++number;
    if (!std::getline(in, line) || line != kMagic) {
      throw std::runtime_error(fmt::format("line 1: expected '{}'", kMagic));
    }
  }
  auto keyword = [](const Tokens& t, const char* word, size_t n, const char* form) {
    if (t.size() == 0 || t.keyword() != word) t.fail(fmt::format("expected '{}'", form));
    t.expect(n, form);
  };
  {
    const Tokens t = next();
    keyword(t, "lanes", 2, "lanes L");
    p.lanes = static_cast<unsigned>(t.dimension(1, "L"));
  }
  {
    const Tokens t = next();
    keyword(t, "sequencing", 2, "sequencing tasks|host");
    if (t.at(1) != "tasks" && t.at(1) != "host") {
      t.fail(fmt::format("'{}' is not tasks or host", t.at(1)));
    }
    p.sequencing = t.at(1) == "tasks" ? Sequencing::kTasks : Sequencing::kHost;
  }
  {
    const Tokens t = next();
    keyword(t, "input", 7, "input A|B BASE N H W C");
    p.input = t.tensor(1);
  }
  {
    const Tokens t = next();
    keyword(t, "memory_io", 2, "memory_io INPUT_AT|-");
    if (t.at(1) != "-") p.input_at = t.number(1, "input address");
  }
  {
    const Tokens t = next();
    const char* form = "packing none|H W C KH KW SY SX PT PL ZP";
    if (t.size() == 0 || t.keyword() != "packing") t.fail(fmt::format("expected '{}'", form));
    if (t.size() != 2 || t.at(1) != "none") {
      t.expect(11, form);
      InputPacking& k = p.packing;
      k.on = true;
      k.h = t.dimension(1, "H"), k.w = t.dimension(2, "W"), k.c = t.dimension(3, "C");
      k.kernel_h = t.dimension(4, "KH"), k.kernel_w = t.dimension(5, "KW");
      k.stride_y = t.dimension(6, "SY"), k.stride_x = t.dimension(7, "SX");
      k.pad_top = static_cast<int>(t.number(8, "PT", 255));
      k.pad_left = static_cast<int>(t.number(9, "PL", 255));
      const std::string& z = t.at(10);
      int zp = 0;
      const auto r = std::from_chars(z.data(), z.data() + z.size(), zp);
      if (r.ec != std::errc{} || r.ptr != z.data() + z.size() || zp < -128 || zp > 127) {
        t.fail(fmt::format("zero point '{}' is not an integer from -128 to 127", z));
      }
      k.zero_point = zp;
    }
  }
  const char* layer_form =
      "layer NAME OP neural|planar A|B|M BASE N H W C MACS BOUND ROWS BITS ZS_STEPS TASKS";
  uint64_t layers = 0;
  {
    const Tokens t = next();
    keyword(t, "layers", 2, "layers COUNT");
    layers = t.number(1, "count", 1U << 20);
  }
  for (uint64_t i = 0; i < layers; ++i) {
    const Tokens t = next();
    keyword(t, "layer", 16, layer_form);
    ProgramLayer l;
    l.name = t.name(1);
    bool known = false;
    for (const net::Op op : kOps) {
      if (t.at(2) == net::op_name(op)) l.op = op, known = true;
    }
    if (!known) t.fail(fmt::format("'{}' is not a layer kind", t.at(2)));
    if (t.at(3) != "neural" && t.at(3) != "planar") {
      t.fail(fmt::format("'{}' is not neural or planar", t.at(3)));
    }
    l.neural = t.at(3) == "neural";
    l.out = t.tensor(4);
    l.macs = t.number(10, "MACS");
    l.mapping_bound = t.number(11, "BOUND");
    l.weight_rows = t.number(12, "ROWS");
    l.weight_bits = t.number(13, "BITS");
    l.zs_steps = t.number(14, "ZS_STEPS");
    l.tasks = t.number(15, "TASKS", 1U << 24);
    if (l.tasks == 0) t.fail("TASKS is 0");
    p.layers.push_back(std::move(l));
  }
  {
    const Tokens t = next();
    keyword(t, "outputs", 2, "outputs COUNT");
    const uint64_t outputs = t.number(1, "count", p.layers.size());
    for (uint64_t i = 0; i < outputs; ++i) {
      const Tokens o = next();
      keyword(o, "output", 4, "output LAYER NAME AT|-");
      ProgramOutput out;
      out.layer = o.number(1, "layer", p.layers.empty() ? 0 : p.layers.size() - 1);
      out.name = o.name(2);
      if (o.at(3) != "-") out.at = o.number(3, "output address");
      p.outputs.push_back(std::move(out));
    }
  }
  uint64_t steps = 0;
  {
    const Tokens t = next();
    keyword(t, "steps", 2, "steps COUNT");
    steps = t.number(1, "count");
  }
  for (uint64_t i = 0; i < steps; ++i) {
    const Tokens t = next();
    if (t.size() == 0) {
      t.fail("expected a step (host, apb, apb_read, wait_seq, wait_planar, wait_irq, layer_done)");
    }
    ProgramStep s;
    const std::string& k = t.keyword();
    if (k == "host") {
      t.expect(4, "host TARGET ADDR DATA");
      s.kind = ProgramStep::Kind::kHostWrite;
      bool known = false;
      for (unsigned v = 0; v <= static_cast<unsigned>(HostTarget::kVqCodebook); ++v) {
        if (t.at(1) == target_name(static_cast<HostTarget>(v))) {
          s.target = static_cast<HostTarget>(v), known = true;
        }
      }
      if (!known)
        t.fail(
            fmt::format("'{}' is not a, b, weights, params, gains, vq_row or codebook", t.at(1)));
      s.addr = t.number(2, "address");
      s.data = t.bytes(3);
    } else if (k == "apb") {
      t.expect(3, "apb ADDR DATA");
      s.kind = ProgramStep::Kind::kApbWrite;
      s.apb_addr = static_cast<uint32_t>(t.number(1, "address", 0xffffffffU));
      s.apb_data = static_cast<uint32_t>(t.number(2, "data", 0xffffffffU));
    } else if (k == "apb_read") {
      t.expect(2, "apb_read ADDR");
      s.kind = ProgramStep::Kind::kApbRead;
      s.apb_addr = static_cast<uint32_t>(t.number(1, "address", 0xffffffffU));
    } else if (k == "wait_irq") {
      t.expect(1, "wait_irq");
      s.kind = ProgramStep::Kind::kWaitIrq;
    } else if (k == "wait_seq" || k == "wait_planar") {
      t.expect(2, k == "wait_seq" ? "wait_seq COUNT" : "wait_planar COUNT");
      s.kind =
          k == "wait_seq" ? ProgramStep::Kind::kWaitSeqDone : ProgramStep::Kind::kWaitPlanarDone;
      s.count = t.number(1, "count");
    } else if (k == "layer_done") {
      t.expect(2, "layer_done LAYER");
      s.kind = ProgramStep::Kind::kLayerDone;
      s.layer = static_cast<unsigned>(t.number(1, "layer", 0xffffffffU));
      if (s.layer >= p.layers.size()) {
        t.fail(fmt::format("layer {} is not one of the {} layers", s.layer, p.layers.size()));
      }
    } else {
      t.fail(fmt::format(
          "'{}' is not a step (host, apb, apb_read, wait_seq, wait_planar, wait_irq, layer_done)",
          k));
    }
    p.steps.push_back(std::move(s));
  }
  {
    const Tokens t = next();
    keyword(t, "memory", 2, "memory WORDS");
    const uint64_t words = t.number(1, "words", uint64_t{1} << 32);
    while (p.memory.size() < words) {
      const Tokens w = next();
      const size_t n = std::min<uint64_t>(8, words - p.memory.size());
      if (w.size() == 0 || w.keyword() != "words" || w.size() != n + 1) {
        w.fail(fmt::format("expected 'words' and {} hex words", n));
      }
      for (size_t k = 1; k <= n; ++k) {
        const std::string& h = w.at(k);
        uint32_t v = 0;
        const auto r = std::from_chars(h.data(), h.data() + h.size(), v, 16);
        if (h.empty() || h.size() > 8 || r.ec != std::errc{} || r.ptr != h.data() + h.size()) {
          w.fail(fmt::format("'{}' is not a hex word", h));
        }
        p.memory.push_back(v);
      }
    }
  }
  {
    const Tokens t = next();
    keyword(t, "descriptors", 2, "descriptors COUNT");
    const uint64_t n = t.number(1, "count", 1U << 24);  // a task a layer or band, claims
    for (uint64_t i = 0; i < n; ++i) {
      const Tokens d = next();
      keyword(d, "descriptor", 2, "descriptor WORD");
      p.descriptors.push_back(d.number(1, "word", p.memory.size()));
    }
  }
  const Tokens end = next();
  if (end.size() != 1 || end.keyword() != "end") end.fail("expected 'end'");
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line != "\r") {
      throw std::runtime_error(fmt::format("line {}: text after 'end'", number));
    }
  }
  return p;
}

reference::Tensor pack_input(const InputPacking& p, const reference::Tensor& input, int out_h,
                             int out_w) {
  reference::Tensor out;
  out.n = input.n, out.h = out_h, out.w = out_w, out.c = p.kernel_h * p.kernel_w * p.c;
  out.data.reserve(static_cast<size_t>(out.n) * out.h * out.w * out.c);
  for (int n = 0; n < input.n; ++n) {
    for (int oh = 0; oh < out_h; ++oh) {
      for (int ow = 0; ow < out_w; ++ow) {
        for (int kh = 0; kh < p.kernel_h; ++kh) {
          for (int kw = 0; kw < p.kernel_w; ++kw) {
            const int ih = oh * p.stride_y + kh - p.pad_top;
            const int iw = ow * p.stride_x + kw - p.pad_left;
            const bool inside = ih >= 0 && ih < input.h && iw >= 0 && iw < input.w;
            for (int c = 0; c < p.c; ++c) {
              out.data.push_back(
                  inside ? input.data[((static_cast<size_t>(n) * input.h + ih) * input.w + iw) *
                                          input.c +
                                      c]
                         : static_cast<int8_t>(p.zero_point));
            }
          }
        }
      }
    }
  }
  return out;
}

std::vector<uint32_t> program_memory(const Program& p, const reference::Tensor& input) {
  std::vector<uint32_t> m = p.memory;
  if (!p.input_at) return m;
  const InputPacking& k = p.packing;
  const auto words =
      tensor_words(k.on ? pack_input(k, input, p.input.h, p.input.w) : input, p.lanes);
  const unsigned w = dma_words_per_buffer_word(p.lanes);
  const uint64_t end = *p.input_at + words.size() * w;
  if (m.size() < end) m.resize(end, 0);
  for (size_t i = 0; i < words.size(); ++i) {
    for (unsigned j = 0; j < w; ++j) {
      uint32_t v = 0;
      for (unsigned b = 0; b < 4 && j * 4 + b < p.lanes; ++b) {
        v |= uint32_t{words[i][j * 4 + b]} << (8 * b);
      }
      m[*p.input_at + i * w + j] = v;
    }
  }
  return m;
}

std::vector<reference::Tensor> read_memory_outputs(const Program& p,
                                                   const std::vector<uint32_t>& words) {
  std::vector<reference::Tensor> out(p.outputs.size());
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    const ProgramOutput& o = p.outputs[i];
    if (o.at) out[i] = read_memory_tensor(p, p.layers.at(o.layer).out, *o.at, words);
  }
  return out;
}

reference::Tensor read_memory_tensor(const Program& p, const ProgramTensor& t, uint64_t at0,
                                     const std::vector<uint32_t>& words) {
  reference::Tensor out;
  out.n = t.n, out.h = t.h, out.w = t.w, out.c = t.c;
  out.data.resize(static_cast<size_t>(t.n) * t.h * t.w * t.c);
  const unsigned lanes = p.lanes, w = dma_words_per_buffer_word(lanes);
  const uint64_t per_pixel = (static_cast<uint64_t>(t.c) + lanes - 1) / lanes;
  for (size_t px = 0; px < static_cast<size_t>(t.n) * t.h * t.w; ++px) {
    for (int c = 0; c < t.c; ++c) {
      const uint64_t word = px * per_pixel + static_cast<uint64_t>(c) / lanes;
      const unsigned lane = static_cast<unsigned>(c) % lanes;
      const uint64_t at = at0 + word * w + lane / 4;
      const uint32_t v = at < words.size() ? words[at] : 0;
      out.data[px * static_cast<size_t>(t.c) + static_cast<size_t>(c)] =
          static_cast<int8_t>(static_cast<uint8_t>(v >> (8 * (lane % 4))));
    }
  }
  return out;
}

uint64_t program_data_start(const Program& p) {
  uint64_t end = 0;
  for (const uint64_t d : p.descriptors) {
    const uint64_t length = d + 1 < p.memory.size() ? p.memory[d + 1] & 0xffffU : 0;
    end = std::max(end, d + length);
  }
  return end;
}

void move_program_data(Program& p, int64_t delta) {
  auto move = [&](std::optional<uint64_t>& at) {
    if (at) *at = static_cast<uint64_t>(static_cast<int64_t>(*at) + delta);
  };
  move(p.input_at);
  for (ProgramOutput& o : p.outputs) move(o.at);
  move(p.input.mem);
  for (ProgramLayer& l : p.layers) move(l.out.mem);
}

ProgramDriver::ProgramDriver(const NpuDesign& d, const Program& p, const reference::Tensor& input)
    : d_(d), p_(p) {
  if (p.lanes != d.lanes()) {
    throw std::invalid_argument(fmt::format(
        "the program was compiled for {} lanes, the design has {}", p.lanes, d.lanes()));
  }
  const ProgramTensor& t = p.input;
  const InputPacking& k = p.packing;
  const int h = k.on ? k.h : t.h, w = k.on ? k.w : t.w, c = k.on ? k.c : t.c;
  if (input.n != t.n || input.h != h || input.w != w || input.c != c ||
      input.data.size() != static_cast<size_t>(t.n) * h * w * c) {
    throw std::invalid_argument(fmt::format("the input is {}x{}x{}x{}, the program's {}x{}x{}x{}",
                                            input.n, input.h, input.w, input.c, t.n, h, w, c));
  }
  for (unsigned i = 0; i < p.layers.size(); ++i) {
    for (uint64_t t = 0; t < p.layers[i].tasks; ++t)
      of_kind_[p.layers[i].neural ? 0 : 1].push_back(i);
  }
  const size_t bytes = (d.host_data_bits() + 7) / 8;
  // With the DMA the input is in system memory (program_memory): the host writes none.
  const auto words = p.input_at
                         ? std::vector<std::vector<uint8_t>>{}
                         : tensor_words(k.on ? pack_input(k, input, t.h, t.w) : input, d.lanes());
  input_steps_.reserve(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    ProgramStep s;
    s.kind = ProgramStep::Kind::kHostWrite;
    s.target = t.buf == 0 ? HostTarget::kBufferA : HostTarget::kBufferB;
    s.addr = t.base + i;
    s.data = resized(words[i], bytes);
    input_steps_.push_back(std::move(s));
  }
}

const ProgramStep* ProgramDriver::current() const {
  if (next_ < input_steps_.size()) return &input_steps_[next_];
  const size_t i = next_ - input_steps_.size();
  return i < p_.steps.size() ? &p_.steps[i] : nullptr;
}

bool ProgramDriver::done() const { return current() == nullptr; }

NpuInputs ProgramDriver::inputs() const {
  NpuInputs in;
  const ProgramStep* s = current();
  if (s == nullptr) return in;
  if (s->kind == ProgramStep::Kind::kHostWrite) {
    in.host.valid = in.host.write = true;
    in.host.target = s->target;
    in.host.addr = s->addr;
    in.host.data = s->data;
  } else if (s->kind == ProgramStep::Kind::kApbWrite || s->kind == ProgramStep::Kind::kApbRead) {
    const bool write = s->kind == ProgramStep::Kind::kApbWrite;
    in.apb.psel = true;
    in.apb.penable = apb_access_;
    in.apb.pwrite = write;
    in.apb.paddr = s->apb_addr;
    in.apb.pwdata = write ? s->apb_data : 0;
  }
  return in;
}

bool ProgramDriver::waiting() const {
  const ProgramStep* s = current();
  return s != nullptr &&
         (s->kind == ProgramStep::Kind::kWaitSeqDone ||
          s->kind == ProgramStep::Kind::kWaitPlanarDone || s->kind == ProgramStep::Kind::kWaitIrq);
}

void ProgramDriver::observe(const NpuInputs& in, const NpuOutputs& out, bool stalled) {
  finished_.clear();
  if (p_.sequencing == Sequencing::kTasks) {
    // A layer's last task.
    auto last = [&](const std::vector<unsigned>& of, uint64_t done) {
      const unsigned layer = of[done];
      if (done + 1 == of.size() || of[done + 1] != layer) finished_.push_back(layer);
    };
    if (out.seq_done && seq_done_ < of_kind_[0].size()) last(of_kind_[0], seq_done_);
    if (out.planar_done && planar_done_ < of_kind_[1].size()) last(of_kind_[1], planar_done_);
  }
  seq_done_ += out.seq_done ? 1 : 0;
  planar_done_ += out.planar_done ? 1 : 0;
  const ProgramStep* s = current();
  if (s == nullptr) return;
  bool next = false;
  switch (s->kind) {
    case ProgramStep::Kind::kHostWrite:
      next = !stalled && in.host.valid && out.host_ready;
      break;
    case ProgramStep::Kind::kApbWrite:
    case ProgramStep::Kind::kApbRead:
      if (stalled) {
        if (apb_access_) throw std::logic_error("ProgramDriver: stalled in an APB access phase");
      } else if (!apb_access_) {
        apb_access_ = true;
      } else if (out.apb.pready) {
        apb_access_ = false;
        if (s->kind == ProgramStep::Kind::kApbRead) last_read_ = out.apb.prdata;
        next = true;
      }
      break;
    case ProgramStep::Kind::kWaitIrq:
      next = out.irq;
      break;
    case ProgramStep::Kind::kWaitSeqDone:
      next = seq_done_ >= s->count;
      break;
    case ProgramStep::Kind::kWaitPlanarDone:
      next = planar_done_ >= s->count;
      break;
    case ProgramStep::Kind::kLayerDone:
      finished_.push_back(s->layer);
      next = true;
      break;
  }
  if (next) ++next_;
  // Waits already satisfied pass in the same cycle.
  while (next && current() != nullptr) {
    const ProgramStep* w = current();
    if (w->kind == ProgramStep::Kind::kWaitSeqDone && seq_done_ >= w->count) {
      ++next_;
    } else if (w->kind == ProgramStep::Kind::kWaitPlanarDone && planar_done_ >= w->count) {
      ++next_;
    } else {
      break;
    }
  }
}

std::vector<ProgramStep> npu_driver_steps(unsigned queue, uint64_t head, uint64_t count) {
  std::vector<ProgramStep> out;
  auto write = [&](uint32_t addr, uint32_t data) {
    ProgramStep s;
    s.kind = ProgramStep::Kind::kApbWrite;
    s.apb_addr = addr, s.apb_data = data;
    out.push_back(s);
  };
  const uint32_t own = npu_csr::kOwnWindow, tasks = npu_csr::kTasksWindow;
  const uint32_t flags =
      (1U << npu_csr::kTasksDoneBit) | (1U << npu_csr::kTasksErrBit) | (1U << npu_csr::kCfgErrBit);
  // start: the queue must be empty; flags of an earlier list cleared (TASKS_DONE, the task
  // unit's ERR); the interrupt on the list's end, a malformed descriptor or a configuration
  // an engine refuses; the queue.
  ProgramStep busy;
  busy.kind = ProgramStep::Kind::kApbRead;
  busy.apb_addr = tasks + tasks_csr::queue_register(queue, tasks_csr::kCount);
  out.push_back(busy);
  write(own + npu_csr::kStatus, 1U << npu_csr::kTasksDoneBit);
  write(tasks + tasks_csr::kStatus, 1U << tasks_csr::kStatusErrBit);
  write(own + npu_csr::kIrqEnable, flags);
  write(tasks + tasks_csr::queue_register(queue, tasks_csr::kHead), static_cast<uint32_t>(head));
  write(tasks + tasks_csr::queue_register(queue, tasks_csr::kCount), static_cast<uint32_t>(count));
  // wait: the interrupt, STATUS, and TASKS_DONE cleared.
  ProgramStep w;
  w.kind = ProgramStep::Kind::kWaitIrq;
  out.push_back(w);
  ProgramStep r;
  r.kind = ProgramStep::Kind::kApbRead;
  r.apb_addr = own + npu_csr::kStatus;
  out.push_back(r);
  write(own + npu_csr::kStatus, 1U << npu_csr::kTasksDoneBit);
  return out;
}

reference::Tensor read_program_tensor(const NpuModel& m, const ProgramTensor& t,
                                      const std::vector<uint32_t>& memory) {
  if (t.mem) {
    Program p;
    p.lanes = m.design().lanes();
    return read_memory_tensor(p, t, *t.mem, memory);
  }
  reference::Tensor shape;
  shape.n = t.n, shape.h = t.h, shape.w = t.w, shape.c = t.c;
  return read_tensor(shape, m.design().lanes(), t.base,
                     [&](uint64_t a) { return m.buffer_word(t.buf, a); });
}

ProgramRun run_program(const NpuDesign& d, const Program& p, const reference::Tensor& input,
                       uint64_t max_cycles) {
  ProgramDriver driver(d, p, input);
  NpuModel model(d);
  SystemMemory memory(program_memory(p, input), MemoryTiming{});
  ProgramRun run;
  run.layers.resize(p.layers.size());
  run.finished_at.assign(p.layers.size(), 0);
  size_t finished = 0;
  std::vector<unsigned> in_memory;  // finished layers whose output is in memory: read at the end
  while (!driver.done()) {
    if (model.cycle() >= max_cycles) {
      throw ProgramTimeout(
          fmt::format("the program did not finish in {} cycles ({} of {} layers done)", max_cycles,
                      finished, p.layers.size()));
    }
    const NpuInputs in = driver.inputs();
    const uint64_t cycle = model.cycle();
    NpuInputs with_memory = in;
    memory.serve(with_memory);
    const NpuOutputs out = model.outputs(with_memory);
    driver.observe(with_memory, out);
    model.tick(with_memory);
    memory.tick(with_memory, out);
    for (const unsigned layer : driver.layers_finished()) {  // read after the edge
      if (p.layers.at(layer).out.mem) {
        in_memory.push_back(layer);
      } else {
        run.layers.at(layer) = read_program_tensor(model, p.layers.at(layer).out, memory.words());
      }
      run.finished_at.at(layer) = cycle;
      ++finished;
    }
  }
  for (const unsigned layer : in_memory) {
    run.layers.at(layer) = read_program_tensor(model, p.layers.at(layer).out, memory.words());
  }
  run.cycles = model.cycle();
  run.stored = read_memory_outputs(p, memory.words());
  return run;
}

}  // namespace npugen::golden
