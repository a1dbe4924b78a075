#include "timing/run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <regex>
#include <sstream>
#include <thread>

#include "util/input_file.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"

namespace npugen::timing {
namespace fs = std::filesystem;

Liberty read_liberty(const fs::path& file, const std::string& driving_cell) {
  std::string text;
  try {
    text = util::read_input_file(file);
  } catch (const util::InputError& e) {
    throw LibertyError(fmt::format("{}: {}", file.string(), e.what()));
  }
  Liberty lib;
  // The groups that matter, by their heads: library (NAME), cell (NAME), ff (...).
  static const std::regex head(R"re(\b(library|cell|ff)\s*\(\s*"?([A-Za-z0-9_$.\-]*)"?\s*[,)])re");
  std::string cell;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), head); it != std::sregex_iterator();
       ++it) {
    const std::string kind = (*it)[1], name = (*it)[2];
    if (kind == "library" && lib.name.empty()) {
      lib.name = name;
    } else if (kind == "cell") {
      cell = name;
      lib.cells.push_back(name);
    } else if (kind == "ff" && !cell.empty() &&
               (lib.flip_flops.empty() || lib.flip_flops.back() != cell)) {
      lib.flip_flops.push_back(cell);
    }
  }
  if (lib.name.empty()) {
    throw LibertyError(fmt::format("{}: not a liberty file (no library group)", file.string()));
  }
  // The tools' own readers decide whether it parses: OpenSTA's (which prints an error and
  // goes on), then Yosys's.
  const fs::path tmp = fs::temp_directory_path();
  const fs::path script = tmp / fmt::format("npugen-liberty-{}.tcl", ::getpid());
  const fs::path log = tmp / fmt::format("npugen-liberty-{}.log", ::getpid());
  util::write_file_atomically(script, fmt::format("read_liberty {{{}}}\n", file.string()));
  int rc = util::run_program({"sta", "-no_init", "-no_splash", "-exit", script.string()}, log);
  std::string said;
  try {
    std::istringstream in(util::read_file(log));
    for (std::string line; std::getline(in, line);) {
      if (said.empty() && line.rfind("Error", 0) == 0) said = line;
    }
  } catch (const util::OutputError&) {
  }
  if (rc == 0 && said.empty()) {
    rc = util::run_program({"yosys", "-q", "-p", "read_liberty -lib " + file.string()}, log);
    if (rc != 0) said = util::tail_of_file(log, 1);
  }
  std::error_code ec;
  fs::remove(log, ec);
  fs::remove(script, ec);
  if (rc != 0 || !said.empty()) {
    throw LibertyError(fmt::format("{}: does not parse: {}", file.string(),
                                   said.empty() ? "OpenSTA failed to read it" : said));
  }
  if (lib.cells.empty()) throw LibertyError(fmt::format("{}: has no cells", file.string()));
  if (lib.flip_flops.empty()) {
    throw LibertyError(fmt::format(
        "{}: has no flip-flop (no cell with an ff group): synthesis cannot map registers",
        file.string()));
  }
  if (std::find(lib.cells.begin(), lib.cells.end(), driving_cell) == lib.cells.end()) {
    throw LibertyError(
        fmt::format("{}: has no cell {}, the constraints' driving cell (timing.driving_cell)",
                    file.string(), driving_cell));
  }
  return lib;
}

double BlockTiming::fmax_mhz() const {
  if (!sta.setup.found) return 0;
  const double cycle = period_ns - sta.setup.slack_ns;
  return cycle > 0 ? 1000.0 / cycle : 0;
}

