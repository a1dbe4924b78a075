// A block of the accelerator (the dense PE array, the zero-skipping array, the
// dequantizer, the task unit, ...) as one object across npugen's layers: it reads and
// documents its configuration section, elaborates it, emits its RTL, documents and EDA
// files, says how its co-simulation is built and run, and summarises itself for `npugen
// check`. The block list (blocks/list.cpp) is the one place that names every block; all
// else iterates it.
//
// One name per block everywhere: its configuration section, `npugen sim --block`, the
// folders of its sources (generator/src/blocks/<name>/, golden/.../<name>/, tb/<name>/,
// rtl_templates/<name>/, tests/<name>/), its modules (<prefix>_<name>_*) and its files in
// a design folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "blocks/random_draw.hpp"
#include "config/config.hpp"
#include "util/output_tree.hpp"

namespace npugen::elab {
struct Design;
}

namespace npugen::blocks {

class Block;

/// What a block put into a design folder.
/// One instance of the design's memory module (<prefix>_ram_1r1w) inside a block: the
/// manifest's memory list, from which the timing flow makes its macro stubs.
struct Memory {
  std::string instance;  ///< hierarchical path from the block's top: g_buffer[0].u_buffer
  std::string role;      ///< what it holds: "activation buffer A"
  uint64_t depth = 0;    ///< words
  uint64_t width = 0;    ///< bits a word
  uint64_t data_bits_per_mask = 0;  ///< bits a write-mask bit enables (width: whole words)
};

/// `inner`'s memories under instance path `prefix` (with its trailing dot), appended to `out`.
inline void add_memories(std::vector<Memory>& out, const std::vector<Memory>& inner,
                         const std::string& prefix) {
  for (Memory m : inner) {
    m.instance = prefix + m.instance;
    out.push_back(std::move(m));
  }
}

struct BlockFiles {
  std::vector<std::string> rtl;            ///< rtl/*.sv, leaves first (as filelists list them)
  std::string top;                         ///< its top module
  std::string synthesis_script;            ///< synth/<design>_<block>.tcl
  std::vector<std::string> register_maps;  ///< docs/* and sw/*.h of its registers
  std::string icarus_bench;                ///< sim/*_icarus_tb.sv replaying its vectors, if any
  std::string icarus_bench_top;            ///< that bench's module
  std::vector<Memory> memories;            ///< every memory under its top, in instance order
  /// Options the block adds to Yosys's `synth` in its synthesis and timing scripts
  /// (" -noshare": the SAT-based resource sharing runs for tens of minutes on wide engines).
  std::string synth_options;
  // Written by the EDA emitter for every block:
  std::string filelist;     ///< <design>_<block>.f: its RTL, paths relative to the folder
  std::string constraints;  ///< constraints/<design>_<block>.sdc
};

/// Bad input to a block's own tools (a file that does not fit the design, an option the
/// design cannot take): the command line reports the message with exit status 2.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A measurement `npugen bench CONFIG --<option> VALUE` makes of a block's offline
/// algorithm or golden model instead of the co-simulation.
struct OfflineBench {
  /// What the option's value is.
  enum class Takes { kCount, kFile };
  struct Args {
    uint64_t count = 0;          ///< Takes::kCount: the value (0: not given)
    std::filesystem::path file;  ///< Takes::kFile: the value (empty: not given)
    int repeat = 1;              ///< --repeat, when `repeats`
  };
  std::string option;  ///< the long option without its dashes: "tasks"
  Takes takes = Takes::kCount;
  std::string help;      ///< the option's help
  bool repeats = false;  ///< reports the best of --repeat runs
  /// Measures and prints; throws BadInput when the design or the value does not fit.
  void (*run)(const elab::Design& design, const Args& args) = nullptr;
};

/// How a block's co-simulation bench is built and run.
struct BenchInfo {
  std::vector<std::string> modes = {"check"};  ///< values of --mode
  /// `npugen sim --vectors FILE`: what the bench writes there ("also write ..."); empty
  /// when it takes no --vectors (the Icarus replay's stimulus and expected outputs).
  std::string vectors;
  /// `npugen sim --descriptors FILE`: what the bench does with it; empty when it takes none.
  std::string descriptors;
  /// Folders under golden/src/ whose sources the bench compiles beside common/ (its own and
  /// those of the blocks it builds on).
  std::vector<std::string> golden;
  /// The bench compiles networks: it builds the compiler's sources (compiler/src/) too.
  bool compiler = false;
  /// What `npugen bench` measures of the block besides its co-simulation.
  std::vector<OfflineBench> offline;
};

/// A block's part of the co-simulation's design_params.hpp.
struct DesignParams {
  std::vector<std::string> headers;  ///< golden headers the declarations need
  std::string declarations;          ///< C++ inside namespace npugen::design
};

/// A block as elaborated for one design.
class BlockDesign {
 public:
  virtual ~BlockDesign() = default;
  [[nodiscard]] virtual const Block& block() const = 0;
  [[nodiscard]] virtual std::string top() const = 0;
  /// Adds its files to `files` and says what they are.
  virtual BlockFiles emit(const elab::Design& design, util::FileMap& files) const = 0;
  /// Derived parameters, for config.resolved.json.
  [[nodiscard]] virtual nlohmann::json derived_json() const = 0;
  /// Lines of `npugen check` (no trailing newline).
  [[nodiscard]] virtual std::vector<std::string> summary() const = 0;
  /// Its golden parameters, for the co-simulation.
  [[nodiscard]] virtual DesignParams design_params() const = 0;
};

class Block : public config::SchemaPart {
 public:
  /// What the block is, in a phrase: "the dequantizer".
  [[nodiscard]] virtual std::string_view title() const = 0;
  /// Whether a configuration turns the block on.
  [[nodiscard]] virtual bool enabled(const config::Config& config) const = 0;
  /// A block this one stands in for when both are on in `config` (the zero-skipping array
  /// for the dense one, unless the sequencer uses both); empty when none.
  [[nodiscard]] virtual std::string_view replaces(const config::Config& /*config*/) const {
    return {};
  }
  [[nodiscard]] virtual BenchInfo bench() const = 0;
  [[nodiscard]] virtual std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& config) const = 0;
  /// Draws the block's section of a random valid configuration into `root` (or leaves it
  /// out), reading what earlier blocks drew.
  virtual void draw(RandomDraw& d, YAML::Node& root) const = 0;
};

