// npugen regress (issue 17, docs/regress.md): a suite's tier of co-simulation, lint and
// network jobs in a local pool, as shards, or as a Slurm job array; reports as JSON, JUnit
// XML, a summary table and an HTML page.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
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
#include "util/output_tree.hpp"
#include "util/process.hpp"

namespace npugen::cli {
namespace {

namespace fs = std::filesystem;
using namespace npugen::regress;

constexpr const char* kRegressMarker = ".npugen-regress";

struct RegressOptions {
  std::string suite, tier = "smoke", out, rerun, shard, html, slurm, partition;
  unsigned random_n = 0, jobs = 0, timeout = 1800, shards = 4;
  bool list = false;
  uint64_t seed = 1;
  std::vector<std::string> merge;
};

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
std::vector<Job> random_jobs(unsigned n, uint64_t seed, const fs::path& where) {
  fs::create_directories(where);
  std::mt19937_64 rng(seed);
  std::vector<Job> jobs;
  for (unsigned k = 0; k < n; ++k) {
    const std::string name = fmt::format("rand_{}_{}", seed, k);
    const auto drawn = blocks::random_config(rng, name);
    const fs::path file = where / (name + ".yaml");
    util::write_file_atomically(
        file, fmt::format("# npugen random configuration: seed {}, draw {} (npugen regress "
                          "--random {} --seed {})\n{}",
                          seed, k, n, seed, drawn.yaml));
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
  try {
    (void)read_suite(o.suite, o.tier);  // a bad suite is refused now, not on the cluster
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
  std::error_code ec;
  if (fs::exists(p.dir, ec) && !fs::is_empty(p.dir, ec) &&
      !fs::exists(fs::path(p.dir) / kSlurmMarker, ec)) {
    throw CommandError(kBadInput,
                       fmt::format("{}: exists and is not an npugen Slurm folder (no {}); give a "
                                   "new folder",
                                   p.dir, kSlurmMarker));
  }
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
    std::vector<std::string> files;
    for (const auto& d : o.merge) files.push_back((fs::path(d) / "results.json").string());
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
  fs::path dir = (o.out.empty() ? fs::path("generated") / "regress" / run.suite : fs::path(o.out))
                     .lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // out/ is out
  const fs::path work = dir.parent_path() / (dir.filename().string() + ".work");
  // The reports replace only an earlier report: refused now, not after hours of jobs.
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec) && !fs::exists(dir / kRegressMarker, ec)) {
    throw CommandError(kBadInput, fmt::format("{}: exists and is not npugen regress's output (no "
                                              "{}); give a new folder",
                                              dir.string(), kRegressMarker));
  }
  // The draws are written into the work folder: a failing one is there with its seed.
  if (o.random_n != 0) jobs = random_jobs(o.random_n, o.seed, work / "random");
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
      "Run a suite's tier of co-simulation, lint and network jobs (configurations x blocks x "
      "seeds, and networks) in a local pool, each design generated and verilated once; "
      "results.json, junit.xml, a summary and an HTML report (docs/regress.md). Exit status 1 "
      "when a job failed.");
  cmd->add_option("SUITE", o.suite, "Suite file (YAML: tiers of entries)");
  cmd->add_option("--tier", o.tier, "Tier to run")->capture_default_str();
  cmd->add_option("--jobs,-j", o.jobs, "Jobs at once (default: the cores; with --slurm, 2)");
  cmd->add_option("-o,--out", o.out, "Output folder (default: generated/regress/<suite>)");
  cmd->add_option("--timeout", o.timeout, "Seconds a job may run before it is killed")
      ->capture_default_str();
  cmd->add_option("--rerun-failed", o.rerun, "results.json of an earlier run: its failures only");
  cmd->add_option("--shard", o.shard, "i/n: only every n-th job from the i-th (1-based)");
  cmd->add_option("--random", o.random_n,
                  "Instead of a suite: N random valid configurations, each generated, linted "
                  "and co-simulated in every block it enables");
  cmd->add_option("--seed", o.seed, "Seed of --random's draw")->capture_default_str();
  cmd->add_option("--merge", o.merge, "Join earlier runs' results (their folders) into one report");
  cmd->add_option("--html", o.html, "Also write the HTML report, DIR/index.html");
  cmd->add_option("--slurm", o.slurm,
                  "Write Slurm batch scripts for the tier into DIR (a job array of --shards "
                  "shards and a merge job after them) instead of running it");
  cmd->add_option("--shards", o.shards, "With --slurm: the number of shards")
      ->capture_default_str();
  cmd->add_option("--partition", o.partition, "With --slurm: the Slurm partition");
  cmd->add_flag("--list", o.list, "Print the jobs (after --shard and --rerun-failed) and stop");
  cmd->callback([] { run(o); });
}

}  // namespace npugen::cli