namespace {

BlockTiming run_one(const BlockScripts& b, const RunOptions& o) {
  BlockTiming t;
  t.block = b.block;
  t.top = b.top;
  t.period_ns = o.period_ns;
  const std::vector<std::string> env = {"env", "NPUGEN_LIBERTY=" + fs::absolute(o.liberty).string(),
                                        "NPUGEN_TIMING_OUT=" + fs::absolute(o.work).string(),
                                        "NPUGEN_DESIGN=" + fs::absolute(o.design).string()};
  const std::string stem = fs::path(b.synthesis).filename().string();
  const std::string name = stem.substr(0, stem.find(".synth.tcl"));
  const fs::path ylog = o.work / (name + ".yosys.log"), slog = o.work / (name + ".sta.log");
  auto argv = env;
  for (const char* a : {"yosys", "-q", "-l"}) argv.emplace_back(a);
  argv.push_back(ylog.string());
  argv.push_back("-c");
  argv.push_back((o.design / b.synthesis).string());
  auto t0 = std::chrono::steady_clock::now();
  int rc = util::run_program(argv, o.work / (name + ".yosys.out"));
  t.synth_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc != 0) {
    t.status = "error";
    t.message = fmt::format("yosys (exit status {}, log {}): {}", rc, ylog.string(),
                            util::tail_of_file(ylog, 2));
    return t;
  }
  try {
    t.stats = parse_stat(util::read_file(o.work / (name + ".stat")), o.flip_flops, o.macro_prefix);
  } catch (const util::OutputError&) {
  }
  argv = env;
  for (const char* a : {"sta", "-no_init", "-exit"}) argv.emplace_back(a);
  argv.push_back((o.design / b.sta).string());
  t0 = std::chrono::steady_clock::now();
  rc = util::run_program(argv, slog);
  t.sta_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string text;
  try {
    text = util::read_file(slog);
  } catch (const util::OutputError&) {
  }
  t.sta = parse_sta_log(text);
  if (rc != 0 || !t.sta.problems.empty() || !t.sta.setup.found) {
    // A netlist half read still reports paths: any complaint makes the result void.
    t.status = "error";
    t.message = fmt::format("OpenSTA (exit status {}, log {}): {}", rc, slog.string(),
                            t.sta.problems.empty() ? "no timing reported" : t.sta.problems.front());
    return t;
  }
  // Transitions over the limit and hold are reported, not judged: Yosys buffers no net ABC
  // does not see, and the clock is ideal; placement repairs transitions, and after the
  // clock tree is built, hold (delay cells on the short paths; the ones found here are a
  // flip-flop straight into a memory macro's address, 0.125 ns against its 0.1 ns hold and
  // the 0.1 ns hold uncertainty). No RTL change fixes a hold path, so the clock is met when
  // setup is.
  const bool met = t.sta.setup.slack_ns >= 0;
  t.status = met ? "met" : "violated";
  return t;
}

}  // namespace

std::vector<BlockTiming> run_blocks(const std::vector<BlockScripts>& blocks, const RunOptions& o) {
  std::vector<BlockTiming> out(blocks.size());
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < std::max(1U, std::min<unsigned>(o.jobs, blocks.size())); ++k) {
    pool.emplace_back([&] {
      for (size_t i = next++; i < blocks.size(); i = next++) out[i] = run_one(blocks[i], o);
    });
  }
  for (auto& th : pool) th.join();
  return out;
}

nlohmann::json to_json(const BlockTiming& t) {
  const auto path = [](const WorstPath& p) {
    return nlohmann::json{{"startpoint", p.startpoint},
                          {"endpoint", p.endpoint},
                          {"group", p.group},
                          {"slack_ns", p.slack_ns},
                          {"arrival_ns", p.arrival_ns},
                          {"required_ns", p.required_ns},
                          {"cells", p.cells},
                          {"start_instance", top_instance(p.startpoint)},
                          {"end_instance", top_instance(p.endpoint)}};
  };
  nlohmann::json j = {{"block", t.block},
                      {"top", t.top},
                      {"status", t.status},
                      {"period_ns", t.period_ns},
                      {"synthesis_seconds", t.synth_seconds},
                      {"sta_seconds", t.sta_seconds}};
  if (!t.message.empty()) j["message"] = t.message;
  if (t.status == "error") return j;
  j["wns_ns"] = std::min(0.0, t.sta.setup.slack_ns);
  j["setup_slack_ns"] = t.sta.setup.slack_ns;
  j["tns_ns"] = t.sta.tns_ns;
  j["setup_violations"] = t.sta.setup_violations;
  j["fmax_mhz"] = t.fmax_mhz();
  j["setup"] = path(t.sta.setup);
  if (t.sta.hold.found) j["hold"] = path(t.sta.hold);
  if (t.sta.reset.found) j["reset_recovery"] = path(t.sta.reset);
  j["unconstrained_endpoints"] = t.sta.unconstrained_endpoints;
  j["transition_violations"] = t.sta.transition_violations;
  j["worst_transition_ns"] = t.sta.worst_transition_ns;
  j["cells"] = t.stats.cells;
  j["flip_flops"] = t.stats.flip_flops;
  j["macros"] = t.stats.macros;
  j["area"] = t.stats.area;
  return j;
}

}  // namespace npugen::timing
