// npugen timing (docs/timing.md): generate a design, synthesize each block's top to a
// liberty's cells (memories as macros or flip-flops, as timing.memory_macro_bits says),
// time each netlist with OpenSTA against the block's SDC, and report per block WNS, TNS,
// an fmax estimate, the critical path and the cells. Exit status 1 when a block misses its
// clock.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "blocks/block.hpp"
#include "cli/commands.hpp"
#include "emit/design_emitter.hpp"
#include "timing/run.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"

namespace npugen::cli {
namespace {
namespace fs = std::filesystem;

constexpr const char* kTimingMarker = ".npugen-timing";
constexpr const char* kDefaultLiberty = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib";

struct TimingOptions {
  std::string config, out, liberty = kDefaultLiberty;
  std::vector<std::string> blocks;
  unsigned jobs = 0;
  bool json = false;
};

std::string table(const elab::Design& design, const std::vector<timing::BlockTiming>& results,
                  const std::string& liberty) {
  std::string s = fmt::format(
      "{} at {:g} MHz ({:.3f} ns) on {}\n\n| block | status | setup slack ns | TNS ns | fmax MHz | "
      "hold "
      "slack ns | cells | flip-flops | macros | area | critical path (start -> end, cells) |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
      design.config.design.name, design.config.design.clock_mhz, design.clock_period_ns, liberty);
  for (const timing::BlockTiming& t : results) {
    if (t.status == "error") {
      s += fmt::format("| {} | error | | | | | | | | | {} |\n", t.block, t.message);
      continue;
    }
    s += fmt::format(
        "| {} | {} | {:.3f} | {:.3f} | {:.1f} | {} | {} | {} | {} | {:.0f} | {} -> {}, "
        "{} |\n",
        t.block, t.status, t.sta.setup.slack_ns, t.sta.tns_ns, t.fmax_mhz(),
        t.sta.hold.found ? fmt::format("{:.3f}", t.sta.hold.slack_ns) : "", t.stats.cells,
        t.stats.flip_flops, t.stats.macros, t.stats.area, t.sta.setup.startpoint,
        t.sta.setup.endpoint, t.sta.setup.cells);
  }
  // What placement repairs: the reset's tree and the nets synthesis left unbuffered.
  s += "\n| block | reset recovery slack ns (unbuffered) | pins over timing.max_transition_ns "
       "(worst ns) |\n|---|---:|---|\n";
  for (const timing::BlockTiming& t : results) {
    if (t.status == "error") continue;
    s += fmt::format("| {} | {} | {} ({:.2f}) |\n", t.block,
                     t.sta.reset.found ? fmt::format("{:.3f}", t.sta.reset.slack_ns) : "",
                     t.sta.transition_violations, t.sta.worst_transition_ns);
  }
  return s;
}

void run(const TimingOptions& o) {
  const elab::Design design = load_design(o.config);
  const fs::path out = o.out.empty() ? fs::path("generated") / "timing" / design.config.design.name
                                     : fs::path(o.out);
  check_output_folder("-o", out, kTimingMarker);
  check_input_file("--liberty", o.liberty);
  for (const char* tool : {"yosys", "sta"}) {
    if (!util::find_program(tool)) {
      throw CommandError(kBadInput, fmt::format("{} is not on PATH (README: setup)", tool));
    }
  }
  timing::Liberty lib;
  try {
    lib = timing::read_liberty(o.liberty, design.config.timing.driving_cell);
  } catch (const timing::LibertyError& e) {
    throw CommandError(kBadInput, e.what());
  }
  // The blocks: every one the design generates, or those named.
  std::vector<timing::BlockScripts> scripts;
  const util::FileMap files = emit::emit_design(design);
  const nlohmann::json manifest = nlohmann::json::parse(files.at(emit::kManifest));
  for (const std::string& want : o.blocks) {
    bool known = false;
    for (const auto& b : manifest.at("blocks")) known = known || b.at("block") == want;
    if (!known) {
      std::string names;
      for (const auto& b : manifest.at("blocks")) {
        names += (names.empty() ? "" : ", ") + b.at("block").get<std::string>();
      }
      throw CommandError(kBadInput, fmt::format("--block {}: {} generates no such block ({})", want,
                                                o.config, names));
    }
  }
  for (const auto& b : manifest.at("blocks")) {
    const std::string name = b.at("block");
    if (!o.blocks.empty() && std::find(o.blocks.begin(), o.blocks.end(), name) == o.blocks.end()) {
      continue;
    }
    scripts.push_back(
        {name, b.at("top"), b.at("timing").at("synthesis"), b.at("timing").at("sta")});
  }
  // The work: the design folder and the tools' outputs, in the output folder.
  fs::create_directories(out);
  util::write_file_atomically(out / kTimingMarker, "npugen timing\n");
  const fs::path dir = out / "design", work = out / "work";
  try {
    emit::write_design(design, dir);
  } catch (const util::OutputError& e) {
    throw CommandError(kBadInput, e.what());
  }
  fs::create_directories(work);
  timing::RunOptions r;
  r.design = dir;
  r.work = work;
  r.liberty = o.liberty;
  r.macro_prefix = design.config.design.module_prefix + "_macro_";
  r.flip_flops = lib.flip_flops;
  r.period_ns = design.clock_period_ns;
  r.jobs = o.jobs == 0 ? util::available_cores() : o.jobs;
  if (!o.json) {
    std::fprintf(stderr, "npugen timing: %zu block(s) of %s on %s, %u at once\n", scripts.size(),
                 design.config.design.name.c_str(), o.liberty.c_str(), r.jobs);
  }
  const std::vector<timing::BlockTiming> results = timing::run_blocks(scripts, r);

  nlohmann::json report = {{"design", design.config.design.name},
                           {"config_hash", design.config_hash},
                           {"clock_mhz", design.config.design.clock_mhz},
                           {"period_ns", design.clock_period_ns},
                           {"liberty", o.liberty},
                           {"library", lib.name},
                           {"memory_macro_bits", design.config.timing.memory_macro_bits},
                           {"blocks", nlohmann::json::array()}};
  bool failed = false, met = true;
  for (const timing::BlockTiming& t : results) {
    report["blocks"].push_back(timing::to_json(t));
    failed = failed || t.status == "error";
    met = met && t.status == "met";
  }
  report["met"] = met && !failed;
  const std::string text = table(design, results, o.liberty);
  util::write_file_atomically(out / "timing.json", report.dump(2) + "\n");
  util::write_file_atomically(out / "timing.md", text);
  if (o.json) {
    std::printf("%s\n", report.dump(2).c_str());
  } else {
    std::printf("%s\nreport: %s\n", text.c_str(), (out / "timing.md").string().c_str());
  }
  if (failed) throw CommandError(kToolFailed, "a timing tool failed (see the report)");
  if (!met) throw CommandError(kSimulationFailed, "a block misses its clock");
}

}  // namespace

void add_timing_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "timing",
      "Static timing analysis of a design (docs/timing.md): each block's top synthesized by "
      "Yosys to a liberty's cells (memories of at least timing.memory_macro_bits bits as "
      "black-box macros with the timing of the timing section, smaller ones as flip-flops) and "
      "timed by OpenSTA against the block's SDC; per block WNS, TNS, an fmax estimate, hold "
      "slack, the critical path, cells, flip-flops and area, in DIR/timing.md and "
      "DIR/timing.json. Exit status 1 when a block misses design.clock_mhz.");
  static TimingOptions o;
  cmd->add_option("CONFIG", o.config, "YAML configuration file")->required();
  cmd->add_option("-o,--out", o.out,
                  "Output folder: the design, netlists, logs and the reports (default: "
                  "generated/timing/<design>)")
      ->check(non_empty());
  cmd->add_option("--liberty", o.liberty,
                  "Liberty of the standard cells (default: Debian's qflow-tech-osu018, "
                  "OSU 0.18 um)")
      ->check(non_empty());
  cmd->add_option("--block", o.blocks, "Only this block (repeatable; default: every block)");
  cmd->add_option("-j,--jobs", o.jobs, "Blocks synthesized at once (default: the cores)")
      ->check(positive_integer());
  cmd->add_flag("--json", o.json, "Print the JSON report instead of the table");
  cmd->callback([] { run(o); });
}

}  // namespace npugen::cli
