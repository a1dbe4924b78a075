// Co-simulation of a generated NPU top (docs/npu.md): the verilated top and the
// golden model (golden/npu/model: the sequencer's and the planar engine's models composed
// with the host-port arbiter) get the same inputs every cycle from one ProgramDriver, the
// host side of a compiled network (golden/npu/program), and every output is compared every
// cycle from the first cycle of reset: APB, the host port, the interrupt, busy, both
// engines' completions and errors, the array's steps and every buffer write of either
// engine (address, lanes, data). As each layer's completion marker passes, the layer's
// output tensor, read from the buffers, is compared with the plain reference network
// interpreter's (golden/network/reference: direct loops sharing no code with the models or
// the compiler); a mismatch names the layer, the NHWC coordinate, expected and got.
//
// --mode check: a random network of every layer kind the design generates (random shapes,
// padding, strides, C and K not multiples of L and T, int8 extremes, random zero points and
// quantization), compiled for 1 to 3 images, until it has run (--cycles bounds it).
// --run FILE (npugen run): the compiled network, its input and the reference tensors of a
// run file; --results FILE receives every layer's tensor and the cycle it finished.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "common/apb_port.hpp"
#include "common/cosim.hpp"
#include "common/port_bits.hpp"
#include "npu/driver_thread.hpp"
#include "npu/random_network.hpp"
#include "npu_driver.hpp"
#include "npugen/compiler/compile.hpp"
#include "npugen/golden/network/reference.hpp"
#include "npugen/golden/npu/dma.hpp"
#include "npugen/golden/npu/model.hpp"
#include "npugen/golden/npu/program.hpp"
#include "npugen/golden/npu/run_file.hpp"
#include "npugen/golden/npu/system_memory.hpp"
#include "npugen/golden/sequencer/lowering.hpp"
#include "npugen/golden/vq/reference.hpp"

namespace {

using namespace npugen::golden;
using namespace npugen::compiler;
using npugen::tb::BenchOptions;
using npugen::tb::Checker;
using npugen::tb::get_bits;
using npugen::tb::set_bits;

NpuDesign the_design() {
  NpuDesign d;
  d.seq.seq = npugen::design::kSequencer;
  d.seq.agu = npugen::design::kAgu;
  d.seq.array = npugen::design::kPeArray;
  d.seq.post = npugen::design::kPost;
  d.planar = npugen::design::kPlanar;
  d.tasks = npugen::design::kTasks;
  d.reads_in_flight = npugen::design::kNpuReadsInFlight;
  d.vq = npugen::design::npu_vq();
  d.seq.zs = npugen::design::sequencer_zs();
  return d;
}

const NpuDesign kD = the_design();

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot be read", path));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class NpuBench {
 public:
  static npugen::tb::BenchSpec spec() {
    npugen::tb::BenchSpec s;
    s.title = fmt::format(
        "Co-simulation of the NPU top of design {} (RTL against the golden model every cycle, "
        "every layer against the plain reference network interpreter)",
        npugen::design::kName);
    s.modes = {"check"};
    s.modes_help =
        "check: a random network of every layer kind the design generates (or, with --run, "
        "the compiled network of a run file)";
    s.run = true;
    return s;
  }

  explicit NpuBench(const BenchOptions& o)
      : cycles_(o.cycles),
        results_path_(o.results),
        golden_(kD),
        traffic_(o.run.empty()),
        rng_(o.seed ^ 0x9e3779b97f4a7c15ULL),
        more_rng_(o.seed * 0x2545f4914f6cdd1dULL + 11) {
    if (!o.run.empty()) {
      run_ = parse_run_file(read_text(o.run));
      if (run_.program.lanes != kD.lanes()) {
        throw std::runtime_error(fmt::format("{}: compiled for {} lanes, the design has {}", o.run,
                                             run_.program.lanes, kD.lanes()));
      }
      more_ = false;
    } else {
      std::mt19937_64 rng(o.seed);
      if (!draw_program(rng, cycles_ / 2, Steer{}, true)) {
        std::string why = fmt::format(
            "no random network fits this design and its cycle budget in "
            "{} draws:",
            refused_.size() + too_long_);
        if (!refused_.empty()) {
          why += fmt::format(" the compiler refused {} (the last for: {});", refused_.size(),
                             refused_.back());
        }
        if (too_long_ != 0) {
          why += fmt::format(
              " {} needed more than half the cycle budget ({} cycles) on the golden model "
              "alone: raise --cycles (or sim.cycles)",
              too_long_, cycles_ / 2);
        }
        throw std::runtime_error(why);
      }
    }
    // System memory: random latencies and readiness from the seed (fixed with --run).
    timing_.seed = o.seed;
    if (o.run.empty()) {
      std::mt19937_64 t(o.seed * 31 + 7);
      timing_.min_latency = 1 + static_cast<unsigned>(t() % 4);
      timing_.max_latency = timing_.min_latency + static_cast<unsigned>(t() % 8);
      timing_.ready_percent = t() % 3 == 0 ? 100 : 40 + static_cast<unsigned>(t() % 60);
    }
    start_program();
  }

  void drive_reset(Vdut& dut, std::mt19937_64& junk) {
    // Arbitrary APB requests and host-port fields in reset: they must change nothing. The
    // host port's valid stays low, as a valid/ready manager holds it in reset (the RTL
    // asserts it): the memories have no reset, and the reset is not used as data.
    NpuInputs in;
    const uint64_t r = junk();
    in.apb = npugen::tb::arbitrary_request(r, static_cast<uint32_t>(r >> 8) & 0xfffU);
    in.sys_req_ready = (r >> 39) & 1U;  // no data: no read is outstanding
    in.host.valid = false;
    in.host.write = (r >> 41) & 1U;
    in.host.target = static_cast<HostTarget>((r >> 42) % 8);
    in.host.addr = (r >> 45) & 0xff;
    in.host.data.assign((kD.host_data_bits() + 7) / 8, static_cast<uint8_t>(r >> 56));
    in_ = in;
    drive(dut, in_);
  }
  void check_reset(const Vdut& dut, Checker& check) { compare(dut, golden_.outputs(in_), check); }

  bool drive(Vdut& dut, uint64_t cycle) {
    // A program done: once the bench's own transfer and the memory's reads are over, the
    // next one, while the run has not shown what it should and the budget lasts (a short
    // program leaves most of it).
    if (driver_->done() && more_ && cycle < cycles_) {
      if (!extra_ && memory_->idle() && !want_.sys_req_valid) {
        end_program();
        more_ = next_program(cycle);
      }
    }
    const bool settling = driver_->done() && more_;
    if ((driver_->done() && !settling) || cycle >= cycles_) {
      out_of_cycles_ = !driver_->done();
      return false;
    }
    cycle_ = cycle;
    in_ = driver_->inputs();
    stalled_ = false;
    c_step_ = driver_->step_index();
    if (c_driver_ && c_step_ && *c_step_ >= c_from_) take_c_request();
    // The bench's own traffic, while the driver waits for a completion (check mode): APB
    // reads anywhere (gaps included), writes to the top's own registers (IRQ_ENABLE, a
    // write-1-to-clear of STATUS racing completions, CYCLES), host reads of every memory
    // (waiting while the planar engine holds the port) and host writes to targets 5 to 7.
    if (!extra_ && traffic_ && driver_->waiting() && rng_() % 3 == 0) start_extra();
    if (extra_) {
      stalled_ = true;
      in_ = *extra_;
      in_.apb.penable = extra_access_;
    }
    memory_->serve(in_);
    drive(dut, in_);
    return true;
  }

