#include "npugen/golden/npu/run_file.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

namespace npugen::golden {
namespace {

constexpr const char* kRunMagic = "npugen-run 1";
constexpr const char* kResultsMagic = "npugen-results 1";
constexpr size_t kBytesPerLine = 64;

void write_tensor(std::string& out, const char* tag, const reference::Tensor& t) {
  out += fmt::format("{} {} {} {} {}\n", tag, t.n, t.h, t.w, t.c);
  for (size_t i = 0; i < t.data.size(); i += kBytesPerLine) {
    const size_t end = std::min(t.data.size(), i + kBytesPerLine);
    for (size_t j = i; j < end; ++j) out += fmt::format("{:02x}", static_cast<uint8_t>(t.data[j]));
    out += '\n';
  }
}

// Reads the lines of a text one at a time, counting them for messages.
class Lines {
 public:
  explicit Lines(const std::string& text) : in_(text) {}
  bool next(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++number_;
    return true;
  }
  std::string need() {
    std::string line;
    if (!next(line)) fail("unexpected end of the text");
    return line;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(fmt::format("line {}: {}", number_, what));
  }
  [[nodiscard]] int number() const { return number_; }

  reference::Tensor tensor(const std::string& header, const char* tag) {
    std::istringstream h(header);
    std::string word;
    reference::Tensor t;
    if (!(h >> word) || word != tag || !(h >> t.n >> t.h >> t.w >> t.c) || t.n < 1 || t.h < 1 ||
        t.w < 1 || t.c < 1) {
      fail(fmt::format("expected '{} N H W C'", tag));
    }
    const size_t count = static_cast<size_t>(t.n) * t.h * t.w * t.c;
    t.data.reserve(count);
    while (t.data.size() < count) {
      const std::string line = need();
      if (line.size() % 2 != 0 || line.size() / 2 > count - t.data.size()) fail("bad tensor bytes");
      for (size_t i = 0; i < line.size(); i += 2) {
        const int v = std::stoi(line.substr(i, 2), nullptr, 16);
        t.data.push_back(static_cast<int8_t>(v));
      }
    }
    return t;
  }

 private:
  std::istringstream in_;
  int number_ = 0;
};

}  // namespace

std::string run_file_text(const RunFile& run) {
  std::string out = std::string(kRunMagic) + "\n";
  const std::string program = program_text(run.program);
  out += fmt::format("program {}\n", std::count(program.begin(), program.end(), '\n'));
  out += program;
  write_tensor(out, "input", run.input);
  out += fmt::format("expected {}\n", run.expected.size());
  for (const auto& t : run.expected) write_tensor(out, "tensor", t);
  return out;
}

RunFile parse_run_file(const std::string& text) {
  Lines lines(text);
  if (lines.need() != kRunMagic) lines.fail(fmt::format("expected '{}'", kRunMagic));
  RunFile run;
  size_t program_lines = 0;
  if (std::sscanf(lines.need().c_str(), "program %zu", &program_lines) != 1) {
    lines.fail("expected 'program LINES'");
  }
  std::string program;
  const int first = lines.number() + 1;
  for (size_t i = 0; i < program_lines; ++i) program += lines.need() + "\n";
  try {
    run.program = parse_program(program);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("in the program from line {}: {}", first, e.what()));
  }
  run.input = lines.tensor(lines.need(), "input");
  size_t count = 0;
  if (std::sscanf(lines.need().c_str(), "expected %zu", &count) != 1) {
    lines.fail("expected 'expected COUNT'");
  }
  if (count != run.program.layers.size()) {
    lines.fail(fmt::format("{} expected tensors for {} layers", count, run.program.layers.size()));
  }
  for (size_t i = 0; i < count; ++i) run.expected.push_back(lines.tensor(lines.need(), "tensor"));
  return run;
}

std::string results_text(const RunResults& results) {
  std::string out = std::string(kResultsMagic) + "\n";
  out += fmt::format("cycles {}\nlayers {}\n", results.cycles, results.layers.size());
  for (const auto& l : results.layers) {
    out += fmt::format("layer {} {}\n", l.name, l.finished_at);
    write_tensor(out, "tensor", l.tensor);
  }
  return out;
}

RunResults parse_results(const std::string& text) {
  Lines lines(text);
  if (lines.need() != kResultsMagic) lines.fail(fmt::format("expected '{}'", kResultsMagic));
  RunResults r;
  size_t count = 0;
  unsigned long long cycles = 0;
  if (std::sscanf(lines.need().c_str(), "cycles %llu", &cycles) != 1) lines.fail("expected cycles");
  r.cycles = cycles;
  if (std::sscanf(lines.need().c_str(), "layers %zu", &count) != 1) lines.fail("expected layers");
  for (size_t i = 0; i < count; ++i) {
    std::istringstream h(lines.need());
    std::string word;
    LayerResult l;
    if (!(h >> word >> l.name >> l.finished_at) || word != "layer") {
      lines.fail("expected 'layer NAME CYCLE'");
    }
    l.tensor = lines.tensor(lines.need(), "tensor");
    r.layers.push_back(std::move(l));
  }
  return r;
}

}  // namespace npugen::golden
