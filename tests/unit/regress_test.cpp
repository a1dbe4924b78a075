// npugen regress's and npugen explore's parts that need no tool: suites, shards, results
// round trips, the JUnit XML, the Slurm scripts, sweeps, the Pareto front and the picks,
// Yosys's stat output, and the SVG plots (well-formed and escaped).
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "explore/pareto.hpp"
#include "explore/sweep.hpp"
#include "explore/synth_cost.hpp"
#include "regress/results.hpp"
#include "regress/slurm.hpp"
#include "regress/suite.hpp"
#include "report/svg.hpp"
#include "util/output_tree.hpp"

namespace fs = std::filesystem;
using namespace npugen;

namespace {

fs::path temp_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("npugen_regress_test_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// Tag balance of an XML text: every <x ...> closed by </x> or self-closed, in order.
bool balanced(const std::string& xml) {
  std::vector<std::string> open;
  for (size_t i = 0; (i = xml.find('<', i)) != std::string::npos; ++i) {
    const size_t end = xml.find('>', i);
    if (end == std::string::npos) return false;
    const std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
  }
  return open.empty();
}

}  // namespace

TEST_CASE("a suite's tier expands into jobs in file order, networks once per configuration",
          "[regress]") {
  const fs::path d = temp_dir("suite");
  write(d / "a.yaml", "x"), write(d / "b.yaml", "x"), write(d / "net.yaml", "x");
  write(d / "in.npy", "x");
  write(d / "suite.yaml",
        "tiers:\n"
        "  smoke:\n"
        "    - {configs: \"?.yaml\", blocks: [pe_array, zs], seeds: [3, 4], cycles: 100}\n"
        "    - {configs: [b.yaml], networks: [{network: net.yaml, input: in.npy}]}\n");
  const auto jobs = regress::read_suite((d / "suite.yaml").string(), "smoke");
  REQUIRE(jobs.size() == 9);
  CHECK(jobs[0].design == "a");
  CHECK(jobs[0].block == "pe_array");
  CHECK(jobs[0].seed == 3);
  CHECK(jobs[1].seed == 4);
  CHECK(jobs[2].block == "zs");
  CHECK(jobs[7].cycles == 100);
  CHECK(jobs[8].kind == regress::JobKind::kNetwork);
  CHECK(jobs[8].block == "npu");
  CHECK(jobs[8].name() == "b.net");
  CHECK(fs::path(jobs[8].input).filename() == "in.npy");
  // Shards: disjoint, together the tier, in a fixed order.
  std::vector<std::string> all;
  for (unsigned i = 1; i <= 4; ++i) {
    for (const auto& j : regress::shard_of(jobs, {i, 4})) all.push_back(j.config + j.name());
  }
  std::vector<std::string> expected;
  for (const auto& j : jobs) expected.push_back(j.config + j.name());
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  CHECK(all == expected);
  CHECK(regress::shard_of(jobs, {2, 4}).front().name() == jobs[1].name());
  // An inline configuration: named by its design.name, written out before the jobs run.
  write(d / "inline.yaml",
        "tiers:\n  t:\n    - configs: [{design: {name: mine}, pe_array: {tiles: 2}}, a.yaml]\n"
        "      blocks: [pe_array]\n");
  auto inl = regress::read_suite((d / "inline.yaml").string(), "t");
  REQUIRE(inl.size() == 2);
  CHECK(inl[0].design == "mine");
  CHECK(inl[0].config.empty());
  regress::materialize_inline(inl, d / "work");
  CHECK(inl[0].config == (d / "work" / "mine.yaml").string());
  CHECK(YAML::LoadFile(inl[0].config)["pe_array"]["tiles"].as<int>() == 2);
  CHECK(inl[1].config == (d / "a.yaml").string());
}

TEST_CASE("bad suites are refused at their line", "[regress]") {
  const fs::path d = temp_dir("bad_suite");
  write(d / "a.yaml", "x");
  auto message = [&](const std::string& text) {
    write(d / "s.yaml", text);
    try {
      (void)regress::read_suite((d / "s.yaml").string(), "smoke");
    } catch (const regress::SuiteError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: a.yaml, blocks: [x], seed: [1]}\n"),
             Catch::Contains("s.yaml:3: error: unknown key 'seed'"));
  CHECK_THAT(message("tiers:\n  smoke:\n\n    - {configs: b*.yaml, blocks: [x]}\n"),
             Catch::Contains("s.yaml:4: error: 'b*.yaml' matches no configuration file"));
  write(d / "notes.txt", "x");  // a configuration is a .yaml or .yml file
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: notes.txt, blocks: [x]}\n"),
             Catch::Contains("s.yaml:3: error: 'notes.txt' matches no configuration file"));
  CHECK_THAT(message("tiers:\n  smoke:\n    - configs: a.yaml\n      networks:\n"
                     "        - {network: none.yaml, input: a.yaml}\n"),
             Catch::Contains("s.yaml:5: error: no file"));
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: a.yaml, blocks: [x], cycles: 0}\n"),
             Catch::Contains("s.yaml:3: error: cycles: a positive integer"));
  CHECK_THAT(message("tiers:\n  nightly: []\n"), Catch::Contains("no tier 'smoke'"));
  CHECK_THAT(message("suite: 1\n"), Catch::Contains("s.yaml:1: error: unknown key 'suite'"));
  fs::create_directories(d / "other");
  write(d / "other" / "a.yaml", "x");
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: a.yaml, blocks: [x]}\n"
                     "    - {configs: other/a.yaml, blocks: [x]}\n"),
             Catch::Contains("s.yaml:4: error: design 'a'"));
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: a.yaml, blocks: [x], seeds: [1, 1]}\n"),
             Catch::Contains("job a.x.seed1 is listed twice in tier smoke"));
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: [{design: {name: m}}, {design: {name: m}}],"
                     " blocks: [x]}\n"),
             Catch::Contains("design 'm' (the inline configuration at line 3"));
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: a.yaml, blocks: [x], seeds: [{a: 1}]}\n"),
             Catch::Contains("s.yaml:3: error: a seed is a non-negative integer"));
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: a.yaml, blocks: [{x: 1}]}\n"),
             Catch::Contains("s.yaml:3: error:"));
  CHECK_THAT(message("tiers:\n  smoke:\n    - {configs: [{pe_array: {}}], blocks: [x]}\n"),
             Catch::Contains("s.yaml:3: error: an inline configuration needs design.name"));
  for (const char* bad : {"5/4", "0/2", "1/0", "1/2/3", "a/b", "2", "", " 1 / 2 ", "1/2 ", "+1/2",
                          "-1/2", "1/", "/2", "01/2x", "9999999999/9999999999"}) {
    CHECK_THROWS_AS(regress::parse_shard(bad), regress::SuiteError);
  }
  CHECK(regress::parse_shard("3/4") == std::pair<unsigned, unsigned>{3, 4});
}