  void check(const Vdut& dut, Checker& check) {
    for (const auto& f : failures_) check.fail(f);
    failures_.clear();
    want_ = golden_.outputs(in_);
    compare(dut, want_, check);
    steps_ += want_.step;
    seq_writes_ += want_.seq_write.valid;
    planar_writes_ += want_.planar_write.valid;
    driver_->observe(in_, want_, stalled_);
    irq_cycles_ += want_.irq;
    sys_reads_ += want_.sys_req_valid && in_.sys_req_ready;
    sys_waits_ += want_.sys_req_valid && !in_.sys_req_ready;
    if (extra_) {
      if (in_.apb.psel) {
        if (!extra_access_) {
          extra_access_ = true;
        } else if (want_.apb.pready) {
          extra_.reset();
          ++extra_apb_;
          extra_access_ = false;
        } else {
          ++apb_waits_;
        }
      } else if (want_.host_ready) {
        host_reads_ += !in_.host.write;
        host_waits_ += extra_wait_;
        extra_.reset();
      } else {
        extra_wait_ = true;
      }
    }
    // Read after the edge: the last write lands there.
    pending_layers_ = driver_->layers_finished();
    // A malformed descriptor (the RTL agrees: compared above) ends the run with its report.
    if (want_.tasks_err && !tasks_err_seen_) {
      tasks_err_seen_ = true;
      failures_.push_back(fmt::format(
          "cycle {}: the task unit flagged a malformed descriptor (STATUS.TASKS_ERR; its "
          "length word is below the 4 header words)",
          cycle_));
    }
    // So does a configuration an engine refuses (the compiler writes none).
    if (want_.cfg_err && !cfg_err_seen_) {
      cfg_err_seen_ = true;
      failures_.push_back(fmt::format(
          "cycle {}: an engine refused the registers it was given (STATUS.CFG_ERR)", cycle_));
    }
  }

  void tick() {
    vq_rows_ += in_.host.valid && in_.host.write && in_.host.target == HostTarget::kVqRow &&
                want_.host_ready;
    // The C driver's access is complete when the program's step is: the driver runs on.
    if (c_driver_ && c_step_ && *c_step_ >= c_from_ && driver_->step_index() != c_step_) {
      c_driver_->complete(driver_->last_read());
      ++c_accesses_;
    }
    golden_.tick(in_);
    memory_->tick(in_, want_);
    // A tensor in system memory is read once every band is stored: at the end.
    for (const unsigned layer : pending_layers_) {
      if (run_.program.layers.at(layer).out.mem) {
        in_memory_.emplace_back(layer, cycle_);
      } else {
        finish_layer(layer, cycle_);
      }
    }
    pending_layers_.clear();
    if (driver_->done()) {
      for (const auto& [layer, at] : in_memory_) finish_layer(layer, at);
      in_memory_.clear();
    }
  }

  void finish(Checker& check, npugen::tb::RunSummary& s) {
    if (driver_->done() && !ended_) end_program();
    for (auto& f : failures_) check.fail(f);
    if (out_of_cycles_) {
      check.fail(fmt::format("the network did not finish in {} cycles ({} of {} layers done)",
                             cycles_, program_layers_, run_.program.layers.size()));
    }
    results_.cycles = cycle_ + 1;
    const Program& p = run_.program;
    s.counts = {{"layers", finished_layers_}};
    s.compared("elements checked", elements_checked_);
    s.counts.insert(s.counts.end(), {{"array steps", steps_},
                                     {"sequencer buffer writes", seq_writes_},
                                     {"planar buffer writes", planar_writes_},
                                     {"random networks refused by the compiler", refused_.size()},
                                     {"random networks too long for the cycle budget", too_long_}});
    const bool neural_flows = kD.seq.agu.generates(Dataflow::kConv) || npugen::tb::fc_possible(kD);
    s.goal("neural layers run", neural_layers_, neural_flows);
    if (!neural_flows) {
      s.limits.push_back(
          kD.seq.agu.generates(Dataflow::kFc)
              ? "agu.dataflows has fc but not conv, and agu.max_channels is below "
                "pe_array.lanes (an fc's input is whole words of L channels): no neural layer"
              : "agu.dataflows has neither conv nor fc: no neural layer");
    }
    s.goal("planar layers run", planar_layers_, false);
    s.goal("programs of several outputs (each kept to the end)", programs_with_outputs_, false);
    s.goal("outputs the DMA stored, checked against the reference", outputs_stored_, false);
    s.goal("concat layers run (a copy of each input into its words)", concat_layers_, false);
    s.goal("resize layers run (a copy a position of each output block)", resize_layers_, false);
    if (kD.planar.generates(PlanarOp::kLut)) {
      s.goal("LUT layers run (the table in the gain table's rows)", lut_layers_, false);
    }
    s.goal("inputs written im2col'd for their convolution", packed_, false);
    if (kD.seq.zs) s.goal("layers run on the zero-skipping array", zs_layers_, false);
    if (kD.vq) {
      s.goal("weight rows loaded as codebook indices", raw_loads_ != 0 ? 0 : vq_rows_, false);
      s.goal("weight rows loaded raw through the VQ loader", raw_loads_, false);
    }
    const bool tasks = task_programs_ != 0;
    s.lines.insert(s.lines.end(), program_lines_.begin(), program_lines_.end());
    for (const std::string& why : refused_) s.lines.push_back("refused by the compiler: " + why);
    // Goals the bench draws later programs for when the first does not show them: required
    // unless no program showing them fitted the design and the rest of the budget.
    s.goal("programs sequenced by the host", host_programs_, !host_missed_ && traffic_);
    s.goal("programs sequenced by the task unit", task_programs_, !tasks_missed_ && traffic_);
    if (host_missed_ || tasks_missed_) {
      s.limits.push_back(fmt::format(
          "no random network sequenced by the {} fitted the design and the rest of the budget "
          "(sim.cycles {}, further programs drawn {} times each)",
          host_missed_ ? "host" : "task unit", cycles_, kLaterDraws));
    }
    if (tasks) {
      s.goal("register accesses made by the C driver", c_accesses_, true);
      s.goal("descriptor groups the hardware passes over", junk_groups_, false);
      s.goal("system-memory reads", sys_reads_, true);
      s.goal("system-memory requests that waited", sys_waits_, false);
      s.goal("input words the DMA loaded", input_dma_words_, false);
      s.goal("memory words the DMA stored", mem_writes_, stores_wanted_);
      s.goal("words the I/O areas moved up, reached through the base table", relocated_, false);
      s.goal("layers run as several engine tasks (row bands, tiles)", banded_, false);
      s.goal("tensors kept in system memory (above a buffer)", kept_, false);
    }
    s.goal("tasks whose engine started before the DMA loaded their input", engine_first_,
           traffic_ && !engine_first_missed_);
    if (engine_first_missed_) {
      s.limits.push_back(fmt::format(
          "no random network with a layer reading another's output from a buffer fitted the "
          "design and the rest of the budget (sim.cycles {}, further programs drawn {} times "
          "each)",
          cycles_, kLaterDraws));
    }
    if (!kD.vq) {
      s.goal("weight, parameter and gain rows the DMA loaded", dma_rows_,
             traffic_ && !dma_rows_missed_);
      if (dma_rows_missed_) {
        s.limits.push_back(fmt::format(
            "no random network loading its weights by the DMA fitted the design and the rest "
            "of the budget (sim.cycles {}, further programs drawn {} times each)",
            cycles_, kLaterDraws));
      }
    }
    if (traffic_) {
      s.goal("the bench's own APB transfers", extra_apb_, true);
      s.goal("host reads answered", host_reads_, true);
      s.goal("cycles with the interrupt raised", irq_cycles_, true);
      s.goal("host requests that waited for the port", host_waits_, false);
      if (tasks) s.goal("APB accesses that waited for a command processor", apb_waits_, false);
    }
    for (size_t i = 0; i < results_.layers.size(); ++i) {
      const LayerResult& r = results_.layers[i];
      const ProgramLayer& l = p.layers[i];
      if (r.name.empty() && r.finished_at == 0) continue;  // not finished
      s.lines.push_back(fmt::format("layer {} ({}, {}): {}x{}x{}x{}, finished at cycle {}, {} MACs",
                                    r.name, net::op_name(l.op), l.neural ? "neural" : "planar",
                                    r.tensor.n, r.tensor.h, r.tensor.w, r.tensor.c, r.finished_at,
                                    l.macs));
    }
    if (!results_path_.empty()) {
      std::ofstream out(results_path_, std::ios::binary);
      out << results_text(results_);
      if (!out) check.fail(fmt::format("{}: cannot be written", results_path_));
    }
  }

