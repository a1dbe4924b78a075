// The npugen subcommands. Each adds itself to the CLI11 app and runs through a
// callback; failures are reported by throwing CommandError with an exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "elab/design.hpp"

namespace npugen::cli {

/// Exit statuses of npugen.
enum ExitStatus : int {
  kOk = 0,
  kSimulationFailed = 1,  ///< co-simulation found a mismatch
  kBadInput = 2,          ///< bad configuration, file or option; missing tool
  kToolFailed = 3,        ///< an external tool (Verilator build, ...) failed
};

struct CommandError : std::runtime_error {
  CommandError(int status, const std::string& message)
      : std::runtime_error(message), status(status) {}
  int status;
};

/// Loads and validates a configuration; on errors prints every diagnostic to stderr
/// and throws CommandError(kBadInput).
elab::Design load_design(const std::filesystem::path& config_file);

/// Prints a reader's diagnostics to stderr and throws CommandError(kBadInput) naming how
/// many errors `file` has.
[[noreturn]] void refuse(const config::Diagnostics& diagnostics, const std::string& file);

/// Output folder: the one given, or generated/<design name>.
std::filesystem::path output_dir(const elab::Design& design, const std::string& given);

/// Refuse (status 2, "OPTION PATH: problem") before any work an output folder the command
/// could not write at its end (util::check_output_folder; `marker` names its earlier outputs),
/// an output file (util::check_output_file), or an input file that is not a regular file.
void check_output_folder(const std::string& option, const std::filesystem::path& dir,
                         const std::string& marker);
void check_output_file(const std::string& option, const std::filesystem::path& file,
                       const std::filesystem::path& made = {});
void check_input_file(const std::string& option, const std::filesystem::path& file);
/// Refuses two outputs at one path (the second would replace the first, or refuse it).
void check_distinct(const std::string& option_a, const std::filesystem::path& a,
                    const std::string& option_b, const std::filesystem::path& b);

/// The checks of numeric options, on the text given: CLI11 reads "-1" into an unsigned option
/// as its largest value and "010" as octal, and takes "nan" for a number.
/// A decimal integer >= 0 (no sign, no leading zero).
const CLI::Validator& unsigned_integer();
/// A decimal integer >= 1.
const CLI::Validator& positive_integer();
/// A decimal integer, perhaps negative.
const CLI::Validator& decimal_integer();
/// A finite number > 0.
const CLI::Validator& positive_number();
/// Any text but the empty one (a path, a shard): "" names nothing, and is not the default.
const CLI::Validator& non_empty();

/// Writes the design folder, reporting what happened.
void generate_design(const elab::Design& design, const std::filesystem::path& dir, bool quiet);

void add_check_command(CLI::App& app);
/// npugen timing.
void add_timing_command(CLI::App& app);
void add_schema_command(CLI::App& app);
void add_generate_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_sim_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_preprocess_command(CLI::App& app);
void add_vq_command(CLI::App& app);
void add_schedule_command(CLI::App& app);
/// npugen compile and npugen run.
void add_network_commands(CLI::App& app);
/// npugen onnx-info.
void add_onnx_command(CLI::App& app);
/// npugen regress.
void add_regress_command(CLI::App& app);
void add_explore_command(CLI::App& app);

}  // namespace npugen::cli