TEST_CASE("results survive results.json, merged shards are sorted, JUnit XML is escaped",
          "[regress]") {
  const fs::path d = temp_dir("results");
  regress::Run run;
  run.suite = "s";
  run.tier = "t";
  run.jobs_at_once = 2;
  run.wall_seconds = 3.5;
  for (uint64_t seed : {2, 1}) {
    regress::Result r;
    r.job.config = "c.yaml", r.job.design = "c", r.job.block = "pe_array", r.job.seed = seed;
    r.status = seed == 1 ? "pass" : "fail";
    r.message = "mismatch at <cycle> 5 & \"more\"";
    r.reproduce = "npugen sim c.yaml --seed 2";
    r.cycles = 1000, r.seconds = 0.5;
    run.results.push_back(r);
  }
  util::write_file_atomically(d / "a.json", regress::results_json(run).dump());
  run.results.erase(run.results.begin());
  run.results[0].job.seed = 3;  // another shard's job
  run.wall_seconds = 9;
  util::write_file_atomically(d / "b.json", regress::results_json(run).dump());
  const regress::Run back = regress::read_results_json((d / "a.json").string());
  REQUIRE(back.results.size() == 2);
  CHECK(back.results[0].message == "mismatch at <cycle> 5 & \"more\"");
  CHECK(back.results[0].cycles_per_second() == 2000);
  const regress::Run merged =
      regress::merge_runs({(d / "a.json").string(), (d / "b.json").string()});
  REQUIRE(merged.results.size() == 3);
  CHECK(merged.results[0].job.seed == 1);
  CHECK(merged.results[1].job.seed == 2);
  CHECK(merged.results[2].job.seed == 3);
  // One run given twice would count its jobs twice: refused, naming the job.
  CHECK_THROWS_WITH(regress::merge_runs({(d / "a.json").string(), (d / "a.json").string()}),
                    Catch::Contains("job c.pe_array.seed2 is also in"));
  CHECK(merged.wall_seconds == 9);
  CHECK(merged.failures() == 1);
  const std::string xml = regress::junit_xml(back);
  CHECK(balanced(xml));
  CHECK_THAT(xml, Catch::Contains("mismatch at &lt;cycle&gt; 5 &amp; &quot;more&quot;"));
  CHECK_THAT(xml, Catch::Contains("tests=\"2\" failures=\"1\""));
  // The summary lists the failure again below the table, with its reproduce line.
  const std::string table = regress::summary_table(back);
  const auto below = table.find("fail c pe_array seed 2: mismatch at <cycle> 5");
  REQUIRE(below != std::string::npos);
  CHECK(below > table.find("c                        pe_array"));
  CHECK(table.find("reproduce: npugen sim c.yaml --seed 2", below) != std::string::npos);
  CHECK(table.find("pass c pe_array") == std::string::npos);
  write(d / "bad.json", "{\"suite\": 1}");
  CHECK_THROWS_WITH(regress::read_results_json((d / "bad.json").string()),
                    Catch::Contains("not npugen regress's results"));
}