  std::vector<std::string> diagnose() const {
    std::vector<std::string> lines;
    lines.push_back(fmt::format("program {}: {} of its {} layers had finished", programs_,
                                program_layers_, run_.program.layers.size()));
    if (const auto step = driver_->step_index()) {
      lines.push_back(fmt::format("its driver at step {} of {} ({})", *step,
                                  run_.program.steps.size(),
                                  static_cast<int>(run_.program.steps[*step].kind)));
    }
    return lines;
  }
  std::string repro_args() const { return ""; }

 private:
  /// What a program after the first is drawn for: a sequencing, weights by the DMA.
  struct Steer {
    std::optional<Sequencing> how;
    bool by_dma = false;
    bool engine_first = false;  ///< descriptors whose engine writes precede their input's load
  };
  static constexpr unsigned kMaxPrograms = 6;  ///< programs a run draws at most
  static constexpr int kLaterDraws = 40;       ///< draws for a program after the first

  // A random network compiled for the design, run on the golden model alone within
  // `budget` cycles: run_, network_ and the program's extras. The first program draws as it
  // always has (its seed's scenario); later ones are steered. False: none in the draws.
  bool draw_program(std::mt19937_64& rng, uint64_t budget, const Steer& steer, bool first) {
    for (int attempt = 0;; ++attempt) {
      if (attempt > (first ? 1000 : kLaterDraws)) return false;
      const net::Network n = npugen::tb::random_network(kD, rng);
      const int batch = 1 + static_cast<int>(rng() % 3);
      // Three networks in four run through the task unit, the others host-sequenced.
      Sequencing how = rng() % 4 != 0 ? Sequencing::kTasks : Sequencing::kHost;
      // Half the task-unit runs of designs without VQ load every layer's weights,
      // parameters and gains by the DMA, as when they do not fit the store together.
      bool by_dma = how == Sequencing::kTasks && !kD.vq && rng() % 2 == 0;
      if (steer.how) how = *steer.how;
      by_dma = (by_dma || steer.by_dma) && how == Sequencing::kTasks && !kD.vq;
      Program program;
      try {
        program = compile_network(kD, n, batch, {.sequencing = how, .weights_by_dma = by_dma});
      } catch (const CompileError& e) {
        refused_.push_back(e.what());
        continue;
      }
      if (steer.by_dma && dma_rows(program) == 0) continue;
      reference::Tensor x;
      x.n = batch;
      x.h = n.input.h;
      x.w = n.input.w;
      x.c = n.input.c;
      x.data.resize(static_cast<size_t>(batch) * n.input.elements());
      for (auto& v : x.data) v = static_cast<int8_t>(rng());
      // A network the cycle budget runs: on the golden model alone (memory answering at
      // once, none of the bench's own traffic) within the budget given (half the rest), the
      // other half left to the bench's memory latencies, its traffic and back-pressure.
      try {
        (void)run_program(kD, program, x, budget);
      } catch (const ProgramTimeout&) {
        ++too_long_;
        continue;
      }
      // A later program starts where the last left each engine's register groups (the
      // golden model's run above starts from reset, so it was compiled for groups 0).
      if (!first) {
        program = compile_network(kD, n, batch,
                                  {.sequencing = how,
                                   .weights_by_dma = by_dma,
                                   .neural_group = golden_.sequencer().agu().consumer(),
                                   .planar_group = golden_.planar().current()});
      }
      run_.program = std::move(program);
      run_.input = x;
      auto tensors = reference::run_network(n, x);
      run_.expected.assign(tensors.begin() + 1, tensors.end());
      network_ = n;
      if (run_.program.sequencing == Sequencing::kTasks && rng() % 2 == 0) {
        junk_groups_ += add_junk_groups(run_.program, rng);
      }
      prog_raw_loads_ = 0;
      if (kD.vq && rng() % 3 == 0) prog_raw_loads_ = raw_vq_loads(run_.program);
      raw_loads_ += prog_raw_loads_;
      prog_relocated_ = 0;
      // The I/O areas move only in the first program (later ones expect the base table of
      // reset).
      if (first && (run_.program.input_at || stores_outputs(run_.program))) {
        if (rng() % 2 == 0) prog_relocated_ = relocate(run_.program, rng);
      }
      relocated_ += prog_relocated_;
      if (!first && relocated_ != 0) {
        // An earlier program moved the I/O areas: the base table back to reset first.
        ProgramStep index;
        index.kind = ProgramStep::Kind::kApbWrite;
        index.apb_addr =
            npu_csr::kTasksWindow + tasks_csr::queue_register(0, tasks_csr::kBaseIndex);
        ProgramStep base = index;
        base.apb_addr = npu_csr::kOwnWindow + npu_csr::kBase;
        run_.program.steps.insert(run_.program.steps.begin(), {index, base});
      }
      prog_engine_first_ = 0;
      if (steer.engine_first) {
        prog_engine_first_ = engine_first(run_.program, run_.expected);
        if (prog_engine_first_ == 0) continue;
        engine_first_ += prog_engine_first_;
      }
      return true;
    }
  }

