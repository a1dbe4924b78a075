#include "explore/synth_cost.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "emit/design_emitter.hpp"
#include "util/input_file.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"

namespace npugen::explore {
namespace fs = std::filesystem;

namespace {

const nlohmann::json* npu_block(const nlohmann::json& manifest) {
  for (const auto& b : manifest.at("blocks")) {
    if (b.value("block", "") == "npu") return &b;
  }
  return nullptr;
}

// Yosys's version line: a record from another Yosys is not reused.
const std::string& yosys_version() {
  static const std::string v = [] {
    std::string s = util::capture_output({"yosys", "-V"});
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    return s;
  }();
  return v;
}

// The synthesis scripts flatten the design when NPUGEN_FLATTEN is set (other counts): part
// of the key.
std::string flatten() {
  const char* f = std::getenv("NPUGEN_FLATTEN");
  return f != nullptr && std::string(f) != "0" ? " flattened" : "";
}

}  // namespace

StatCounts parse_yosys_stat(const std::string& text) {
  // Yosys prints each module, then "=== design hierarchy ===" with the total; without a
  // hierarchy (one module) the only section is the total.
  StatCounts out;
  std::istringstream in(text);
  std::string line;
  bool hierarchy = text.find("=== design hierarchy ===") == std::string::npos;
  while (std::getline(in, line)) {
    if (line.find("=== design hierarchy ===") != std::string::npos) {
      hierarchy = true;
      out = {};
      continue;
    }
    if (!hierarchy) continue;
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "Number") {
      std::string of, cells;
      uint64_t n = 0;
      if (words >> of >> cells >> n && cells == "cells:") out.cells = n, out.found = true;
    } else if (first.find("DFF") != std::string::npos) {
      uint64_t n = 0;
      if (words >> n) out.ffs += n;
    }
  }
  return out;
}

std::string manifest_hash(const elab::Design& design) {
  const util::FileMap files = emit::emit_design(design);
  const nlohmann::json m = nlohmann::json::parse(files.at(emit::kManifest));
  const nlohmann::json* npu = npu_block(m);
  return util::sha256_hex(m.at("files").dump() + (npu ? npu->value("top", "") : "") + flatten());
}

SynthCost synth_cost(const elab::Design& design, const fs::path& cache) {
  SynthCost c;
  const util::FileMap files = emit::emit_design(design);
  const nlohmann::json m = nlohmann::json::parse(files.at(emit::kManifest));
  const nlohmann::json* npu = npu_block(m);
  if (npu == nullptr) {
    c.error = "the design has no NPU top (npu.enabled)";
    return c;
  }
  c.manifest_hash = util::sha256_hex(m.at("files").dump() + npu->value("top", "") + flatten());
  const fs::path record = cache / (c.manifest_hash + ".json");
  std::error_code ec;
  if (fs::exists(record, ec)) {
    try {
      // read_input_file: a named pipe in the cache is refused, never waited on
      const nlohmann::json r = nlohmann::json::parse(util::read_input_file(record));
      if (r.at("yosys") != yosys_version()) throw std::runtime_error("another Yosys");
      c.cells = r.at("cells");
      c.ffs = r.at("ffs");
      c.seconds = r.at("seconds");
      c.cached = true;
      return c;
    } catch (const std::exception&) {
      // a damaged record, or another Yosys's: synthesized again and rewritten
    }
  }
  // A work folder of this call's own: two threads or processes may synthesize one design at
  // once (the same point twice, shards sharing the cache); the record they write is the same.
  static std::atomic<unsigned> calls{0};
  const fs::path work =
      cache / "work" / fmt::format("{}.{}.{}", c.manifest_hash, getpid(), calls++);
  fs::create_directories(work.parent_path());
  emit::write_design(design, work);
  const std::string script = (work / npu->value("synthesis_script", "")).string();
  const fs::path stat = work / "npu_stat.txt";
  util::write_file_atomically(
      work / "explore.tcl",
      fmt::format("source {}\nyosys tee -q -o {} stat\n", script, stat.string()));
  const auto t0 = std::chrono::steady_clock::now();
  const int rc =
      util::run_program({"yosys", "-q", "-c", (work / "explore.tcl").string()}, work / "yosys.log");
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string text;
  try {
    text = util::read_file(stat);
  } catch (const util::OutputError&) {
  }
  const StatCounts counts = parse_yosys_stat(text);
  if (rc != 0 || !counts.found) {
    c.error =
        fmt::format("yosys (exit status {}): {}", rc, util::tail_of_file(work / "yosys.log", 3));
    return c;  // the work folder stays, for its log
  }
  c.cells = counts.cells;
  c.ffs = counts.ffs;
  util::write_file_atomically(record, nlohmann::json{{"top", npu->value("top", "")},
                                                     {"design", m.value("design", "")},
                                                     {"config_hash", m.value("config_hash", "")},
                                                     {"cells", c.cells},
                                                     {"ffs", c.ffs},
                                                     {"seconds", c.seconds},
                                                     {"yosys", yosys_version()}}
                                              .dump(1) +
                                          "\n");
  fs::remove_all(work, ec);
  return c;
}

}  // namespace npugen::explore