TEST_CASE("the Slurm scripts: a job array of the shards and a merge after them", "[regress]") {
  regress::SlurmPlan p;
  p.npugen = "/opt/npugen/bin/npugen";
  p.suite = "/data/suite's.yaml";
  p.tier = "nightly";
  p.dir = "/scratch/run";
  p.shards = 3;
  const auto files = regress::slurm_files(p);
  const std::string& shard = files.at("shard.sbatch");
  CHECK_THAT(shard, Catch::Contains("#SBATCH --array=1-3\n"));
  CHECK_THAT(shard, Catch::Contains("--shard \"$SLURM_ARRAY_TASK_ID/3\""));
  CHECK_THAT(shard, Catch::Contains("'/data/suite'\\''s.yaml'"));
  CHECK_THAT(files.at("merge.sbatch"),
             Catch::Contains("regress --merge '/scratch/run'/shard-1 '/scratch/run'/shard-2 "
                             "'/scratch/run'/shard-3 -o '/scratch/run'/merged"));
  CHECK_THAT(files.at("submit.sh"), Catch::Contains("--dependency=afterany:\"$array\""));
  CHECK(files.contains(regress::kSlurmMarker));
}

TEST_CASE("sweeps: parsed, multiplied out, and set into a configuration", "[explore]") {
  const auto s = explore::parse_sweep("agu.dataflows=[conv],[conv, fc]");
  CHECK(s.key == "agu.dataflows");
  CHECK(s.values == std::vector<std::string>{"[conv]", "[conv, fc]"});
  const auto levels = explore::parse_sweep(
      "zs.levels=[{lookahead: 2, lookaside: 1}],[{lookahead: 1, lookaside: 0}]");
  CHECK(levels.values.size() == 2);
  for (const char* bad : {"lanes", "=1", "a.b=", "a.b=1,,2", "a b=1", "a.b=[1", "a.b={x: 1"}) {
    CHECK_THROWS_AS(explore::parse_sweep(bad), std::invalid_argument);
  }
  const auto points =
      explore::sweep_points({explore::parse_sweep("a.x=1,2"), explore::parse_sweep("b.y=u,v,w")});
  REQUIRE(points.size() == 6);
  CHECK(points[0].label() == "x=1 y=u");
  CHECK(points[5].label() == "x=2 y=w");
  const std::string yaml =
      explore::apply_settings("a:\n  x: 0\n  keep: 5\nc: 1\n", points[4]);  // x=2 y=v
  const YAML::Node n = YAML::Load(yaml);
  CHECK(n["a"]["x"].as<int>() == 2);
  CHECK(n["a"]["keep"].as<int>() == 5);
  CHECK(n["b"]["y"].as<std::string>() == "v");
  CHECK(n["c"].as<int>() == 1);
  explore::Point list;
  list.settings = {{"agu.dataflows", "[conv, fc]"}};
  CHECK(YAML::Load(explore::apply_settings("agu: {}\n", list))["agu"]["dataflows"].size() == 2);
  explore::Point scalar_section;
  scalar_section.settings = {{"c.x", "1"}};
  CHECK_THROWS_AS(explore::apply_settings("c: 1\n", scalar_section), std::invalid_argument);
}