  // Descriptors whose engine writes (CTRL.ENABLE among them) come before the region fields,
  // with their input "in memory": a task reading a tensor a layer wrote into a buffer gets
  // header bit 25 and a copy of that tensor's buffer words in memory, and its region group
  // moves to the descriptor's end. The engine starts at once, the DMA loads the same words
  // over its input at the descriptor's end, and the engine's completion (or error) may come
  // while the command processor waits for the load: it must be kept. Returns the tasks so
  // changed (only descriptors with no load of their own, whose first input is a layer's
  // whole output in a buffer).
  // Whether the DMA stores any of the program's outputs.
  static bool stores_outputs(const Program& p) {
    return std::any_of(p.outputs.begin(), p.outputs.end(),
                       [](const ProgramOutput& o) { return o.at.has_value(); });
  }

  static uint64_t engine_first(Program& p, const std::vector<reference::Tensor>& expected) {
    namespace td = task_desc;
    const unsigned lanes = kD.lanes(), w = dma_words_per_buffer_word(lanes);
    uint64_t end = p.memory.size();
    auto area = [&](const std::optional<uint64_t>& at, const ProgramTensor& t) {
      if (at) end = std::max(end, *at + t.words(lanes) * w);
    };
    area(p.input_at, p.input);
    for (const ProgramOutput& o : p.outputs) area(o.at, p.layers.at(o.layer).out);
    for (const auto& l : p.layers) area(l.out.mem, l.out);
    uint64_t changed = 0;
    constexpr uint32_t kRegionGroup = (7U << td::kGroupCountShift) | td::kRegOp;
    constexpr uint64_t kRegionWords = 8;  // the group word, OP and the six region words
    for (const uint64_t first : p.descriptors) {
      const uint32_t length = p.memory.at(first + 1) & 0xffffU;
      const uint64_t at = first + td::kHeaderWords;
      if (((p.memory[first] >> td::kInMemoryBit) & 1U) != 0 || p.memory[at] != kRegionGroup ||
          length <= td::kHeaderWords + kRegionWords) {
        continue;
      }
      const uint64_t in_base = p.memory[at + 2], in_words = p.memory[at + 3];
      if ((p.memory[at + kRegionWords] & 0xffffU) == td::kRegDmaTarget) continue;  // rows
      std::optional<size_t> producer;
      for (size_t j = 0; j < p.layers.size() && j < expected.size(); ++j) {
        const ProgramTensor& o = p.layers[j].out;
        if (!o.mem && o.buf * kD.act_words() + o.base == in_base && o.words(lanes) == in_words) {
          producer = j;
        }
      }
      if (!producer || in_words == 0) continue;
      const auto words = tensor_words(expected[*producer], lanes);
      if (words.size() != in_words || end + words.size() * w > kD.tasks.memory_words) continue;
      if (p.memory.size() < end + words.size() * w) p.memory.resize(end + words.size() * w, 0);
      for (size_t i = 0; i < words.size(); ++i) {
        for (unsigned j = 0; j < w; ++j) {
          uint32_t v = 0;
          for (unsigned b = 0; b < 4 && j * 4 + b < lanes; ++b) {
            v |= uint32_t{words[i][j * 4 + b]} << (8 * b);
          }
          p.memory[end + i * w + j] = v;
        }
      }
      p.memory[first] |= 1U << td::kInMemoryBit;
      p.memory[first + 2] = static_cast<uint32_t>(end);
      end += words.size() * w;
      // The region group after the engine's writes.
      const auto b = p.memory.begin();
      std::rotate(b + static_cast<std::ptrdiff_t>(at),
                  b + static_cast<std::ptrdiff_t>(at + kRegionWords),
                  b + static_cast<std::ptrdiff_t>(first + length));
      ++changed;
    }
    return changed;
  }

  // The drawn program's driver, memory and C driver.
  void start_program() {
    driver_.emplace(kD, run_.program, run_.input);
    results_.layers.clear();
    results_.layers.resize(run_.program.layers.size());  // by layer (they may finish out of order)
    memory_.emplace(program_memory(run_.program, run_.input), timing_);
    ended_ = false;
    program_layers_ = 0;
    ++programs_;
    (run_.program.sequencing == Sequencing::kTasks ? task_programs_ : host_programs_) += 1;
    // With the task unit, the C driver (sw/<design>_npu_driver.c) makes the register
    // accesses that start the list and wait for it: the program's last steps (before them,
    // the host's loads, a VQ layer's APB accesses of the dequantizer among them).
    c_driver_.reset();
    c_step_.reset();
    const Program& p = run_.program;
    if (p.sequencing == Sequencing::kTasks) {
      const auto count = static_cast<uint32_t>(p.descriptors.size());
      // With the I/O areas moved, the driver's set_base makes the program's first two steps.
      const size_t driver_steps = npu_driver_steps(0, 0, count).size() + (prog_relocated_ ? 2 : 0);
      c_from_ = p.steps.size() >= driver_steps ? p.steps.size() - driver_steps : 0;
      const uint32_t index = prog_relocated_ ? p.steps[c_from_].apb_data : 0;
      const auto delta = static_cast<uint32_t>(prog_relocated_);
      c_driver_ = std::make_unique<npugen::tb::DriverThread>(
          [count, index, delta](npugen::tb::DriverThread& t) {
            namespace drv = npugen::design::npu_driver;
            const drv::Hal hal = {&t, &npugen::tb::DriverThread::write32,
                                  &npugen::tb::DriverThread::read32,
                                  &npugen::tb::DriverThread::wait_irq};
            if (delta != 0) {
              const int based = drv::set_base(&hal, 0, index, delta);
              if (based != drv::kOk) return based;
            }
            const int started = drv::start(&hal, 0, 0, count);
            return started != drv::kOk ? started : drv::wait(&hal);
          });
    }
  }

