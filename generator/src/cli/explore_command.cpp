// npugen explore (docs/explore.md): sweeps configuration keys and reports, for each
// point, the golden model's cycles of a network (no RTL) and Yosys's cells and flip-flops of
// the generated NPU top (cached by manifest hash), the Pareto front of the two, and the best
// point under an area budget or a frame-rate target.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "blocks/block.hpp"
#include "blocks/npu/npu.hpp"
#include "cli/commands.hpp"
#include "explore/explore_report.hpp"
#include "explore/network_cost.hpp"
#include "explore/pareto.hpp"
#include "explore/sweep.hpp"
#include "explore/synth_cost.hpp"
#include "net/network_file.hpp"
#include "regress/suite.hpp"
#include "report/html.hpp"
#include "util/input_file.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"

namespace npugen::cli {
namespace {

namespace fs = std::filesystem;
using namespace npugen::explore;

constexpr const char* kExploreMarker = ".npugen-explore";

struct ExploreOptions {
  std::string config, network, out, cache, shard, html;
  std::vector<std::string> sweeps;
  std::optional<uint64_t> max_cells;
  std::optional<double> min_fps;
  unsigned jobs = 0;
  bool no_synth = false;
};

// The point's configuration validated and elaborated, and the network's golden cycles.
std::optional<elab::Design> evaluate(const std::string& base, const net::NetworkFile& nf,
                                     Point& p) {
  const std::string text = apply_settings(base, p);
  const auto loaded = blocks::load_config_text(text, "explore point " + p.label());
  if (!loaded.config) {
    p.status = "invalid";
    p.message = loaded.diagnostics.empty() ? "refused" : loaded.diagnostics.front().message;
    return std::nullopt;
  }
  elab::Design design = elab::elaborate(*loaded.config);
  p.config_hash = design.config_hash;
  const auto* b = design.find("npu");
  if (b == nullptr) {
    p.status = "invalid";
    p.message = "npu.enabled is false: no NPU top to run the network on";
    return std::nullopt;
  }
  const auto& npu = static_cast<const blocks::npu::Design&>(*b);
  try {
    const NetworkCost c = network_cost(npu.design, nf.network);
    p.batch = c.batch;
    p.cycles = c.cycles;
    p.cycles_per_image = c.cycles_per_image();
    p.images_per_second =
        p.cycles_per_image > 0 ? design.config.design.clock_mhz * 1e6 / p.cycles_per_image : 0;
  } catch (const compiler::CompileError& e) {
    p.status = "no_fit";
    p.message = e.what();
    return std::nullopt;
  }
  return design;
}

void explore(const ExploreOptions& o) {
  std::vector<Sweep> sweeps;
  Exploration e;
  try {
    for (const auto& s : o.sweeps) sweeps.push_back(parse_sweep(s));
  } catch (const std::invalid_argument& x) {
    throw CommandError(kBadInput, x.what());
  }
  for (const auto& s : sweeps) e.keys.push_back(s.key);
  if (o.max_cells && o.min_fps)
    throw CommandError(kBadInput, "--max-cells and --min-fps: give one constraint");
  if ((o.max_cells || o.min_fps) && (o.no_synth || !o.shard.empty()))
    throw CommandError(kBadInput,
                       "--max-cells and --min-fps need every point's cells: not with "
                       "--no-synth or --shard");
  std::pair<unsigned, unsigned> slice{1, 1};
  try {
    if (!o.shard.empty()) slice = regress::parse_shard(o.shard);
  } catch (const regress::SuiteError& x) {
    throw CommandError(kBadInput, x.what());
  }
  // Every output is checked before any work: none fails after another is written.
  const fs::path out = o.out.empty()
                           ? fs::path("generated") / "explore" / fs::path(o.network).stem()
                           : fs::path(o.out);
  check_output_folder("-o", out, kExploreMarker);
  if (!o.html.empty()) {
    check_output_folder("--html", o.html, report::kReportMarker);
    check_distinct("-o", out, "--html", o.html);
  }
  const fs::path cache =
      o.cache.empty() ? fs::path("generated") / "synth-cache" : fs::path(o.cache);
  if (!o.no_synth) {
    check_output_folder("--cache", cache, "");
    check_distinct("-o", out, "--cache", cache);
    if (!o.html.empty()) check_distinct("--html", o.html, "--cache", cache);
  }
  const auto base_loaded = blocks::load_config(o.config);
  if (!base_loaded.config) refuse(base_loaded.diagnostics, o.config);
  std::string base;
  try {
    base = util::read_input_file(o.config);
  } catch (const util::InputError& x) {
    throw CommandError(kBadInput, fmt::format("{}: {}", o.config, x.what()));
  }
  net::NetworkResult nr = net::read_network_file(o.network);
  if (!nr.file) refuse(nr.diagnostics, o.network);
  if (!nr.file->network.has_arithmetic) {
    throw CommandError(kBadInput, fmt::format("{}: the network has no weights (its cycles depend "
                                              "on them: give each conv and fc layer its weights)",
                                              o.network));
  }
  e.config = o.config;
  e.network = o.network;
  e.points = sweep_points(sweeps);
  const auto t0 = std::chrono::steady_clock::now();
  // Golden cycles in this process, in order; a key the schema does not know is a usage error.
  std::vector<std::optional<elab::Design>> designs(e.points.size());
  for (size_t i = 0; i < e.points.size(); ++i) {
    Point& p = e.points[i];
    if (i % slice.second != slice.first - 1) {
      p.status = "skipped";
      p.message = fmt::format("another shard's (--shard {})", o.shard);
      continue;
    }
    try {
      designs[i] = evaluate(base, *nr.file, p);
    } catch (const std::invalid_argument& x) {
      throw CommandError(kBadInput, x.what());
    } catch (const YAML::Exception& x) {
      throw CommandError(kBadInput, fmt::format("--sweep: {} is not YAML ({})", p.label(), x.msg));
    }
    if (p.status == "invalid" && p.message.find("unknown key") != std::string::npos) {
      throw CommandError(kBadInput, fmt::format("--sweep: {} ({})", p.message, o.config));
    }
  }
  // Synthesis in the pool: each point's NPU top, unless cached.
  if (!o.no_synth) {
    fs::create_directories(cache);
    std::atomic<size_t> next{0};
    auto worker = [&] {
      for (size_t i; (i = next++) < e.points.size();) {
        if (!designs[i]) continue;
        Point& p = e.points[i];
        SynthCost c;
        try {
          c = synth_cost(*designs[i], cache);
        } catch (const std::exception& x) {  // an unwritable cache, a full disk
          c.error = x.what();
        }
        p.manifest_hash = c.manifest_hash;
        if (!c.error.empty()) {
          p.status = "synth_failed";
          p.message = c.error;
          continue;
        }
        p.cells = c.cells, p.ffs = c.ffs, p.synth_cached = c.cached;
        p.synth_seconds = c.cached ? 0 : c.seconds;
        std::printf("  %-40s %12.1f cycles/image %10llu cells%s\n", p.label().c_str(),
                    p.cycles_per_image, static_cast<unsigned long long>(p.cells),
                    c.cached ? " (cached)" : fmt::format(" ({:.0f} s)", c.seconds).c_str());
        std::fflush(stdout);
      }
    };
    const unsigned n =
        std::max(1U, std::min<unsigned>(o.jobs != 0 ? o.jobs : util::available_cores(),
                                        static_cast<unsigned>(e.points.size())));
    std::vector<std::thread> threads;
    for (unsigned k = 0; k < n; ++k) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  mark_front(e.points);
  std::optional<size_t> chosen;
  if (o.max_cells) {
    e.constraint = fmt::format("max_cells {}", *o.max_cells);
    chosen = fastest_within(e.points, *o.max_cells);
  } else if (o.min_fps) {
    e.constraint = fmt::format("min_fps {}", *o.min_fps);
    chosen = smallest_reaching(e.points, *o.min_fps);
  }
  if (chosen) e.points[*chosen].chosen = true;
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  util::FileMap files;
  files[kExploreMarker] = "npugen explore output\n";
  files["explore.json"] = exploration_json(e).dump(1) + "\n";
  files["explore.csv"] = exploration_csv(e);
  if (!o.no_synth) files["pareto.svg"] = pareto_svg(e);
  util::write_tree_atomically(out, files, kExploreMarker, {});
  if (!o.html.empty()) {
    report::write_report_page(o.html, exploration_html(e));
  }
  size_t ok = 0, cached = 0;  // evaluated (and costed, with synthesis); from the cache
  for (const Point& p : e.points) ok += p.status == "ok", cached += p.synth_cached;
  std::printf("%zu points, %zu evaluated (%zu syntheses from the cache), %.1f s; %s\n",
              e.points.size(), ok, cached, e.seconds, out.string().c_str());
  for (const Point& p : e.points) {
    if (p.front) {
      std::printf("  Pareto: %-40s %12.1f cycles/image %10llu cells %8llu FFs\n", p.label().c_str(),
                  p.cycles_per_image, static_cast<unsigned long long>(p.cells),
                  static_cast<unsigned long long>(p.ffs));
    }
  }
  if (!e.constraint.empty()) {
    if (!chosen) {
      throw CommandError(
          kSimulationFailed,
          fmt::format("no point meets {} (explore.json has them all)", e.constraint));
    }
    const Point& p = e.points[*chosen];
    std::printf("chosen under %s: %s, %.1f cycles/image (%.0f images/s), %llu cells\n",
                e.constraint.c_str(), p.label().c_str(), p.cycles_per_image, p.images_per_second,
                static_cast<unsigned long long>(p.cells));
  }
}

}  // namespace

void add_explore_command(CLI::App& app) {
  static ExploreOptions o;
  auto* cmd = app.add_subcommand(
      "explore",
      "Sweep configuration keys; for each point the golden model's cycles of a network (no "
      "RTL) and Yosys's cells and flip-flops of the NPU top (cached by manifest hash), the "
      "Pareto front, and the best point under --max-cells or --min-fps (docs/explore.md). "
      "Exit status 1 when no point meets the constraint.");
  cmd->add_option("CONFIG", o.config, "Base configuration (npu.enabled)")->required();
  cmd->add_option("--network", o.network, "Network file with weights (docs/network.md)")
      ->check(non_empty())
      ->required();
  cmd->add_option("--sweep", o.sweeps,
                  "KEY=V1,V2,...: a dotted configuration key and its values (repeatable; "
                  "every combination is a point)");
  cmd->add_option("--max-cells", o.max_cells, "Pick the fastest point within this many cells")
      ->check(positive_integer());
  cmd->add_option("--min-fps", o.min_fps,
                  "Pick the smallest point reaching this many images per second")
      ->check(positive_number());
  cmd->add_option("--jobs,-j", o.jobs, "Syntheses at once (default: the cores)")
      ->check(unsigned_integer());
  cmd->add_option("-o,--out", o.out,
                  "Output folder: explore.json, explore.csv, pareto.svg (default: "
                  "generated/explore/<network>)")
      ->check(non_empty());
  cmd->add_option("--cache", o.cache,
                  "Synthesis cache folder, shared by runs and shards (default: "
                  "generated/synth-cache)")
      ->check(non_empty());
  cmd->add_option("--shard", o.shard, "i/n: only every n-th point from the i-th (fills the cache)")
      ->check(non_empty());
  cmd->add_option("--html", o.html, "Also write the HTML report, DIR/index.html")
      ->check(non_empty());
  cmd->add_flag("--no-synth", o.no_synth, "Golden-model cycles only (no Yosys)");
  cmd->callback([] { explore(o); });
}

}  // namespace npugen::cli
