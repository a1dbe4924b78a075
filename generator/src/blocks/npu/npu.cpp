#include "blocks/npu/npu.hpp"

#include <fmt/format.h>

#include <bit>

#include "blocks/agu/agu.hpp"
#include "blocks/planar/planar.hpp"
#include "blocks/sequencer/sequencer.hpp"
#include "blocks/tasks/tasks.hpp"
#include "blocks/vq/vq.hpp"
#include "emit/cpp_literal.hpp"

namespace npugen::blocks::npu {
namespace {

constexpr std::string_view kName = "npu";

NpuConfig read_section(config::Reader& r, config::Section& root, const config::Config& c) {
  NpuConfig nc;
  config::Section s = root.section(
      "npu",
      "NPU top (docs/npu.md): the sequencer (the neural engine) and the planar engine "
      "with the task unit in front of them, under one APB port, a host data port, a "
      "system-memory read port and an interrupt; the planar engine reads and writes the "
      "sequencer's activation buffers A and B. `npugen compile` and `npugen run` run "
      "networks on it. With vq.enabled, the dequantizer decodes weight rows sent as codebook "
      "indices on their way into the weight store (the VQ weight loader). Absent or disabled: "
      "not generated.");
  s.boolean("enabled", nc.enabled, "Generate the NPU top.");
  s.integer("reads_in_flight", nc.reads_in_flight, 1, 64,
            "System-memory reads the top keeps outstanding at most (its queue of owners; the "
            "memory answers in order).");
  if (!r.describing() && !nc.enabled) {
    s.finish();
    return nc;
  }
  const auto where = s.location_of("enabled");
  const std::string path = s.path_of("enabled");
  const sequencer::SequencerConfig& seq = sequencer::config_of(c);
  const planar::PlanarConfig& planar = planar::config_of(c);
  const agu::AguConfig& agu = agu::config_of(c);
  const tasks::TasksConfig& tasks = tasks::config_of(c);
  r.rule(
      "npu.enabled needs sequencer.enabled, planar.enabled and tasks.enabled: the top "
      "instantiates all three.");
  if (r.checks({"sequencer.enabled"}) && !seq.enabled) {
    r.error(where, path, "the NPU needs the neural engine: set sequencer.enabled");
  }
  if (r.checks({"planar.enabled"}) && !planar.enabled) {
    r.error(where, path, "the NPU needs the planar engine: set planar.enabled");
  }
  if (r.checks({"tasks.enabled"}) && !tasks.enabled) {
    r.error(where, path, "the NPU needs the task unit as its front end: set tasks.enabled");
  }
  // Buffers A and B, agu.act_words each, are planar.act_words and tasks.buffer_words words.
  constexpr int64_t kMinActWords = (tasks::kMinBufferWords + 1) / 2;
  constexpr int64_t kMaxActWords = planar::kMaxActWords / 2;
  r.rule(
      fmt::format("With the NPU, agu.act_words is {} to 2^{}: planar.act_words and "
                  "tasks.buffer_words, twice it (below), are at least {} (tasks.buffer_words's "
                  "least) and at most 2^{} (planar.act_words's most).",
                  kMinActWords, std::bit_width(uint64_t{kMaxActWords}) - 1, 2 * kMinActWords,
                  std::bit_width(uint64_t{planar::kMaxActWords}) - 1));
  const bool act_words_fit =
      agu.params.act_words >= kMinActWords && agu.params.act_words <= kMaxActWords;
  if (r.checks({"agu.act_words"}) && !act_words_fit) {
    r.error(where, path,
            fmt::format("the NPU's buffers A and B of agu.act_words = {} words each make "
                        "planar.act_words and tasks.buffer_words {}: set agu.act_words to {} "
                        "to {}",
                        agu.params.act_words, 2 * uint64_t{agu.params.act_words}, kMinActWords,
                        kMaxActWords));
  }
  r.rule(
      "With the NPU, tasks.neural_engines and tasks.planar_engines are 1 (the top has one "
      "engine of each kind) and tasks.buffer_words is planar.act_words (task regions are "
      "planar-engine addresses: buffer A, then buffer B).");
  if (tasks.enabled && planar.enabled) {
    if (r.checks({"tasks.neural_engines", "tasks.planar_engines"}) &&
        (tasks.params.neural_engines != 1 || tasks.params.planar_engines != 1)) {
      r.error(where, path,
              fmt::format("the NPU has one neural and one planar engine: set "
                          "tasks.neural_engines and tasks.planar_engines to 1 (they are {} "
                          "and {})",
                          tasks.params.neural_engines, tasks.params.planar_engines));
    }
    if (act_words_fit && r.checks({"tasks.buffer_words", "planar.act_words", "agu.act_words"}) &&
        tasks.params.buffer_words != planar.params.act_words) {
      r.error(where, path,
              fmt::format("the NPU's task regions are planar-engine addresses: set "
                          "tasks.buffer_words to planar.act_words, {} (it is {})",
                          planar.params.act_words, tasks.params.buffer_words));
    }
  }
  r.rule(
      "With the NPU, planar.words_per_cycle is 1 (the planar engine moves a buffer word a "
      "transfer through the sequencer's host port) and planar.act_words is 2 x agu.act_words "
      "(its addresses reach buffer A, then buffer B).");
  if (planar.enabled && seq.enabled) {
    if (r.checks({"planar.words_per_cycle"}) && planar.params.words != 1) {
      r.error(where, path,
              fmt::format("the NPU's planar engine moves one buffer word a transfer: set "
                          "planar.words_per_cycle to 1 (it is {})",
                          planar.params.words));
    }
    if (act_words_fit && r.checks({"planar.act_words", "agu.act_words"}) &&
        planar.params.act_words != 2 * agu.params.act_words) {
      r.error(where, path,
              fmt::format("the NPU's planar engine addresses buffers A and B of {} words each: "
                          "set planar.act_words to {} (it is {})",
                          agu.params.act_words, 2 * agu.params.act_words, planar.params.act_words));
    }
  }
  r.rule(
      "With the NPU and vq.enabled (the VQ weight loader): vq.weight_format is int8 (the "
      "weight store's), vq.copies x vq.row_weights divides pe_array.tiles x pe_array.lanes (a "
      "store row is whole beats) and a row's indices, T x L / vq.min_vector_length of log2 "
      "vq.rows bits, fit its T x L x 8 bits (the host port's row).");
  const vq::VqConfig& vq = vq::config_of(c);
  if (seq.enabled && vq.enabled && r.checks({"vq", "pe_array.tiles", "pe_array.lanes"})) {
    const golden::VqParams& v = vq.params;
    const uint64_t row = uint64_t{agu.params.tiles} * agu.params.lanes;
    if (v.weight.kind != golden::WeightKind::kInt || v.weight.width != 8) {
      r.error(where, path,
              fmt::format("the NPU's weight store holds int8 weights: set vq.weight_format to "
                          "int8 (it is {})",
                          v.weight.name()));
    } else if (row % v.beat_weights() != 0) {
      r.error(where, path,
              fmt::format("a weight-store row of T x L = {} weights is not a whole number of the "
                          "dequantizer's beats of vq.copies x vq.row_weights = {} weights",
                          row, v.beat_weights()));
    } else if (row / v.min_vector_length * v.index_bits() > row * 8) {
      r.error(where, path,
              fmt::format("a row's {} indices of {} bits (vectors of vq.min_vector_length = {}) "
                          "do not fit its {} bits: use vectors of at least {} weights or at most "
                          "2^{} codebook rows",
                          row / v.min_vector_length, v.index_bits(), v.min_vector_length, row * 8,
                          (v.index_bits() + 7) / 8, 8 * v.min_vector_length));
    }
  }
  s.finish();
  return nc;
}

class NpuBlock : public SectionBlock<NpuConfig> {
 public:
  NpuBlock() : SectionBlock(kName, "the NPU top", read_section) {}
  [[nodiscard]] BenchInfo bench() const override {
    BenchInfo b;
    b.modes = {"check"};
    b.golden = {"agu",    "pe_array", "zs", "post", "sequencer",
                "planar", "tasks",    "vq", "npu",  "network"};
    b.compiler = true;
    return b;
  }
  [[nodiscard]] std::shared_ptr<const BlockDesign> elaborate(
      const config::Config& c) const override {
    auto d = std::make_shared<Design>();
    const auto seq = sequencer::block().elaborate(c);
    d->design.seq = static_cast<const sequencer::Design&>(*seq).design;
    d->design.planar = planar::config_of(c).params;
    d->design.tasks = tasks::config_of(c).params;
    d->design.reads_in_flight = config_of(c).reads_in_flight;
    if (vq::config_of(c).enabled) d->design.vq = vq::config_of(c).params;
    const std::string& prefix = c.design.module_prefix;
    d->npu_module = fmt::format("{}_{}", prefix, kName);
    d->package = d->npu_module + "_pkg";
    d->seq_module = fmt::format("{}_sequencer", prefix);
    d->planar_module = fmt::format("{}_planar", prefix);
    d->tasks_module = fmt::format("{}_tasks", prefix);
    d->cmd_module = fmt::format("{}_npu_cmd", prefix);
    d->vq_load_module = fmt::format("{}_npu_vq_load", prefix);
    d->dma_module = fmt::format("{}_npu_dma", prefix);
    return d;
  }
  void draw(RandomDraw& d, YAML::Node& root) const override {
    YAML::Node seq = root["sequencer"];
    YAML::Node planar = root["planar"];
    YAML::Node tasks = root["tasks"];
    const bool can = seq && seq["enabled"].as<bool>(false) && planar &&
                     planar["enabled"].as<bool>(false) && root["agu"] && root["agu"]["act_words"] &&
                     tasks && tasks["enabled"].as<bool>(false);
    if (d.chance(30)) return;  // absent: not generated
    YAML::Node npu(YAML::NodeType::Map);
    DrawnSection s(d, npu);
    const bool enabled = can && d.chance(70);
    s.always("enabled", enabled);
    if (enabled) {
      planar["words_per_cycle"] = 1;
      planar["act_words"] = 2 * root["agu"]["act_words"].as<int64_t>();
      tasks["neural_engines"] = 1;
      tasks["planar_engines"] = 1;
      tasks["buffer_words"] = 2 * root["agu"]["act_words"].as<int64_t>();
      s.set("reads_in_flight", d.corner(1, 64));
      // The VQ weight loader's rules: int8, whole beats a row, the indices fit a row.
      YAML::Node vq = root["vq"];
      if (vq && vq["enabled"].as<bool>(false)) {
        const YAML::Node pe = root["pe_array"];
        const unsigned row = pe["tiles"].as<unsigned>(1) * pe["lanes"].as<unsigned>(1);
        vq["weight_format"] = "int8";
        unsigned m = vq["row_weights"].as<unsigned>(4);
        while (row % m != 0) m /= 2;
        unsigned copies = std::max(1U, vq["copies"].as<unsigned>(4));
        while (row % (copies * m) != 0) --copies;
        const unsigned min_m = std::min(m, vq["min_vector_length"].as<unsigned>(2));
        unsigned rows = vq["rows"].as<unsigned>(256);
        while (rows > 2 && golden::ceil_log2(rows) > 8 * min_m) rows /= 2;
        vq["row_weights"] = m;
        vq["copies"] = copies;
        vq["min_vector_length"] = min_m;
        vq["rows"] = rows;
      }
    }
    root["npu"] = npu;
  }
};

}  // namespace

const Block& block() {
  static const NpuBlock kBlock;
  return kBlock;
}

const NpuConfig& config_of(const config::Config& config) {
  return config.sections.get<NpuConfig>(kName);
}

nlohmann::json Design::derived_json() const {
  return {{"host_data_bits", design.host_data_bits()},
          {"host_addr_bits", design.host_addr_bits()},
          {"memory_address_bits", design.tasks.memory_address_bits()},
          {"modules", design.vq ? nlohmann::json{npu_module, cmd_module, dma_module, vq_load_module}
                                : nlohmann::json{npu_module, cmd_module, dma_module}}};
}

elab::SvConstants Design::constants() const {
  using elab::SvConstant;
  using namespace golden::npu_csr;
  const golden::NpuDesign& g = design;
  return {
      SvConstant::integer("Lanes", g.lanes(), "L: bytes of a buffer word."),
      SvConstant::integer("ActWords", g.act_words(), "Words of each activation buffer."),
      SvConstant::integer("PlanarAddrBits", g.planar.act_addr_bits(),
                          "Bits of a planar engine address (buffer A, then B)."),
      SvConstant::integer("SeqAddrBits", g.seq.mem_addr_bits(),
                          "Bits of the sequencer's host-port address."),
      SvConstant::integer("SeqDataBits", g.seq.mem_data_bits(),
                          "Bits of the sequencer's host-port data."),
      SvConstant::integer("HostAddrBits", g.host_addr_bits(), "Bits of the host port's address."),
      SvConstant::integer("HostDataBits", g.host_data_bits(), "Bits of the host port's data."),
      SvConstant::integer("TargetBits", golden::kHostTargetBits, "Bits of a host-port target."),
      SvConstant::integer("GainRowBits", golden::field_bits(uint64_t{g.planar.param_rows()}),
                          "Bits of a planar gain-table row."),
      SvConstant::integer("ShiftBits", golden::PlanarParams::kShiftBits, "Bits of a gain shift."),
      SvConstant::integer("ApbAddrBits", kAddrBits, "Bits of the APB port's address."),
      SvConstant::integer("SeqApbBits", golden::sequencer_csr::kAddrBits,
                          "Bits of the sequencer's APB address."),
      SvConstant::integer("PlanarApbBits", golden::planar_csr::register_map(g.planar).addr_bits(),
                          "Bits of the planar engine's APB address."),
      SvConstant::integer("TasksApbBits", golden::tasks_csr::register_map(g.tasks).addr_bits(),
                          "Bits of the task unit's APB address."),
      SvConstant::integer("MemAddrBits", g.tasks.memory_address_bits(),
                          "Bits of a system-memory word address."),
      SvConstant::integer("DmaAddrBits", g.dma_addr_bits(),
                          "Bits of a DMA command's first word: a planar address or a row."),
      SvConstant::integer("DmaStoreWords", g.dma_rows().weights,
                          "Memory words a weight-store row takes (the DMA's rows)."),
      SvConstant::integer("DmaParamWords", g.dma_rows().params,
                          "Memory words a post parameter group takes (the DMA's rows)."),
      SvConstant::integer("DmaGainWords", g.dma_rows().gains,
                          "Memory words a planar gain row takes (the DMA's rows)."),
      SvConstant::integer("ReadsInFlight", g.reads_in_flight,
                          "System-memory reads outstanding at most."),
      SvConstant::integer("DescSequencer", kDescSequencer,
                          "Descriptor register of the sequencer's register word 0."),
      SvConstant::integer("DescPlanar", kDescPlanar,
                          "Descriptor register of the planar engine's register word 0."),
      SvConstant::integer("StoreAddrBits", g.seq.agu.weight_addr_bits(),
                          "Bits of a weight-store row address."),
      SvConstant::integer("StoreRowBits", g.seq.tiles() * g.lanes() * 8,
                          "Bits of a weight-store row: T x L int8."),
  };
}

std::vector<std::string> Design::summary() const {
  const golden::NpuDesign& g = design;
  return {
      fmt::format(
          "npu {}: {} ({} x {} array) and {} behind {} ({} task-buffer entries, {} queues) under "
          "one APB port; buffers A and B of {} words; host port {} data bits, {} address bits; "
          "system memory {} address bits, {} reads in flight",
          npu_module, seq_module, g.seq.tiles(), g.lanes(), planar_module, tasks_module,
          g.tasks.entries, g.tasks.queues, g.act_words(), g.host_data_bits(), g.host_addr_bits(),
          g.tasks.memory_address_bits(), g.reads_in_flight) +
      (g.vq ? fmt::format("; VQ weight loader: {} codebook rows of {} weights, {} lookups a "
                          "cycle",
                          g.vq->rows, g.vq->row_weights, g.vq->copies)
            : std::string{})};
}

DesignParams Design::design_params() const {
  // The VQ loader's dequantizer is the vq block's (kVq, written by that block).
  return {{"npugen/golden/npu/params.hpp"},
          fmt::format("inline constexpr unsigned kNpuReadsInFlight = {};\n"
                      "/// The VQ weight loader's dequantizer (nullopt: none).\n"
                      "inline std::optional<golden::VqParams> npu_vq() {{ return {}; }}\n",
                      design.reads_in_flight, design.vq ? "kVq" : "std::nullopt")};
}

}  // namespace npugen::blocks::npu