  // The finished program's end checks (the C driver's result, the output the DMA stored)
  // and its share of the run's figures.
  void end_program() {
    ended_ = true;
    const Program& prog = run_.program;
    if (c_driver_) {
      const auto& r = c_driver_->request();
      if (r.kind != npugen::tb::DriverThread::Kind::kDone) {
        failures_.push_back(
            fmt::format("the C driver made an access the program does not have: "
                        "{} 0x{:03x}",
                        kind_name(r.kind), r.addr));
      } else if (c_driver_->result() != npugen::design::npu_driver::kOk) {
        failures_.push_back(fmt::format("the C driver returned {} (STATUS read 0x{:08x})",
                                        c_driver_->result(), driver_->last_read()));
      }
    }
    // With the DMA the outputs are in system memory too: the words the RTL wrote there
    // (every write request compared) against the reference's tensors.
    const std::vector<reference::Tensor> stored = read_memory_outputs(prog, memory_->words());
    for (size_t k = 0; k < prog.outputs.size(); ++k) {
      const ProgramOutput& o = prog.outputs[k];
      if (!o.at || o.layer >= run_.expected.size()) continue;
      const reference::Tensor& got = stored[k];
      const reference::Tensor& want = run_.expected[o.layer];
      for (size_t i = 0; i < want.data.size() && i < got.data.size(); ++i) {
        if (want.data[i] != got.data[i]) {
          failures_.push_back(fmt::format(
              "output {} (layer {}) the DMA stored at memory word {}: element {} is {}, the "
              "reference interpreter's {}",
              o.name, o.layer, *o.at, i, got.data[i], want.data[i]));
          break;
        }
      }
      elements_checked_ += want.data.size();
      outputs_stored_ += 1;
    }
    programs_with_outputs_ += prog.outputs.size() > 1 ? 1 : 0;
    for (const auto& l : prog.layers) {
      (l.neural ? neural_layers_ : planar_layers_) += 1;
      lut_layers_ += l.op == net::Op::kLut ? 1 : 0;
      concat_layers_ += l.op == net::Op::kConcat ? 1 : 0;
      resize_layers_ += l.op == net::Op::kResize ? 1 : 0;
      zs_layers_ += l.zs_steps != 0 ? 1 : 0;
      banded_ += l.tasks > 1 ? 1 : 0;
      kept_ += l.out.mem ? 1 : 0;
    }
    packed_ += prog.packing.on ? 1 : 0;
    mem_writes_ += memory_->writes();
    if (prog.sequencing == Sequencing::kTasks) {
      kept_ += prog.input.mem ? 1 : 0;
      input_dma_words_ += prog.input_at ? prog.input.words(kD.lanes()) : 0;
      stores_wanted_ = stores_wanted_ || stores_outputs(prog);
      dma_rows_ += dma_rows(prog);
    }
    unsigned by_dma = dma_rows(prog) != 0 ? 1 : 0;
    program_lines_.push_back(fmt::format(
        "program {}: {} layers, sequenced by {}{}, finished at cycle {}", programs_,
        prog.layers.size(), prog.sequencing == Sequencing::kTasks ? "the task unit" : "the host",
        by_dma != 0 ? ", weights, parameters and gains loaded by the DMA" : "", cycle_));
    if (prog_engine_first_ != 0) {
      program_lines_.back() += fmt::format(
          ", {} tasks with their engine's writes before their input's load", prog_engine_first_);
    }
  }

  // A further program, drawn for what the run has not shown yet (weights by the DMA, either
  // sequencing) within half the budget left. False: none is wanted, or none fits.
  bool next_program(uint64_t cycle) {
    if (programs_ >= kMaxPrograms || cycle + 1000 > cycles_) {
      // No room for another: what is not shown yet is a limit of this budget.
      dma_rows_missed_ = dma_rows_missed_ || (!kD.vq && dma_rows_ == 0);
      engine_first_missed_ = engine_first_missed_ || engine_first_ == 0;
      host_missed_ = host_missed_ || host_programs_ == 0;
      tasks_missed_ = tasks_missed_ || task_programs_ == 0;
      return false;
    }
    Steer steer;
    if (!kD.vq && dma_rows_ == 0 && !dma_rows_missed_) {
      steer = Steer{Sequencing::kTasks, true};
    } else if (engine_first_ == 0 && !engine_first_missed_) {
      steer = Steer{Sequencing::kTasks, false, true};
    } else if (host_programs_ == 0 && !host_missed_) {
      steer.how = Sequencing::kHost;
    } else if (task_programs_ == 0 && !tasks_missed_) {
      steer.how = Sequencing::kTasks;
    } else {
      return false;
    }
    const size_t refused = refused_.size();
    if (draw_program(more_rng_, (cycles_ - cycle) / 2, steer, false)) {
      refused_.resize(refused);  // a later program's refusals say nothing of the design
      start_program();
      return true;
    }
    refused_.resize(refused);
    (steer.by_dma                     ? dma_rows_missed_
     : steer.engine_first             ? engine_first_missed_
     : steer.how == Sequencing::kHost ? host_missed_
                                      : tasks_missed_) = true;
    return next_program(cycle);
  }

  static void drive(Vdut& dut, const NpuInputs& in) {
    npugen::tb::drive_apb(dut, in.apb);
    dut.sys_req_ready_i = in.sys_req_ready;
    dut.sys_rsp_valid_i = in.sys_rsp_valid;
    dut.sys_rsp_data_i = in.sys_rsp_data;
    dut.host_valid_i = in.host.valid;
    dut.host_write_i = in.host.write;
    dut.host_target_i = static_cast<unsigned>(in.host.target);
    dut.host_addr_i = in.host.addr;
    const size_t bytes = (kD.host_data_bits() + 7) / 8;
    for (size_t i = 0; i < bytes; ++i) {
      const unsigned width =
          std::min<unsigned>(8, kD.host_data_bits() - static_cast<unsigned>(i) * 8);
      set_bits(dut.host_wdata_i, static_cast<unsigned>(i) * 8, width,
               i < in.host.data.size() ? in.host.data[i] : 0);
    }
  }

  // Descriptors with groups the hardware must pass over, in front of the compiler's and
  // behind them (after the engine's CTRL write, so that a short layer may finish while its
  // descriptor is still being read): a group of no registers, registers no one decodes
  // (between the task unit's and the engines', above the planar engine's), and a word of
  // each engine's port with no register behind it (the edges of the windows). The same
  // image goes to the golden model and the RTL. Returns the groups added (0 when the
  // image would no longer fit the system memory).
  // The VQ loader's raw path: every VQ load of the program made a load with CTRL.VQ_EN low,
  // each row's indices replaced by the weights they stand for, looked up by the plain
  // reference (reference::vq_lookup) in the codebook rows written before: the same weights
  // reach the store another way. Returns the rows changed.
  static uint64_t raw_vq_loads(Program& p) {
    const VqParams& q = *kD.vq;
    const unsigned row_w = kD.seq.tiles() * kD.lanes(), ib = q.index_bits();
    std::vector<uint32_t> book(size_t{q.rows} * q.row_weights, 0);
    unsigned m = 0;
    uint64_t rows = 0;
    for (ProgramStep& st : p.steps) {
      if (st.kind == ProgramStep::Kind::kApbWrite &&
          st.apb_addr == npu_csr::kVqWindow + vq_csr::kCtrl) {
        m = 1U << ((st.apb_data >> vq_csr::kCtrlVlenLsb) & ((1U << vq_csr::kCtrlVlenBits) - 1));
        st.apb_data &= ~(1U << vq_csr::kCtrlVqEnBit);
      } else if (st.kind == ProgramStep::Kind::kHostWrite && st.target == HostTarget::kVqCodebook) {
        for (unsigned j = 0; j < q.row_weights; ++j) {
          book[(st.addr % q.rows) * q.row_weights + j] = st.data[j];
        }
      } else if (st.kind == ProgramStep::Kind::kHostWrite && st.target == HostTarget::kVqRow) {
        std::vector<uint8_t> raw(st.data.size(), 0);
        for (unsigned j = 0; j < row_w / m; ++j) {
          uint64_t index = 0;
          for (unsigned b = 0; b < ib; ++b) {
            const uint64_t bit = uint64_t{j} * ib + b;
            index |= uint64_t{(st.data[bit / 8] >> (bit % 8)) & 1U} << b;
          }
          const auto v = reference::vq_lookup(book, q.row_weights, 0, m, index);
          if (!v) throw std::logic_error("a VQ row's index falls outside its codebook");
          for (unsigned k = 0; k < m; ++k) raw[size_t{j} * m + k] = static_cast<uint8_t>((*v)[k]);
        }
        st.data = std::move(raw);
        ++rows;
      }
    }
    return rows;
  }

