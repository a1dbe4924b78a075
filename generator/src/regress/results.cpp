#include "regress/results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "report/svg.hpp"
#include "util/input_file.hpp"

namespace npugen::regress {

size_t Run::failures() const {
  return static_cast<size_t>(
      std::count_if(results.begin(), results.end(), [](const Result& r) { return !r.passed(); }));
}

nlohmann::json results_json(const Run& run) {
  nlohmann::json records = nlohmann::json::array();
  for (const Result& r : run.results) {
    const Job& j = r.job;
    nlohmann::json rec = {{"kind", kind_name(j.kind)},
                          {"config", j.config},
                          {"config_hash", r.config_hash},
                          {"design", j.design},
                          {"block", j.block},
                          {"seed", j.seed},
                          {"lint", j.kind == JobKind::kLint},
                          {"status", r.status},
                          {"cycles", r.cycles},
                          {"seconds", r.seconds},
                          {"cycles_per_second", r.cycles_per_second()},
                          {"message", r.message},
                          {"reproduce", r.reproduce},
                          {"log", r.log},
                          {"details", r.details}};
    if (j.cycles != 0) rec["cycle_budget"] = j.cycles;
    if (j.kind == JobKind::kNetwork) {
      rec["network"] = j.network;
      rec["input"] = j.input;
      if (!j.labels.empty()) rec["labels"] = j.labels;
    }
    records.push_back(std::move(rec));
  }
  return {{"suite", run.suite},
          {"tier", run.tier},
          {"jobs_at_once", run.jobs_at_once},
          {"wall_seconds", run.wall_seconds},
          {"jobs", records}};
}

Run read_results_json(const std::string& file) {
  std::string text;
  try {
    text = util::read_input_file(file);  // a regular file: never blocks on a FIFO
  } catch (const util::InputError& e) {
    throw std::runtime_error(fmt::format("{}: {}", file, e.what()));
  }
  nlohmann::json j;
  Run run;
  try {
    j = nlohmann::json::parse(text);
    run.suite = j.at("suite").get<std::string>();
    run.tier = j.at("tier").get<std::string>();
    run.jobs_at_once = j.at("jobs_at_once").get<unsigned>();
    run.wall_seconds = j.at("wall_seconds").get<double>();
    for (const auto& r : j.at("jobs")) {
      Result x;
      x.job.kind = kind_of(r.value("kind", r.value("lint", false) ? "lint" : "sim"));
      x.job.config = r.at("config");
      x.job.design = r.at("design");
      x.job.block = r.at("block");
      x.job.seed = r.at("seed");
      x.job.cycles = r.value("cycle_budget", uint64_t{0});
      x.job.network = r.value("network", "");
      x.job.input = r.value("input", "");
      x.job.labels = r.value("labels", "");
      x.status = r.at("status");
      x.config_hash = r.at("config_hash");
      x.message = r.at("message");
      x.reproduce = r.at("reproduce");
      x.log = r.at("log");
      x.details = r.value("details", "");
      x.cycles = r.at("cycles");
      x.seconds = r.at("seconds");
      run.results.push_back(std::move(x));
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: not npugen regress's results ({})", file, e.what()));
  }
  return run;
}

std::string junit_xml(const Run& run) {
  using report::xml_escape;
  double seconds = 0;
  for (const Result& r : run.results) seconds += r.seconds;
  const std::string name = run.suite + "." + run.tier;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(name), run.results.size(), run.failures(), seconds);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(name), run.results.size(), run.failures(), seconds);
  for (const Result& r : run.results) {
    out += fmt::format("    <testcase classname=\"{}.{}\" name=\"{}\" time=\"{:.3f}\"",
                       xml_escape(r.job.design), xml_escape(r.job.block),
                       xml_escape(r.job.variant()), r.seconds);
    if (r.passed()) {
      out += "/>\n";
      continue;
    }
    out += fmt::format(
        ">\n      <failure type=\"{}\" message=\"{}\">{}\nreproduce: {}\nlog: {}</failure>\n"
        "    </testcase>\n",
        r.status, xml_escape(r.message), xml_escape(r.message), xml_escape(r.reproduce),
        xml_escape(r.log));
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

std::string summary_table(const Run& run) {
  std::string table = fmt::format("{:<24} {:<10} {:>12} {:<8} {:>10} {:>12}\n", "design", "block",
                                  "job", "status", "cycles", "cycles/s");
  for (const Result& r : run.results) {
    table += fmt::format("{:<24} {:<10} {:>12} {:<8} {:>10} {:>12.0f}\n", r.job.design, r.job.block,
                         r.job.variant(), r.status, r.cycles, r.cycles_per_second());
  }
  // The failures again below the table, where a long run's reader looks first.
  for (const Result& r : run.results) {
    if (r.passed()) continue;
    const std::string why = r.message.substr(0, r.message.find('\n'));
    table += fmt::format("{} {} {} {}: {}\n  reproduce: {}\n  log: {}\n", r.status, r.job.design,
                         r.job.block, r.job.variant(), why, r.reproduce, r.log);
  }
  table += fmt::format(
      "{} jobs, {} failed, {}, {:.1f} s\n", run.results.size(), run.failures(),
      run.jobs_at_once == 0 ? std::string("merged") : fmt::format("{} at once", run.jobs_at_once),
      run.wall_seconds);
  return table;
}

nlohmann::json read_json_or_null(const std::string& file) {
  if (file.empty()) return nullptr;
  try {
    return nlohmann::json::parse(util::read_input_file(file));  // never blocks on a FIFO
  } catch (const std::exception&) {
    return nullptr;
  }
}

Run merge_runs(const std::vector<std::string>& files) {
  Run out;
  std::map<std::string, std::string> seen;  // job name -> the results.json it came from
  for (const std::string& f : files) {
    Run r = read_results_json(f);
    for (const Result& x : r.results) {
      const auto [it, fresh] = seen.emplace(x.job.name(), f);
      if (!fresh) {
        throw std::runtime_error(
            fmt::format("{}: job {} is also in {} (each shard once: the same run given twice?)", f,
                        x.job.name(), it->second));
      }
    }
    if (!out.suite.empty() && (r.suite != out.suite || r.tier != out.tier)) {
      throw std::runtime_error(
          fmt::format("{}: a run of {} {}, not of {} {}", f, r.suite, r.tier, out.suite, out.tier));
    }
    out.suite = r.suite, out.tier = r.tier;
    out.wall_seconds = std::max(out.wall_seconds, r.wall_seconds);
    for (Result& x : r.results) out.results.push_back(std::move(x));
  }
  std::stable_sort(out.results.begin(), out.results.end(), [](const Result& a, const Result& b) {
    return std::make_tuple(a.job.config, a.job.block, a.job.kind, a.job.network, a.job.seed) <
           std::make_tuple(b.job.config, b.job.block, b.job.kind, b.job.network, b.job.seed);
  });
  return out;
}

}  // namespace npugen::regress
