// npugen preprocess: weights (.npy) -> zero-skipping schedule (.npy arrays + stats.json).
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "blocks/zs/zs_job.hpp"
#include "cli/commands.hpp"
#include "util/npy.hpp"
#include "util/output_tree.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {

using blocks::zs::ZsJob;

void add_preprocess_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "preprocess",
      "Preprocess a weight tensor for the zero-skipping PE array: write the schedule as .npy "
      "arrays (weights, sel_cycle, sel_lane, tile_offset, dest_tile, base_cycle, control) and "
      "stats.json into DIR, atomically.");
  static std::string config_file;
  static std::string weights;
  static std::string out;
  cmd->add_option("CONFIG", config_file, "YAML configuration file (zs enabled)")->required();
  cmd->add_option("--weights", weights, "Integer .npy of shape [T][C][L]")
      ->check(non_empty())
      ->required();
  cmd->add_option("--out", out, "Output folder")->check(non_empty())->required();
  cmd->callback([] {
    check_output_folder("--out", out, "stats.json");
    const elab::Design design = load_design(config_file);
    ZsJob job;
    try {
      job = blocks::zs::load_zs_job(design, weights);
    } catch (const blocks::BadInput& e) {
      throw CommandError(kBadInput, e.what());
    }
    const auto loaded = std::chrono::steady_clock::now();
    blocks::zs::run_zs_job(design, job);
    const auto done = std::chrono::steady_clock::now();
    if (!job.problems.empty()) {
      for (const auto& p : job.problems) std::fprintf(stderr, "contract: %s\n", p.c_str());
      throw CommandError(kToolFailed,
                         "the schedule breaks the contract (a bug in npugen); "
                         "nothing was written");
    }
    try {
      util::write_tree_atomically(out, blocks::zs::zs_outputs(design, job), "stats.json", {});
    } catch (const util::OutputError& e) {
      throw CommandError(kBadInput, e.what());
    }
    const double pre = std::chrono::duration<double>(done - loaded).count();
    std::printf(
        "%s: %lu steps for %lu dense cycles (speedup %.3f), lower bound %lu; contract checked\n"
        "preprocessing, contract check, lower bound and the one-level runs took %.3f ms "
        "(npugen bench --preprocess times the preprocessing alone)\n",
        out.c_str(), static_cast<unsigned long>(job.stats.steps),
        static_cast<unsigned long>(job.stats.dense_cycles),
        job.stats.steps ? static_cast<double>(job.stats.dense_cycles) / job.stats.steps : 0.0,
        static_cast<unsigned long>(job.bound.value), pre * 1e3);
  });
}

}  // namespace npugen::cli