  // The base table at work: the DMA's areas moved `delta` words up in memory, the pointers
  // in the descriptors left as they are, and BASE[k] = delta for queue 0's BASE_INDEX (k, or
  // k + 4: the top uses it mod 4), written before the list starts by the C driver's
  // set_base (the two steps it must make). Returns delta (0: no room).
  static uint64_t relocate(Program& p, std::mt19937_64& rng) {
    const uint64_t delta = 1 + rng() % 64;
    const uint64_t from = program_data_start(p);
    if (p.memory.size() + delta > kD.tasks.memory_words) return 0;
    p.memory.insert(p.memory.begin() + static_cast<std::ptrdiff_t>(from), delta, 0U);
    move_program_data(p, static_cast<int64_t>(delta));
    const unsigned k = static_cast<unsigned>(rng() % npu_csr::kBaseEntries);
    const uint32_t index = k + (rng() % 2 == 0 ? 0U : npu_csr::kBaseEntries);
    ProgramStep base_index;
    base_index.kind = ProgramStep::Kind::kApbWrite;
    base_index.apb_addr =
        npu_csr::kTasksWindow + tasks_csr::queue_register(0, tasks_csr::kBaseIndex);
    base_index.apb_data = index;
    ProgramStep base = base_index;
    base.apb_addr = npu_csr::kOwnWindow + npu_csr::kBase + 4 * k;
    base.apb_data = static_cast<uint32_t>(delta);
    // Just before the C driver's start (the program's last steps).
    const size_t driver = npu_driver_steps(0, 0, p.descriptors.size()).size();
    p.steps.insert(p.steps.end() - static_cast<std::ptrdiff_t>(driver), {base_index, base});
    return delta;
  }

  // The register writes of the descriptor at words [first, end): (register, value).
  static std::vector<std::pair<uint32_t, uint32_t>> registers(const std::vector<uint32_t>& words,
                                                              size_t first, size_t end) {
    namespace td = task_desc;
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (size_t w = first + td::kHeaderWords; w < end;) {
      const uint32_t reg = words[w] & 0xffffU, n = (words[w] >> td::kGroupCountShift) & 0xffU;
      for (uint32_t k = 0; k < n && w + 1 + k < end; ++k)
        out.emplace_back(reg + k, words[w + 1 + k]);
      w += 1 + n;
    }
    return out;
  }

  // The rows the program's descriptors have the DMA load (DMA_ROWS of their loads of rows).
  static uint64_t dma_rows(const Program& p) {
    uint64_t rows = 0;
    for (const uint64_t first : p.descriptors) {
      const uint64_t end = first + (p.memory.at(first + 1) & 0xffffU);
      for (const auto& [reg, value] : registers(p.memory, first, end)) {
        if (reg == task_desc::kRegDmaRows) rows += value;
      }
    }
    return rows;
  }

  // Whether a descriptor (its words) writes an engine register.
  static bool engine_writes(const std::vector<uint32_t>& d) {
    const auto regs = registers(d, 0, d.size());
    return std::any_of(regs.begin(), regs.end(),
                       [](const auto& r) { return r.first >= npu_csr::kDescSequencer; });
  }

  static uint64_t add_junk_groups(Program& p, std::mt19937_64& rng) {
    namespace td = task_desc;
    SequencerModel seq(kD.seq);
    PlanarModel planar(kD.planar);
    auto unmapped = [&](bool is_planar, uint32_t word) {
      ApbRequest r{true, true, false, word * 4, 0};
      if (is_planar) {
        PlanarInputs in;
        in.apb = r;
        return planar.outputs(in).apb.pslverr;
      }
      SequencerInputs in;
      in.apb = r;
      return seq.outputs(in).apb.pslverr;
    };
    const uint32_t seq_words = (1U << sequencer_csr::kAddrBits) / 4;
    const uint32_t planar_words = (1U << planar_csr::register_map(kD.planar).addr_bits()) / 4;
    auto junk = [&](std::vector<uint32_t>& out) {
      uint64_t groups = 0;
      for (int g = 1 + static_cast<int>(rng() % 3); g > 0; --g, ++groups) {
        switch (rng() % 4) {
          case 0:  // a group of no registers
            out.push_back(static_cast<uint32_t>(rng() & 0xffffU));
            break;
          case 1: {  // nobody's registers: 0x030 to 0x0f0, or 0x280 to 0xfff0
            const uint32_t n = 1 + static_cast<uint32_t>(rng() % 4);
            const uint32_t reg = rng() % 2 == 0 ? 0x30U + static_cast<uint32_t>(rng() % 0xc0)
                                                : 0x280U + static_cast<uint32_t>(rng() % 0xfd70);
            out.push_back(reg | (n << td::kGroupCountShift));
            for (uint32_t k = 0; k < n; ++k) out.push_back(static_cast<uint32_t>(rng()));
            break;
          }
          default: {  // an engine's word with no register: the window's last, else another
            const bool is_planar = rng() % 2 == 0;
            const uint32_t words = is_planar ? planar_words : seq_words;
            uint32_t w = words - 1;
            for (int tries = 0; tries < 8 && !unmapped(is_planar, w); ++tries) {
              w = static_cast<uint32_t>(rng() % words);
            }
            if (!unmapped(is_planar, w)) break;
            out.push_back(((is_planar ? npu_csr::kDescPlanar : npu_csr::kDescSequencer) + w) |
                          (1U << td::kGroupCountShift));
            out.push_back(static_cast<uint32_t>(rng()));
            break;
          }
        }
      }
      return groups;
    };
    std::vector<uint32_t> memory;
    std::vector<uint64_t> offsets;
    uint64_t groups = 0;
    for (const uint64_t first : p.descriptors) {
      const uint32_t length = p.memory.at(first + 1) & 0xffffU;
      std::vector<uint32_t> d(p.memory.begin() + static_cast<std::ptrdiff_t>(first),
                              p.memory.begin() + static_cast<std::ptrdiff_t>(first + length));
      std::vector<uint32_t> front, back;
      // A claim (a band's task with no engine write, done at once) keeps none: a write into
      // its engine would have it wait for a completion that never comes.
      if (engine_writes(d)) groups += junk(front) + junk(back);
      d.insert(d.begin() + td::kHeaderWords, front.begin(), front.end());
      d.insert(d.end(), back.begin(), back.end());
      d[1] = (d[1] & ~0xffffU) | static_cast<uint32_t>(d.size());
      offsets.push_back(memory.size());
      memory.insert(memory.end(), d.begin(), d.end());
    }
    // The data area after the descriptors again, and the pointers into it.
    const uint64_t from = program_data_start(p);
    const auto delta = static_cast<int64_t>(memory.size()) - static_cast<int64_t>(from);
    memory.insert(memory.end(), p.memory.begin() + static_cast<std::ptrdiff_t>(from),
                  p.memory.end());
    for (const uint64_t first : offsets) {
      for (const unsigned bit : {td::kInMemoryBit, td::kOutMemoryBit}) {
        const uint64_t at = first + (bit == td::kInMemoryBit ? 2 : 3);
        if (((memory[first] >> bit) & 1U) != 0) {
          memory[at] = static_cast<uint32_t>(static_cast<int64_t>(memory[at]) + delta);
        }
      }
    }
    if (memory.size() > kD.tasks.memory_words) return 0;
    p.memory = std::move(memory);
    p.descriptors = std::move(offsets);
    move_program_data(p, delta);
    return groups;
  }

