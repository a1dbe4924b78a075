// npugen: YAML description of a neural-network accelerator -> synthesizable RTL,
// proven by co-simulation against a bit-exact golden model.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/commands.hpp"
#include "util/output_tree.hpp"
#include "version.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "npugen: generate neural-network accelerator RTL from a YAML configuration and "
      "co-simulate it against a bit-exact golden model.",
      "npugen"};
  app.set_version_flag("--version", std::string("npugen ") + npugen::kVersion);
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 success, 1 co-simulation mismatch, 2 bad input or missing tool, "
      "3 an external tool failed.\nRun 'npugen COMMAND --help' for a command's options.");
  npugen::cli::add_check_command(app);
  npugen::cli::add_schema_command(app);
  npugen::cli::add_generate_command(app);
  npugen::cli::add_verify_command(app);
  npugen::cli::add_preprocess_command(app);
  npugen::cli::add_vq_command(app);
  npugen::cli::add_schedule_command(app);
  npugen::cli::add_network_commands(app);
  npugen::cli::add_onnx_command(app);
  npugen::cli::add_regress_command(app);
  npugen::cli::add_explore_command(app);
  npugen::cli::add_timing_command(app);
  npugen::cli::add_sim_command(app);
  npugen::cli::add_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : npugen::cli::kBadInput;
  } catch (const npugen::cli::CommandError& e) {
    if (e.what()[0] != '\0') std::fprintf(stderr, "npugen: error: %s\n", e.what());
    return e.status;
  } catch (const npugen::util::OutputError& e) {  // a folder or file that cannot be written
    std::fprintf(stderr, "npugen: error: %s\n", e.what());
    return npugen::cli::kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "npugen: internal error: %s\n", e.what());
    return npugen::cli::kToolFailed;
  }
  return 0;
}