TEST_CASE("the Pareto front against brute force, and the two picks", "[explore]") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    std::vector<explore::Point> pts(1 + rng() % 12);
    for (auto& p : pts) {
      p.cycles_per_image = static_cast<double>(1 + rng() % 6);
      p.cells = 1 + rng() % 6;
      p.images_per_second = 1000.0 / p.cycles_per_image;
      if (rng() % 7 == 0) p.status = "no_fit", p.cells = 0;
    }
    explore::mark_front(pts);
    for (size_t i = 0; i < pts.size(); ++i) {
      bool dominated = false;
      for (size_t j = 0; j < pts.size(); ++j) {
        if (!pts[j].costed() || !pts[i].costed()) continue;
        dominated |=
            pts[j].cycles_per_image <= pts[i].cycles_per_image && pts[j].cells <= pts[i].cells &&
            (pts[j].cycles_per_image < pts[i].cycles_per_image || pts[j].cells < pts[i].cells);
      }
      CHECK(pts[i].front == (pts[i].costed() && !dominated));
    }
    const uint64_t budget = 1 + rng() % 6;
    const auto fast = explore::fastest_within(pts, budget);
    const auto small = explore::smallest_reaching(pts, 1000.0 / static_cast<double>(budget));
    for (const auto& p : pts) {
      if (!p.costed()) continue;
      if (p.cells <= budget) {
        REQUIRE(fast);
        CHECK(pts[*fast].cycles_per_image <= p.cycles_per_image);
      }
      if (p.images_per_second >= 1000.0 / static_cast<double>(budget)) {
        REQUIRE(small);
        CHECK(pts[*small].cells <= p.cells);
      }
    }
    if (fast) CHECK(pts[*fast].front);  // the fastest within a budget is never dominated
    if (small) CHECK(pts[*small].front);
  }
}

TEST_CASE("Yosys's stat: the hierarchy's total, flip-flops of every kind", "[explore]") {
  const std::string text =
      "=== top ===\n   Number of cells:                  7\n     $_DFF_P_   3\n"
      "=== design hierarchy ===\n   top 1\n   Number of cells:                123\n"
      "     $_AND_                         20\n     $_DFFE_PP_                     11\n"
      "     $_SDFF_PP0_                     4\n     $mem_v2                          1\n";
  const auto c = explore::parse_yosys_stat(text);
  CHECK(c.found);
  CHECK(c.cells == 123);
  CHECK(c.ffs == 15);
  const auto flat =
      explore::parse_yosys_stat("=== top ===\n   Number of cells: 9\n   $_DFF_P_ 2\n");
  CHECK(flat.cells == 9);
  CHECK(flat.ffs == 2);
  CHECK_FALSE(explore::parse_yosys_stat("nothing").found);
}

TEST_CASE("SVG plots are balanced XML with their text escaped", "[report]") {
  const std::string t = "a <b> & \"c\"";
  const std::vector<std::string> svgs = {
      report::bar_chart(t, {{"x<y", 2, "", false}, {"z", 0, "tip & more", true}}, "{:.1f}"),
      report::gantt_chart(t, {"neural", "planar"},
                          {{0, 0, 10, "c1", "", false}, {1, 10, 30, "p&1", "", true}}),
      report::heat_map(t, 2, 3, {0, 0.5, 1, 0.25, 0, 2}, "filters", "taps"),
      report::scatter_plot(
          t, "cells", "cycles",
          {{1, 5, "a", true, false}, {2, 3, "b", true, true}, {3, 4, "c", false, false}}),
      report::scatter_plot(t, "x", "y", {})};
  for (const auto& s : svgs) {
    CHECK(balanced(s));
    CHECK(s.find("<b>") == std::string::npos);
    CHECK_THAT(s, Catch::Contains("a &lt;b&gt; &amp; &quot;c&quot;"));
  }
  CHECK_THAT(svgs[3], Catch::Contains("<path d=\"M"));  // the front's step line
  CHECK(report::xml_escape(std::string("a\x01z")) == "a z");
}