  static const char* kind_name(npugen::tb::DriverThread::Kind k) {
    using K = npugen::tb::DriverThread::Kind;
    return k == K::kWrite ? "write" : k == K::kRead ? "read" : k == K::kWaitIrq ? "wait" : "done";
  }

  // The C driver's pending access must be the program's step (the headers' offsets, the
  // sequence): the port carries the driver's address and data.
  void take_c_request() {
    using K = npugen::tb::DriverThread::Kind;
    const ProgramStep& st = *driver_->step();
    const auto& r = c_driver_->request();
    const K want = st.kind == ProgramStep::Kind::kApbWrite  ? K::kWrite
                   : st.kind == ProgramStep::Kind::kApbRead ? K::kRead
                   : st.kind == ProgramStep::Kind::kWaitIrq ? K::kWaitIrq
                                                            : K::kDone;
    const bool apb = want == K::kWrite || want == K::kRead;
    if (r.kind != want || (apb && r.addr != st.apb_addr) ||
        (want == K::kWrite && r.data != st.apb_data)) {
      failures_.push_back(fmt::format(
          "cycle {}: the C driver's access ({} 0x{:03x} 0x{:08x}) is not the program's step {} "
          "({} 0x{:03x} 0x{:08x})",
          cycle_, kind_name(r.kind), r.addr, r.data, *c_step_, kind_name(want), st.apb_addr,
          st.apb_data));
      c_driver_.reset();  // the run fails; let the driver's thread go
      return;
    }
    if (apb) {
      in_.apb.paddr = r.addr;
      in_.apb.pwdata = r.kind == K::kWrite ? r.data : 0;
    }
  }

  void start_extra() {
    NpuInputs x;
    extra_access_ = false;
    extra_wait_ = false;
    const uint64_t r = rng_();
    const uint32_t own = npu_csr::kOwnWindow;
    const bool tasks = run_.program.sequencing == Sequencing::kTasks;
    constexpr uint32_t kTaskFlags = (1U << npu_csr::kTasksDoneBit) | (1U << npu_csr::kTasksErrBit) |
                                    (1U << npu_csr::kCfgErrBit);
    switch (r % 6) {
      case 0:  // a read anywhere, gaps included
        x.apb.psel = true;
        x.apb.paddr = static_cast<uint32_t>(r >> 8) & 0xffcU;
        break;
      case 1:  // with the task unit, the C driver's setting (it waits for that interrupt)
        x.apb = {true, false, true, own + npu_csr::kIrqEnable,
                 tasks ? kTaskFlags : static_cast<uint32_t>(r >> 8) & npu_csr::kIrqSources};
        break;
      case 2:  // with the task unit, TASKS_DONE is the C driver's to clear
        x.apb = {true, false, true, own + npu_csr::kStatus,
                 static_cast<uint32_t>(r >> 8) & 0x3fU &
                     (tasks ? ~(1U << npu_csr::kTasksDoneBit) : ~0U)};
        break;
      case 3:  // CYCLES, or a write to an address with no register
        x.apb = {true, false, true, (r >> 8) % 2 == 0 ? own + npu_csr::kCycles : own + 0x1f0U,
                 static_cast<uint32_t>(r >> 16)};
        break;
      case 4: {
        x.host.valid = true;
        x.host.target = static_cast<HostTarget>((r >> 8) % 4);
        const uint64_t size = x.host.target == HostTarget::kWeights  ? kD.seq.agu.weight_rows
                              : x.host.target == HostTarget::kParams ? kD.seq.post.groups()
                                                                     : kD.act_words();
        x.host.addr = (r >> 16) % size;
        break;
      }
      default:
        x.host.valid = true;
        // Targets 5 to 7 address nothing, but with the VQ loader writes of 5 and 6 would load
        // the weight store and the codebook: its designs get reads of them and writes of 7.
        x.host.write = !kD.vq || (r >> 10) % 3 == 0;
        x.host.target = static_cast<HostTarget>(x.host.write && kD.vq ? 7 : 5 + (r >> 8) % 3);
        x.host.addr = (r >> 16) & 0xf;
        x.host.data.assign((kD.host_data_bits() + 7) / 8, static_cast<uint8_t>(r >> 40));
        break;
    }
    extra_ = x;
  }

