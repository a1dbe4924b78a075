// Running external tools (Verilator, make, the co-simulation binary).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace npugen::util {

/// Full path of an executable found on PATH, if any.
std::optional<std::filesystem::path> find_program(const std::string& name);

/// Runs argv[0] (searched on PATH) and waits. With `log`, stdout and stderr go to
/// that file; otherwise they are inherited. Returns the exit status (128 + signal
/// when killed), or -1 when the program could not be started.
int run_program(const std::vector<std::string>& argv,
                const std::optional<std::filesystem::path>& log = std::nullopt);

/// Runs a program and returns what it printed on stdout (empty on failure).
std::string capture_output(const std::vector<std::string>& argv);

/// The last `lines` lines of a text file.
/// The CPUs this process may run on (its affinity mask: what Slurm, taskset or a container
/// grants), at least 1.
unsigned available_cores();

std::string tail_of_file(const std::filesystem::path& path, int lines);

}  // namespace npugen::util
