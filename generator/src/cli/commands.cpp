#include "cli/commands.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "blocks/block.hpp"
#include "config/config.hpp"
#include "emit/design_emitter.hpp"
#include "util/input_file.hpp"
#include "util/output_tree.hpp"
#include "util/text.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {

void refuse(const config::Diagnostics& diagnostics, const std::string& file) {
  for (const auto& d : diagnostics) std::fprintf(stderr, "%s\n", d.format().c_str());
  throw CommandError(kBadInput,
                     fmt::format("{} error(s) in {}", config::error_count(diagnostics), file));
}

elab::Design load_design(const fs::path& config_file) {
  const config::LoadResult result = blocks::load_config(config_file);
  if (!result.config) {
    for (const auto& d : result.diagnostics) std::fprintf(stderr, "%s\n", d.format().c_str());
    throw CommandError(kBadInput,
                       fmt::format("{} error(s) in {}; nothing was written",
                                   config::error_count(result.diagnostics), config_file.string()));
  }
  return elab::elaborate(*result.config);
}

namespace {

std::string shown(const fs::path& p) {
  return p.empty() ? std::string("''") : util::shorten(p.string(), 200);
}

}  // namespace

void check_output_folder(const std::string& option, const fs::path& dir,
                         const std::string& marker) {
  try {
    util::check_output_folder(dir, marker);
  } catch (const util::OutputError& e) {
    throw CommandError(kBadInput, fmt::format("{} {}: {}", option, shown(dir), e.what()));
  }
}

void check_output_file(const std::string& option, const fs::path& file, const fs::path& made) {
  try {
    util::check_output_file(file, made);
  } catch (const util::OutputError& e) {
    throw CommandError(kBadInput, fmt::format("{} {}: {}", option, shown(file), e.what()));
  }
}

void check_input_file(const std::string& option, const fs::path& file) {
  try {
    util::require_regular_file(file);
  } catch (const util::InputError& e) {
    throw CommandError(kBadInput, fmt::format("{} {}: {}", option, shown(file), e.what()));
  }
}

void check_distinct(const std::string& option_a, const fs::path& a, const std::string& option_b,
                    const fs::path& b) {
  auto norm = [](const fs::path& p) {
    std::error_code ec;
    fs::path n = fs::weakly_canonical(fs::absolute(p), ec);
    if (ec) n = fs::absolute(p).lexically_normal();
    return n.has_filename() ? n : n.parent_path();
  };
  if (!a.empty() && !b.empty() && norm(a) == norm(b)) {
    if (option_a == option_b) {
      throw CommandError(kBadInput, fmt::format("{} {}: given twice", option_a, shown(a)));
    }
    throw CommandError(kBadInput, fmt::format("{} and {} name one path ({}): give each its own",
                                              option_a, option_b, shown(a)));
  }
}

namespace {

bool all_digits(const std::string& s, size_t from) {
  if (s.size() <= from) return false;
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return s.size() == from + 1 || s[from] != '0';
}

}  // namespace

const CLI::Validator& unsigned_integer() {
  static const CLI::Validator v(
      [](std::string& s) {
        return all_digits(s, 0) ? std::string()
                                : fmt::format("{}: expected a decimal integer of 0 or more", s);
      },
      "UINT");
  return v;
}

const CLI::Validator& positive_integer() {
  static const CLI::Validator v(
      [](std::string& s) {
        return all_digits(s, 0) && s != "0"
                   ? std::string()
                   : fmt::format("{}: expected a decimal integer of 1 or more", s);
      },
      "POSITIVE");
  return v;
}

const CLI::Validator& decimal_integer() {
  static const CLI::Validator v(
      [](std::string& s) {
        return all_digits(s, s.rfind('-', 0) == 0 ? 1 : 0)
                   ? std::string()
                   : fmt::format("{}: expected a decimal integer", s);
      },
      "INT");
  return v;
}