  void compare(const Vdut& dut, const NpuOutputs& want, Checker& check) const {
    npugen::tb::compare_apb(dut, want.apb, check);
    check.compare("host_ready_o", want.host_ready, dut.host_ready_o);
    check.compare("host_rsp_valid_o", want.host_rsp_valid, dut.host_rsp_valid_o);
    if (want.host_rsp_valid) {
      for (size_t i = 0; i < want.host_rdata.size(); ++i) {
        const unsigned width =
            std::min<unsigned>(8, kD.host_data_bits() - static_cast<unsigned>(i) * 8);
        check.compare(fmt::format("host_rdata_o byte {}", i), want.host_rdata[i],
                      get_bits(dut.host_rdata_o, static_cast<unsigned>(i) * 8, width));
      }
    }
    check.compare("irq_o", want.irq, dut.irq_o);
    check.compare("busy_o", want.busy, dut.busy_o);
    check.compare("seq_done_o", want.seq_done, dut.seq_done_o);
    check.compare("planar_done_o", want.planar_done, dut.planar_done_o);
    check.compare("cfg_err_o", want.cfg_err, dut.cfg_err_o);
    check.compare("sys_req_valid_o", want.sys_req_valid, dut.sys_req_valid_o);
    check.compare("sys_req_addr_o", want.sys_req_addr, dut.sys_req_addr_o);
    check.compare("sys_req_write_o", want.sys_req_write, dut.sys_req_write_o);
    check.compare("sys_req_wdata_o", want.sys_req_wdata, dut.sys_req_wdata_o);
    check.compare("tasks_idle_o", want.tasks_idle, dut.tasks_idle_o);
    check.compare("tasks_err_o", want.tasks_err, dut.tasks_err_o);
    check.compare("neural_task_done_o", want.neural_task_done, dut.neural_task_done_o);
    check.compare("planar_task_done_o", want.planar_task_done, dut.planar_task_done_o);
    check.compare("obs_step_o", want.step, dut.obs_step_o);
    check.compare("obs_wr_valid_o", want.seq_write.valid, dut.obs_wr_valid_o);
    if (want.seq_write.valid) {
      check.compare("obs_wr_buf_o", want.seq_write.buf, dut.obs_wr_buf_o);
      check.compare("obs_wr_addr_o", want.seq_write.addr, dut.obs_wr_addr_o);
      check.compare("obs_wr_mask_o", want.seq_write.mask,
                    get_bits(dut.obs_wr_mask_o, 0, kD.lanes()));
      for (unsigned l = 0; l < kD.lanes(); ++l) {
        check.compare(fmt::format("obs_wr_data_o lane {}", l), want.seq_write.data[l],
                      get_bits(dut.obs_wr_data_o, l * 8, 8));
      }
    }
    check.compare("obs_pw_valid_o", want.planar_write.valid, dut.obs_pw_valid_o);
    if (want.planar_write.valid) {
      check.compare("obs_pw_addr_o", want.planar_write.addr, dut.obs_pw_addr_o);
      for (unsigned l = 0; l < kD.lanes(); ++l) {
        check.compare(fmt::format("obs_pw_data_o lane {}", l),
                      static_cast<uint8_t>(want.planar_write.data[l]),
                      get_bits(dut.obs_pw_data_o, l * 8, 8));
      }
    }
  }

  // A layer's output, read from the buffers (which every write compared keeps equal to the
  // RTL's), against the plain reference.
  void finish_layer(unsigned index, uint64_t at) {
    const ProgramLayer& l = run_.program.layers.at(index);
    reference::Tensor got = read_program_tensor(golden_, l.out, memory_->words());
    if (index >= run_.expected.size()) {
      failures_.push_back(
          fmt::format("layer {} ({}): no reference tensor to check it against", l.name, index));
    } else {
      const reference::Tensor& want = run_.expected[index];
      if (want.n != got.n || want.h != got.h || want.w != got.w || want.c != got.c) {
        failures_.push_back(
            fmt::format("layer {} ({}): shape {}x{}x{}x{}, the reference's {}x{}x{}x{}", l.name,
                        index, got.n, got.h, got.w, got.c, want.n, want.h, want.w, want.c));
      } else {
        for (size_t i = 0; i < want.data.size(); ++i) {
          if (want.data[i] == got.data[i]) continue;
          const int c = static_cast<int>(i % static_cast<size_t>(want.c));
          const int x = static_cast<int>(i / want.c % want.w);
          const int y = static_cast<int>(i / want.c / want.w % want.h);
          const int n = static_cast<int>(i / want.c / want.w / want.h);
          failures_.push_back(fmt::format(
              "layer {} ({}) at cycle {}{}: element (n {}, h {}, w {}, c {}): the reference "
              "interpreter expects {}, the top wrote {}",
              l.name, net::op_name(l.op), at,
              l.out.mem ? fmt::format(" (in system memory from word {})", *l.out.mem) : "", n, y, x,
              c, want.data[i], got.data[i]));
          break;
        }
        elements_checked_ += want.data.size();
      }
    }
    results_.layers.at(index) = LayerResult{l.name, at + 1, std::move(got)};
    ++finished_layers_;
    ++program_layers_;
  }

  uint64_t cycles_;
  std::string results_path_;
  NpuModel golden_;
  RunFile run_;
  std::optional<net::Network> network_;
  std::optional<ProgramDriver> driver_;
  NpuInputs in_;
  NpuOutputs want_;
  uint64_t cycle_ = 0;
  bool out_of_cycles_ = false;
  std::vector<unsigned> pending_layers_;
  std::vector<std::pair<unsigned, uint64_t>> in_memory_;  ///< finished (cycle), read at the end
  std::optional<SystemMemory> memory_;
  RunResults results_;
  std::vector<std::string> failures_, refused_;
  uint64_t too_long_ = 0;  ///< random networks drawn again for the cycle budget
  uint64_t elements_checked_ = 0, steps_ = 0, seq_writes_ = 0, planar_writes_ = 0;
  bool traffic_;  ///< the bench's own traffic while the driver waits (not with --run)
  std::mt19937_64 rng_;
  std::optional<NpuInputs> extra_;  ///< the bench's transfer in progress
  bool extra_access_ = false, extra_wait_ = false, stalled_ = false;
  uint64_t extra_apb_ = 0, host_reads_ = 0, host_waits_ = 0, irq_cycles_ = 0;
  uint64_t sys_reads_ = 0, sys_waits_ = 0, apb_waits_ = 0;
  bool tasks_err_seen_ = false, cfg_err_seen_ = false;
  std::unique_ptr<npugen::tb::DriverThread> c_driver_;  ///< kTasks: the C driver's thread
  size_t c_from_ = 0;             ///< the program's first step the C driver makes
  std::optional<size_t> c_step_;  ///< the step of this cycle
  uint64_t c_accesses_ = 0;
  uint64_t vq_rows_ = 0;      ///< weight rows the VQ loader took
  uint64_t raw_loads_ = 0;    ///< of them, rows sent raw (CTRL.VQ_EN low)
  uint64_t relocated_ = 0;    ///< words the DMA's areas moved (the base table's offset)
  uint64_t junk_groups_ = 0;  ///< groups added to the compiler's descriptors
  uint64_t finished_layers_ = 0;
  // Several programs a run (check mode): the next one drawn from more_rng_.
  MemoryTiming timing_;
  std::mt19937_64 more_rng_;
  bool more_ = true;    ///< a further program may follow the current one
  bool ended_ = false;  ///< the current program's end checks are made
  uint64_t programs_ = 0, host_programs_ = 0, task_programs_ = 0, program_layers_ = 0;
  bool dma_rows_missed_ = false, host_missed_ = false, tasks_missed_ = false;
  bool engine_first_missed_ = false;
  uint64_t engine_first_ = 0, prog_engine_first_ = 0;  ///< tasks whose engine starts first
  uint64_t prog_raw_loads_ = 0, prog_relocated_ = 0;
  // The finished programs' figures.
  uint64_t neural_layers_ = 0, planar_layers_ = 0, zs_layers_ = 0, banded_ = 0, kept_ = 0;
  uint64_t lut_layers_ = 0, outputs_stored_ = 0, programs_with_outputs_ = 0, concat_layers_ = 0;
  uint64_t resize_layers_ = 0;
  uint64_t packed_ = 0, mem_writes_ = 0, input_dma_words_ = 0, dma_rows_ = 0;
  bool stores_wanted_ = false;
  std::vector<std::string> program_lines_;
};

}  // namespace

int main(int argc, char** argv) { return npugen::tb::run_cosim<NpuBench>(argc, argv); }
