// npugen regress (docs/regress.md): a suite's tier of co-simulation, lint, network and
// timing jobs in a local pool, as shards, or as a Slurm job array; reports as JSON, JUnit
// XML, a summary table and an HTML page.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "blocks/block.hpp"
#include "blocks/random_config.hpp"
#include "cli/commands.hpp"
#include "regress/html_report.hpp"
#include "regress/pool.hpp"
#include "regress/slurm.hpp"
#include "report/html.hpp"
#include "util/input_file.hpp"
#include "util/output_tree.hpp"
#include "util/process.hpp"

namespace npugen::cli {
namespace {

namespace fs = std::filesystem;
using namespace npugen::regress;

constexpr const char* kRegressMarker = ".npugen-regress";

struct RegressOptions {
  std::string suite, tier = "smoke", out, rerun, shard, html, slurm, partition,
                     random_scope = "small";
  unsigned random_n = 0, jobs = 0, timeout = 1800, shards = 4;
  bool list = false;
  uint64_t seed = 1;
  std::vector<std::string> merge;
};

// The report folders, refused before any work: -o DIR (an earlier report or new) and the
// HTML page's folder.
void check_reports(const fs::path& dir, const std::string& html) {
  check_output_folder("-o", dir, kRegressMarker);
  if (!html.empty()) {
    check_output_folder("--html", html, report::kReportMarker);
    check_distinct("-o", dir, "--html", html);
  }
}

// results.json, junit.xml and summary.txt in `dir` (atomically), the HTML page in `html`
// if given; the summary printed.
void write_reports(const fs::path& dir, const Run& run, const std::string& html) {
  util::FileMap files;
  files[kRegressMarker] = "npugen regress output\n";
  files["results.json"] = results_json(run).dump(1) + "\n";
  files["junit.xml"] = junit_xml(run);
  files["summary.txt"] = summary_table(run);
  util::write_tree_atomically(dir, files, kRegressMarker, {});
  if (!html.empty()) {
    report::write_report_page(html, html_report(run, html));
  }
  std::printf("%s", files["summary.txt"].c_str());
}

// N random valid configurations, each written (with its seed) into `where`; a lint job and
// a co-simulation for every block each enables.
// `full`: drawn over the schema's whole ranges (large arrays and memories); otherwise sizes
// that verilate and co-simulate in seconds.
std::vector<Job> random_jobs(unsigned n, uint64_t seed, bool full, const fs::path& where) {
  fs::create_directories(where);
  std::mt19937_64 rng(seed);
  std::vector<Job> jobs;
  for (unsigned k = 0; k < n; ++k) {
    const std::string name = fmt::format("rand_{}_{}", seed, k);
    const auto drawn = blocks::random_config(rng, name, {.small = !full});
    const fs::path file = where / (name + ".yaml");
    util::write_file_atomically(
        file, fmt::format("# npugen random configuration: seed {}, draw {} (npugen regress "
                          "--random {} --seed {}{})\n{}",
                          seed, k, n, seed, full ? " --random-scope full" : "", drawn.yaml));
    const auto loaded = blocks::load_config_text(drawn.yaml, file.string());
    if (!loaded.config) throw CommandError(kToolFailed, file.string() + ": drawn invalid");
    for (const auto* b : blocks::generated(*loaded.config)) {
      Job j;
      j.config = file.string(), j.block = std::string(b->name()), j.design = name;
      j.kind = JobKind::kLint;
      jobs.push_back(j);
      j.kind = JobKind::kSim;
      jobs.push_back(j);
    }
  }
  return jobs;
}

// What a suite's jobs name that no job could run, found before any job runs: a block npugen
// does not have, one the design does not generate (a network run needs the NPU top), a
// configuration that is not valid. Each printed as suite:line: error: ...; bad input if any.
void check_jobs(const std::string& suite, const std::vector<Job>& jobs) {
  std::string all_blocks;
  for (const auto* b : blocks::all()) {
    all_blocks += fmt::format("{}{}", all_blocks.empty() ? "" : ", ", b->name());
  }
  // Each configuration once: its blocks, or its first problem.
  struct Loaded {
    std::vector<std::string> blocks;
    std::string problem;
  };
  std::map<std::string, Loaded> loaded;
  std::set<std::string> said;
  size_t errors = 0;
  auto error = [&](int line, const std::string& what) {
    const std::string m = fmt::format("{}:{}: error: {}", suite, line, what);
    if (said.insert(m).second) {
      std::fprintf(stderr, "%s\n", m.c_str());
      ++errors;
    }
  };
  for (const Job& j : jobs) {
    const std::string key = j.config.empty() ? j.inline_config : j.config;
    auto it = loaded.find(key);
    if (it == loaded.end()) {
      const std::string name =
          j.config.empty() ? fmt::format("the inline configuration of {}", j.design) : j.config;
      const config::LoadResult r = j.config.empty()
                                       ? blocks::load_config_text(j.inline_config, name)
                                       : blocks::load_config(j.config);
      Loaded l;
      if (r.config) {
        for (const auto* b : blocks::generated(*r.config)) l.blocks.emplace_back(b->name());
      } else {
        l.problem = fmt::format("{} is not a valid configuration ({}{})", name,
                                r.diagnostics.empty() ? "refused" : r.diagnostics.front().format(),
                                r.diagnostics.size() > 1 ? ", ..." : "");
      }
      it = loaded.emplace(key, std::move(l)).first;
    }
    const Loaded& l = it->second;
    if (!l.problem.empty()) {
      error(j.config_line, l.problem);
      continue;
    }
    if (j.kind != JobKind::kNetwork && blocks::find(j.block) == nullptr) {
      error(j.block_line, fmt::format("no block '{}' (blocks: {})", j.block, all_blocks));
      continue;
    }
    if (std::find(l.blocks.begin(), l.blocks.end(), j.block) == l.blocks.end()) {
      std::string have;
      for (const auto& b : l.blocks) have += fmt::format("{}{}", have.empty() ? "" : ", ", b);
      error(j.block_line,
            fmt::format("design {} does not generate {}{} (its blocks: {})", j.design, j.block,
                        j.kind == JobKind::kNetwork ? ", the NPU top a network runs on" : "",
                        have.empty() ? "none" : have));
    }
  }
  if (errors != 0) {
    throw CommandError(kBadInput, fmt::format("{} error(s) in {}; no job was run", errors, suite));
  }
}

// Jobs whose earlier result (results.json) is not a pass.
// (Job names are unique within a tier, and do not depend on where the run started.)
std::vector<Job> failed_only(const std::vector<Job>& jobs, const std::string& file,
                             const Run& run) {
  Run prior;
  try {
    prior = read_results_json(file);
  } catch (const std::exception& e) {
    throw CommandError(kBadInput, e.what());
  }
  if (prior.suite != run.suite || prior.tier != run.tier) {
    throw CommandError(kBadInput, fmt::format("{}: a run of {} tier {}, not of {} tier {}", file,
                                              prior.suite, prior.tier, run.suite, run.tier));
  }
  std::set<std::string> failed;
  for (const Result& r : prior.results) {
    if (!r.passed()) failed.insert(r.job.name());
  }
  std::vector<Job> out;
  for (const Job& j : jobs) {
    if (failed.erase(j.name()) != 0) out.push_back(j);
  }
  if (!failed.empty()) {
    throw CommandError(kBadInput, fmt::format("{}: failed job {} is not in this tier (or shard)",
                                              file, *failed.begin()));
  }
  return out;
}

void slurm(const RegressOptions& o) {
  if (o.suite.empty()) throw CommandError(kBadInput, "--slurm needs a suite file");
  if (o.shards == 0) throw CommandError(kBadInput, "--shards: at least 1");
  check_output_folder("--slurm", o.slurm, kSlurmMarker);
  try {
    // a bad suite is refused now, not on the cluster
    check_jobs(o.suite, read_suite(o.suite, o.tier));
  } catch (const SuiteError&) {
    throw CommandError(kBadInput, "");
  }
  SlurmPlan p;
  p.npugen = fs::read_symlink("/proc/self/exe").string();
  p.suite = fs::absolute(o.suite).lexically_normal().string();
  p.tier = o.tier;
  p.dir = fs::absolute(o.slurm).lexically_normal().string();
  p.shards = o.shards;
  p.cpus = o.jobs != 0 ? o.jobs : 2;
  p.timeout_seconds = o.timeout;
  p.partition = o.partition;
  util::write_tree_atomically(p.dir, slurm_files(p), kSlurmMarker, slurm_kept_folders(p));
  std::printf(
      "%s: %u shards of %s tier %s, %u CPUs each; submit with: sh %s/submit.sh (the merged "
      "report: %s/merged)\n",
      p.dir.c_str(), p.shards, p.suite.c_str(), p.tier.c_str(), p.cpus, p.dir.c_str(),
      p.dir.c_str());
}

void run(RegressOptions& o) {
  if (!o.slurm.empty()) return slurm(o);
  if (!o.merge.empty()) {
    if (o.out.empty()) throw CommandError(kBadInput, "--merge needs -o DIR");
    check_reports(o.out, o.html);
    std::vector<std::string> files;
    for (size_t i = 0; i < o.merge.size(); ++i) {
      for (size_t k = 0; k < i; ++k) check_distinct("--merge", o.merge[k], "--merge", o.merge[i]);
      check_distinct("--merge", o.merge[i], "-o", o.out);
      files.push_back((fs::path(o.merge[i]) / "results.json").string());
    }
    Run merged;
    try {
      merged = merge_runs(files);
    } catch (const std::exception& e) {
      throw CommandError(kBadInput, e.what());
    }
    write_reports(o.out, merged, o.html);
    if (merged.failures() != 0)
      throw CommandError(kSimulationFailed, fmt::format("{} job(s) failed", merged.failures()));
    return;
  }
  if (o.suite.empty() && o.random_n == 0)
    throw CommandError(kBadInput, "give a suite file (or --random N, or --merge)");
  if (!o.suite.empty() && o.random_n != 0)
    throw CommandError(kBadInput, "--random takes no suite file");
  std::pair<unsigned, unsigned> slice{1, 1};
  std::vector<Job> jobs;
  Run run;
  try {
    if (!o.shard.empty()) slice = parse_shard(o.shard);
  } catch (const SuiteError& e) {
    throw CommandError(kBadInput, e.what());
  }
  if (!o.rerun.empty()) check_input_file("--rerun-failed", o.rerun);
  try {
    if (o.random_n != 0) {
      run.suite = fmt::format("random_{}", o.seed);
      run.tier = fmt::format("{} configurations", o.random_n);
    } else {
      run.suite = fs::path(o.suite).stem().string();
      run.tier = o.tier;
      jobs = read_suite(o.suite, o.tier);
    }
  } catch (const SuiteError& e) {
    throw CommandError(kBadInput, "");  // read_suite printed file:line: error: ...
  }
  if (o.random_n == 0) check_jobs(o.suite, jobs);
  fs::path dir = (o.out.empty() ? fs::path("generated") / "regress" / run.suite : fs::path(o.out))
                     .lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // out/ is out
  const fs::path work = dir.parent_path() / (dir.filename().string() + ".work");
  // The reports replace only an earlier report: refused now, not after hours of jobs.
  check_reports(dir, o.html);
  check_output_folder("-o", work, "");  // the work folder beside it: DIR.work
  check_distinct("--html", o.html, "-o", work);
  // The draws are written into the work folder: a failing one is there with its seed.
  if (o.random_n != 0)
    jobs = random_jobs(o.random_n, o.seed, o.random_scope == "full", work / "random");
  materialize_inline(jobs, work / "configs");
  jobs = shard_of(jobs, slice);
  if (!o.rerun.empty()) jobs = failed_only(jobs, o.rerun, run);
  if (o.list) {
    for (const Job& j : jobs) {
      std::printf("%-8s %-32s %-10s %s\n", kind_name(j.kind).c_str(), j.design.c_str(),
                  j.block.c_str(), j.variant().c_str());
    }
    std::printf("%zu jobs in %zu groups (a design and block each)\n", jobs.size(),
                job_groups(jobs).size());
    return;
  }
  PoolOptions pool;
  pool.work = work;
  pool.npugen = fs::read_symlink("/proc/self/exe").string();
  pool.jobs = o.jobs != 0 ? o.jobs : util::available_cores();
  pool.timeout_seconds = o.timeout;
  pool.progress = isatty(fileno(stdout)) != 0;
  const auto t0 = std::chrono::steady_clock::now();
  run.results = run_jobs(jobs, pool);
  run.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.jobs_at_once =
      std::max(1U, std::min<unsigned>(pool.jobs, static_cast<unsigned>(job_groups(jobs).size())));
  write_reports(dir, run, o.html);
  std::printf("results: %s (logs and designs: %s)\n", dir.string().c_str(), work.string().c_str());
  if (run.failures() != 0)
    throw CommandError(kSimulationFailed, fmt::format("{} job(s) failed", run.failures()));
}

}  // namespace

void add_regress_command(CLI::App& app) {
  static RegressOptions o;
  auto* cmd = app.add_subcommand(
      "regress",
      "Run a suite's tier of co-simulation, lint, network and timing jobs (configurations x "
      "blocks x seeds, networks, and blocks timed at the design's clock) in a local pool, each "
      "design generated and verilated once; results.json, junit.xml, a summary and an HTML "
      "report (docs/regress.md). Exit status 1 when a job failed.");
  cmd->add_option("SUITE", o.suite, "Suite file (YAML: tiers of entries)");
  cmd->add_option("--tier", o.tier, "Tier to run")->capture_default_str();
  cmd->add_option("--jobs,-j", o.jobs, "Jobs at once (default: the cores; with --slurm, 2)")
      ->check(unsigned_integer());
  cmd->add_option("-o,--out", o.out, "Output folder (default: generated/regress/<suite>)")
      ->check(non_empty());
  cmd->add_option("--timeout", o.timeout, "Seconds a job may run before it is killed")
      ->check(positive_integer())
      ->capture_default_str();
  cmd->add_option("--rerun-failed", o.rerun, "results.json of an earlier run: its failures only")
      ->check(non_empty());
  cmd->add_option("--shard", o.shard, "i/n: only every n-th job from the i-th (1-based)")
      ->check(non_empty());
  CLI::Option* random =
      cmd->add_option("--random", o.random_n,
                      "Instead of a suite: N random valid configurations, each generated, linted "
                      "and co-simulated in every block it enables")
          ->check(positive_integer());
  cmd->add_option("--random-scope", o.random_scope,
                  "small: sizes that verilate and co-simulate in seconds; full: the schema's "
                  "whole ranges (arrays to 65,536 multipliers, large memories)")
      ->check(CLI::IsMember({"small", "full"}))
      ->needs(random)
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed of --random's draw")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--merge", o.merge, "Join earlier runs' results (their folders) into one report")
      ->check(non_empty());
  cmd->add_option("--html", o.html, "Also write the HTML report, DIR/index.html")
      ->check(non_empty());
  cmd->add_option("--slurm", o.slurm,
                  "Write Slurm batch scripts for the tier into DIR (a job array of --shards "
                  "shards and a merge job after them) instead of running it")
      ->check(non_empty());
  cmd->add_option("--shards", o.shards, "With --slurm: the number of shards")
      ->check(positive_integer())
      ->capture_default_str();
  cmd->add_option("--partition", o.partition, "With --slurm: the Slurm partition")
      ->check(non_empty());
  cmd->add_flag("--list", o.list, "Print the jobs (after --shard and --rerun-failed) and stop");
  cmd->callback([] { run(o); });
}

}  // namespace npugen::cli