const CLI::Validator& positive_number() {
  static const CLI::Validator v(
      [](std::string& s) {
        char* end = nullptr;
        const double x = s.empty() ? 0 : std::strtod(s.c_str(), &end);
        const bool ok = !s.empty() && end == s.c_str() + s.size() && std::isfinite(x) && x > 0 &&
                        s.find_first_of(" \t\n") == std::string::npos;
        return ok ? std::string() : fmt::format("{}: expected a finite number above 0", s);
      },
      "NUMBER");
  return v;
}

const CLI::Validator& non_empty() {
  static const CLI::Validator v(
      [](std::string& s) { return s.empty() ? std::string("an empty value names nothing") : ""; },
      "");
  return v;
}

fs::path output_dir(const elab::Design& design, const std::string& given) {
  if (!given.empty()) return given;
  return fs::path("generated") / design.config.design.name;
}

void generate_design(const elab::Design& design, const fs::path& dir, bool quiet) {
  util::WriteOutcome outcome{};
  try {
    outcome = emit::write_design(design, dir);
  } catch (const util::OutputError& e) {
    throw CommandError(kBadInput, e.what());
  }
  if (quiet) return;
  const char* what = outcome == util::WriteOutcome::kCreated    ? "created"
                     : outcome == util::WriteOutcome::kReplaced ? "updated"
                                                                : "unchanged";
  std::printf("%s: %s (top %s, config hash %s)\n", dir.string().c_str(), what, design.top.c_str(),
              design.short_hash().c_str());
}

void add_check_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check", "Validate a configuration and print its derived parameters; writes nothing.");
  static std::string config_file;
  static bool json = false;
  cmd->add_option("CONFIG", config_file, "YAML configuration file")->required();
  cmd->add_flag("--json", json, "Print the resolved configuration as JSON");
  cmd->callback([] {
    const elab::Design design = load_design(config_file);
    if (json) {
      std::printf("%s\n", elab::resolved_json(design).dump(2).c_str());
      return;
    }
    std::printf("%s: ok\n  design %s, top %s, config hash %s\n", config_file.c_str(),
                design.config.design.name.c_str(), design.top.c_str(), design.short_hash().c_str());
    for (const auto& b : design.blocks) {
      for (const auto& line : b->summary()) std::printf("  %s\n", line.c_str());
    }
  });
}

void add_schema_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("schema",
                                 "Print the configuration schema (keys, types, "
                                 "defaults, ranges, rules) as Markdown.");
  cmd->callback(
      [] { std::fputs(config::schema_markdown(blocks::describe_schema()).c_str(), stdout); });
}

void add_generate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "generate",
      "Write the design folder: RTL, filelist, constraints, FuseSoC core, synthesis script, "
      "co-simulation project, resolved configuration and manifest. Atomic and deterministic.");
  static std::string config_file;
  static std::string out;
  cmd->add_option("CONFIG", config_file, "YAML configuration file")->required();
  cmd->add_option("-o,--out", out, "Output folder (default: generated/<design.name>)")
      ->check(non_empty());
  cmd->callback([] {
    const auto start = std::chrono::steady_clock::now();
    const elab::Design design = load_design(config_file);
    check_output_folder("-o", output_dir(design, out), emit::kManifest);
    generate_design(design, output_dir(design, out), false);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("generate took %.3f s\n", s);
  });
}

void add_verify_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "verify", "Check that a design folder's files match the hashes in its manifest.");
  static std::string dir;
  cmd->add_option("DIR", dir, "Design folder")->required();
  cmd->callback([] {
    const auto problems = emit::verify_design_folder(dir);
    for (const auto& p : problems) std::fprintf(stderr, "%s: %s\n", dir.c_str(), p.c_str());
    if (!problems.empty()) {
      throw CommandError(kBadInput, fmt::format("{}: {} problem(s)", dir, problems.size()));
    }
    std::printf("%s: every file matches the manifest\n", dir.c_str());
  });
}

}  // namespace npugen::cli