/// A block whose configuration section reads into a struct `Cfg` with an `enabled` flag:
/// its name, title, reading and enabled flag, so that a block class holds only what is its
/// own (bench, elaboration, random draw).
template <typename Cfg>
class SectionBlock : public Block {
 public:
  /// Reads (or, describing, documents) the section into a Cfg.
  using ReadSection = Cfg (*)(config::Reader&, config::Section& root, const config::Config&);

  SectionBlock(std::string_view name, std::string_view title, ReadSection read_section)
      : name_(name), title_(title), read_section_(read_section) {}

  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string_view title() const override { return title_; }
  void read(config::Reader& r, config::Section& root, config::Config& c) const override {
    c.sections.put(name_, read_section_(r, root, c));
  }
  [[nodiscard]] bool enabled(const config::Config& c) const override { return config(c).enabled; }
  /// The section as read.
  [[nodiscard]] const Cfg& config(const config::Config& c) const {
    return c.sections.get<Cfg>(name_);
  }

 private:
  std::string_view name_;
  std::string_view title_;
  ReadSection read_section_;
};

/// Every block, in schema order (the one list: blocks/list.cpp).
const std::vector<const Block*>& all();
/// The block of that name, or nullptr.
const Block* find(std::string_view name);
/// The schema parts of every block (for config::load_config).
const config::Parts& parts();

/// A configuration file read with every block's section.
config::LoadResult load_config(const std::filesystem::path& file);
config::LoadResult load_config_text(const std::string& text, const std::string& display_name);
/// The whole schema's documentation.
config::Schema describe_schema();

/// The blocks a configuration generates, in list order: those enabled and not replaced by
/// another enabled block.
std::vector<const Block*> generated(const config::Config& config);

}  // namespace npugen::blocks
