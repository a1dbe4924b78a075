#include "regress/pool.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "util/process.hpp"

namespace npugen::regress {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string last_lines(const std::string& log, int n) {
  std::string s = util::tail_of_file(log, n);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// `npugen ARGS...` under coreutils' timeout, which kills the job's whole process group (the
// build, the simulation) after the job's time, and 10 s later with SIGKILL.
std::vector<std::string> npugen_under_timeout(const PoolOptions& o,
                                              const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"timeout", "--kill-after=10", std::to_string(o.timeout_seconds),
                                   o.npugen};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

// The status of a child that ended with `rc` and did not say it passed.
void classify_exit(int rc, unsigned timeout_seconds, const std::string& log, Result& r) {
  if (rc == 124 || rc == 137) {
    r.status = "timeout";
    r.message = fmt::format("killed after {} s", timeout_seconds);
  } else {  // refused its input (2), or crashed (a signal, an abort)
    r.status = rc == 2 ? "error" : rc == 1 ? "fail" : "crash";
    r.message = fmt::format("exit status {}: {}", rc, last_lines(log, 3));
  }
}

// verilator --lint-only -Wall on the block's filelist (the design's manifest names it); it
// passes when Verilator prints nothing.
void lint(const Job& j, const fs::path& design, unsigned timeout_seconds, Result& r) {
  std::string filelist;
  const nlohmann::json m = read_json_or_null((design / "manifest.json").string());
  if (m.is_object()) {
    r.config_hash = m.value("config_hash", "");
    for (const auto& b : m.value("blocks", nlohmann::json::array())) {
      if (b.value("block", "") == j.block) filelist = (design / b.value("filelist", "")).string();
    }
  }
  if (filelist.empty()) {
    r.status = "error";
    r.message =
        fmt::format("{}: the manifest names no filelist of block {}", design.string(), j.block);
    return;
  }
  r.reproduce = fmt::format("verilator --lint-only -Wall -F {}", filelist);
  const auto s0 = Clock::now();
  const int rc = util::run_program({"timeout", "--kill-after=10", std::to_string(timeout_seconds),
                                    "verilator", "--lint-only", "-Wall", "-F", filelist},
                                   fs::path(r.log));
  r.seconds = since(s0);
  const std::string said = last_lines(r.log, 5);
  r.status = rc == 124 || rc == 137 ? "timeout" : rc == 0 && said.empty() ? "pass" : "fail";
  if (!r.passed()) r.message = fmt::format("lint (exit status {}): {}", rc, said);
}

void sim(const Job& j, const fs::path& design, const PoolOptions& o, Result& r) {
  const fs::path summary = o.work / "logs" / (j.name() + ".json");
  r.details = summary.string();
  std::vector<std::string> argv =
      npugen_under_timeout(o, {"sim", j.config, "-o", design.string(), "--block", j.block, "--seed",
                               std::to_string(j.seed), "--summary", summary.string()});
  if (j.cycles != 0) argv.insert(argv.end(), {"--cycles", std::to_string(j.cycles)});
  r.reproduce = fmt::format("npugen sim {} --block {} --seed {}{}", j.config, j.block, j.seed,
                            j.cycles ? fmt::format(" --cycles {}", j.cycles) : "");
  fs::remove(summary);
  const auto s0 = Clock::now();
  const int rc = util::run_program(argv, fs::path(r.log));
  r.seconds = since(s0);
  const nlohmann::json s = read_json_or_null(summary.string());
  if (s.is_object()) {
    r.cycles = s.value("cycles", uint64_t{0});
    r.config_hash = s.value("config_hash", "");
    if (!s.value("reproduce", std::string()).empty()) r.reproduce = s["reproduce"];
  }
  if (rc == 0 && s.is_object() && s.value("status", "") == "pass") {
    r.status = "pass";
  } else if (s.is_object() && rc != 124 && rc != 137) {
    r.status = "fail";
    r.message = fmt::format("{} (exit status {})", s.value("status", "?"), rc);
  } else {
    classify_exit(rc, o.timeout_seconds, r.log, r);
    if (!s.is_object() && r.status == "fail") r.status = "crash";  // no summary
  }
}

void network(const Job& j, const fs::path& design, const PoolOptions& o, Result& r) {
  const fs::path out = o.work / "runs" / j.name();
  r.details = (out / "stats.json").string();
  // A network file, or a quantized ONNX model (.onnx).
  const char* as = fs::path(j.network).extension() == ".onnx" ? "--onnx" : "--network";
  std::vector<std::string> argv =
      npugen_under_timeout(o, {"run", j.config, as, j.network, "--input", j.input, "--design",
                               design.string(), "--out", out.string()});
  r.reproduce = fmt::format("npugen run {} {} {} --input {}", j.config, as, j.network, j.input);
  if (!j.labels.empty()) {
    argv.insert(argv.end(), {"--labels", j.labels});
    r.reproduce += " --labels " + j.labels;
  }
  fs::remove(r.details);
  const auto s0 = Clock::now();
  const int rc = util::run_program(argv, fs::path(r.log));
  r.seconds = since(s0);
  const nlohmann::json stats = read_json_or_null(r.details);
  const nlohmann::json m = read_json_or_null((design / "manifest.json").string());
  if (m.is_object()) r.config_hash = m.value("config_hash", "");
  if (stats.is_object() && stats.contains("total"))
    r.cycles = stats["total"].value("cycles", uint64_t{0});
  if (rc == 0 && stats.is_object()) {
    r.status = "pass";
  } else {
    classify_exit(rc == 0 ? 1 : rc, o.timeout_seconds, r.log, r);
  }
}

// npugen timing of one block into DIR.work/timing/<job>: it passes when the block meets the
// design's clock (exit status 0); the message gives the slack, the fmax estimate and the
// critical path whether it passed or not.
void timing(const Job& j, const PoolOptions& o, Result& r) {
  const fs::path out = o.work / "timing" / j.name();
  r.details = (out / "timing.json").string();
  r.reproduce = fmt::format("npugen timing {} --block {}", j.config, j.block);
  fs::remove(r.details);
  const auto s0 = Clock::now();
  const int rc = util::run_program(npugen_under_timeout(o, {"timing", j.config, "--block", j.block,
                                                            "-j", "1", "-o", out.string()}),
                                   fs::path(r.log));
  r.seconds = since(s0);
  const nlohmann::json t = read_json_or_null(r.details);
  const nlohmann::json* b = nullptr;
  if (t.is_object()) r.config_hash = t.value("config_hash", "");
  if (t.is_object() && t.contains("blocks") && t["blocks"].is_array() && !t["blocks"].empty())
    b = &t["blocks"][0];
  if (b != nullptr && b->contains("setup")) {
    const nlohmann::json& s = (*b)["setup"];
    r.message =
        fmt::format("setup slack {:.3f} ns at {} MHz, fmax {:.1f} MHz; {} -> {}",
                    s.value("slack_ns", 0.0), t.value("clock_mhz", 0.0), b->value("fmax_mhz", 0.0),
                    s.value("startpoint", std::string("?")), s.value("endpoint", std::string("?")));
  }
  if (rc == 0 && b != nullptr) {
    r.status = "pass";
  } else if (rc == 1 && b != nullptr) {
    r.status = "fail";
  } else if (rc == 0 || rc == 1) {  // an exit status without its report
    r.status = "crash";
    r.message = fmt::format("exit status {} without {}: {}", rc, r.details, last_lines(r.log, 3));
  } else {
    const std::string said = r.message;
    classify_exit(rc, o.timeout_seconds, r.log, r);
    if (r.status == "crash" && rc == 3) r.status = "error";  // Yosys or OpenSTA failed
    if (!said.empty()) r.message += "; " + said;
  }
}

}  // namespace

std::vector<std::vector<size_t>> job_groups(const std::vector<Job>& jobs) {
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
  for (size_t i = 0; i < jobs.size(); ++i) groups[{jobs[i].design, jobs[i].block}].push_back(i);
  std::vector<std::vector<size_t>> out;
  for (auto& [key, list] : groups) out.push_back(std::move(list));
  // The longest groups first, so that the pool does not end on one long group alone.
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return out;
}

std::vector<Result> run_jobs(const std::vector<Job>& jobs, const PoolOptions& o) {
  fs::create_directories(o.work / "logs");
  std::vector<Result> results(jobs.size());
  // Each design generated once (its co-simulation project holds the verilated builds).
  std::map<std::string, std::string> broken;  // design -> why it did not generate
  std::set<std::string> generated;
  for (const Job& j : jobs) {
    if (!generated.insert(j.design).second) continue;
    const fs::path log = o.work / "logs" / (j.design + ".generate.log");
    const int rc = util::run_program(
        npugen_under_timeout(
            o, {"generate", j.config, "-o", (o.work / "designs" / j.design).string()}),
        log);
    if (rc != 0) broken[j.design] = fmt::format("npugen generate: {}", last_lines(log.string(), 3));
  }
  const auto groups = job_groups(jobs);
  std::atomic<size_t> next{0}, done{0}, failures{0};
  std::mutex print;
  const auto t0 = Clock::now();
  auto worker = [&] {
    for (size_t g; (g = next++) < groups.size();) {
      for (const size_t i : groups[g]) {
        const Job& j = jobs[i];
        Result& r = results[i];
        r.job = j;
        r.log = (o.work / "logs" / (j.name() + ".log")).string();
        const fs::path design = o.work / "designs" / j.design;
        if (const auto b = broken.find(j.design); b != broken.end()) {
          r.status = "error";
          r.message = b->second;
          r.log = (o.work / "logs" / (j.design + ".generate.log")).string();
          r.reproduce = fmt::format("npugen generate {}", j.config);
        } else if (j.kind == JobKind::kLint) {
          lint(j, design, o.timeout_seconds, r);
        } else if (j.kind == JobKind::kNetwork) {
          network(j, design, o, r);
        } else if (j.kind == JobKind::kTiming) {
          timing(j, o, r);
        } else {
          sim(j, design, o, r);
        }
        failures += !r.passed();
        const size_t d = ++done;
        if (o.progress) {
          const double eta =
              since(t0) / static_cast<double>(d) * static_cast<double>(jobs.size() - d);
          const std::lock_guard<std::mutex> lock(print);
          std::printf("\r[%-30s] %zu/%zu done, %zu failed, ETA %.0f s ",
                      std::string(30 * d / jobs.size(), '#').c_str(), d, jobs.size(),
                      failures.load(), eta);
          std::fflush(stdout);
        }
      }
    }
  };
  const unsigned pool =
      std::max(1U, std::min<unsigned>(o.jobs, static_cast<unsigned>(groups.size())));
  // Each co-simulation build compiles with JOBS processes (the sim Makefile's variable, 2 by
  // default): the cores shared among the jobs at once, so that the pool does not run
  // `pool` x 2 compilers on the cores. A JOBS the user set is kept.
  const unsigned cores = util::available_cores();
  setenv("JOBS", std::to_string(std::max(1U, cores / pool)).c_str(), 0);
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < pool; ++k) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (o.progress) std::printf("\n");
  return results;
}

}  // namespace npugen::regress
