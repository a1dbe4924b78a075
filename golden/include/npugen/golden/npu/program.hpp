// A network compiled for an NPU top (docs/npu.md): where every tensor, weight row
// and parameter group goes, and the steps a host takes to run it (host-port writes of
// weights and parameters, APB writes of each layer's register group, waits for the engines'
// completions), plus what the runner needs to read results back and report. The compiler
// (compiler/, npugen::compiler::compile_network) makes it from a golden::net::Network; the
// golden executor (run_program) and the co-simulation's testbench feed it to the golden
// model and the verilated top through one ProgramDriver.
//
// Placement: tensors are int8 NHWC in buffer words of L channels (ceil(C/L) words a pixel,
// lanes beyond C zero), N images one after the other. A neural layer reads one buffer and
// writes the other (the sequencer refuses one buffer for both); a planar layer writes the
// buffer other than its first input's when it fits there, else the same one. A tensor's
// space is freed after its last reader (list order); the network's output is kept.
// Weight rows and post parameter groups are laid out layer after layer from row and group 0;
// the planar gain table is written before each gain_bias layer (one layer's channels at
// most).
//
// Two ways to sequence the layers (Sequencing):
// - kTasks (the default): the task unit runs them. The program holds a system-memory image
//   with one descriptor a layer (its operation, input and output regions in planar-engine
//   addresses, and the engine's register writes at npu_csr::kDescSequencer or kDescPlanar);
//   the host writes every weight row, parameter group and gain row, then does what the C
//   driver's start and wait do (sw/<design>_npu_driver.c, npu_driver_steps): enables the
//   interrupt on TASKS_DONE and TASKS_ERR, queues the list (QUEUE[0].HEAD and COUNT), waits
//   for the interrupt, reads STATUS and clears TASKS_DONE. Neural and planar
//   layers overlap where the task buffer finds no dependency or conflict. One gain_bias
//   layer at most (the gain table holds one layer's gains and is written first).
// - kHost: the host programs a layer's register group over APB and waits for its engine's
//   completion before the next layer (the phase-1 flow; a comparison for the task unit).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "npugen/golden/network/network.hpp"
#include "npugen/golden/npu/model.hpp"
#include "npugen/golden/post/reference.hpp"

namespace npugen::golden {

/// A tensor in a buffer: words base .. base + n x h x w x ceil(c / L) - 1 of buffer `buf`;
/// or, with `mem`, in system memory from that word, each buffer word ceil(L / 4) memory words
/// (DmaModel's layout): a tensor above a buffer, written and read in row bands by the DMA.
struct ProgramTensor {
  unsigned buf = 0;  ///< 0 A, 1 B
  uint64_t base = 0;
  int n = 1, h = 1, w = 1, c = 1;
  std::optional<uint64_t> mem;  ///< in system memory from this word (buf and base unused)
  [[nodiscard]] uint64_t words(unsigned lanes) const {
    return static_cast<uint64_t>(n) * h * w * ((static_cast<uint64_t>(c) + lanes - 1) / lanes);
  }
  bool operator==(const ProgramTensor&) const = default;
};

struct ProgramStep {
  enum class Kind : uint8_t {
    kHostWrite,       ///< a host-port write: target, addr, data
    kApbWrite,        ///< an APB write: apb_addr, apb_data (setup + access phase)
    kWaitSeqDone,     ///< wait until `count` sequencer layers have completed since reset
    kWaitPlanarDone,  ///< wait until `count` planar tasks have completed since reset
    kLayerDone,       ///< layer `layer`'s output is complete in its buffer (a marker)
    kApbRead,         ///< an APB read of apb_addr (setup + access phase)
    kWaitIrq,         ///< wait until the interrupt is raised
  };
  Kind kind = Kind::kHostWrite;
  HostTarget target = HostTarget::kBufferA;
  uint64_t addr = 0;
  std::vector<uint8_t> data;  ///< host_data_bits / 8 bytes, little-endian
  uint32_t apb_addr = 0, apb_data = 0;
  uint64_t count = 0;
  unsigned layer = 0;
  bool operator==(const ProgramStep&) const = default;
};

struct ProgramLayer {
  std::string name;
  net::Op op = net::Op::kConv;
  bool neural = true;          ///< the sequencer runs it; otherwise the planar engine
  ProgramTensor out;           ///< where its output is
  uint64_t macs = 0;           ///< useful multiply-accumulates (N images)
  uint64_t mapping_bound = 0;  ///< neural: array steps the mapping needs, ceil(K/T) x N x
                               ///< OH x OW x KH x KW x ceil(C/L) (fc: ceil(K/T) x N x
                               ///< H x W x ceil(C/L), the input's words; AguLayer::steps);
                               ///< planar: beats (planar_beats)
  uint64_t weight_rows = 0;    ///< weight-store rows it uses
  uint64_t weight_bits = 0;    ///< bits of weights the host sends for it: its rows (T x L x 8
                               ///< a row), or with VQ its codebook and its rows' indices
  uint64_t zs_steps = 0;       ///< on the zero-skipping array: the preprocessed steps replayed for
                               ///< each output pixel (every filter block); 0: the dense array
  uint64_t tasks = 1;          ///< kTasks: the engine tasks it runs as (its row bands, when its
                               ///< input or output is in system memory, times its tiles of
                               ///< output channels); load tasks and claims are not counted
  bool operator==(const ProgramLayer&) const = default;
};

enum class Sequencing : uint8_t {
  kTasks,  ///< descriptors in system memory; the task unit runs the layers
  kHost,   ///< the host programs each layer and waits for it
};

/// The input written im2col'd for its one reader, a convolution with few channels (the
/// first-layer problem: C channels in L lanes leave most of the array idle): output pixel
/// (oh, ow) of that layer gets a pixel of KH x KW x C values, its window in (kh, kw, c)
/// order with the zero point where the window is padded, so that the layer runs as a 1 x 1
/// convolution over KH x KW x C channels, ceil(KH x KW x C / L) rows a pixel instead of KH x
/// KW x ceil(C / L). The arithmetic is the same: a padded value minus the zero point is 0.
struct InputPacking {
  bool on = false;
  int h = 1, w = 1, c = 1;  ///< the network's input (per image)
  int kernel_h = 1, kernel_w = 1, stride_y = 1, stride_x = 1, pad_top = 0, pad_left = 0;
  int32_t zero_point = 0;  ///< the input's
  bool operator==(const InputPacking&) const = default;
};

/// `input` (n x h x w x c as `p` says) packed as `p` says: n x OH x OW x (KH x KW x C).
reference::Tensor pack_input(const InputPacking& p, const reference::Tensor& input, int out_h,
                             int out_w);

/// A network output: its layer, its name, and with the DMA where it is stored.
struct ProgramOutput {
  size_t layer = 0;  ///< the layer whose tensor it is
  std::string name;  ///< the network's name for it (output_<name>.npy with several)
  /// kTasks with the DMA: the memory word its layer's descriptor stores it at (header bit 26,
  /// word 3).
  std::optional<uint64_t> at;
  bool operator==(const ProgramOutput&) const = default;
};

struct Program {
  unsigned lanes = 8;  ///< L of the design it was compiled for
  Sequencing sequencing = Sequencing::kTasks;
  ProgramTensor input;  ///< where the host writes the input (before the steps); packed when
                        ///< `packing` is on
  InputPacking packing;
  /// kTasks with the DMA: the memory word where the input's buffer words are (its reader's
  /// descriptor loads them before the layer runs: header bit 25, word 2). A buffer word is
  /// ceil(L / 4) memory words (DmaModel); program_memory puts the input in the image.
  std::optional<uint64_t> input_at;
  std::vector<ProgramOutput> outputs;  ///< the network's outputs, in order
  std::vector<ProgramLayer> layers;
  std::vector<ProgramStep> steps;
  std::vector<uint32_t> memory;       ///< the system-memory image from word 0 (kTasks: descriptors)
  std::vector<uint64_t> descriptors;  ///< kTasks: the first word of each layer's descriptor
  bool operator==(const Program&) const = default;
};

/// The system-memory image a run of `p` starts from: p.memory with the input's buffer words
/// (packed as p.packing says) at p.input_at.
std::vector<uint32_t> program_memory(const Program& p, const reference::Tensor& input);
/// The outputs the DMA stored, read from memory words: one a p.outputs entry, in order
/// (empty where an output has no `at`).
std::vector<reference::Tensor> read_memory_outputs(const Program& p,
                                                   const std::vector<uint32_t>& words);
/// Tensor `t` (of p's lanes) read from memory words at `at`.
reference::Tensor read_memory_tensor(const Program& p, const ProgramTensor& t, uint64_t at,
                                     const std::vector<uint32_t>& words);
/// The first memory word after the descriptors (kTasks): where the data the DMA moves begin
/// (the input, the tensors kept in memory, the output); every descriptor pointer is at or
/// above it.
uint64_t program_data_start(const Program& p);
/// Moves every memory address the program's tensors have (input_at, the outputs', the layers'
/// `mem`) by `delta` words; the descriptors' pointers and the image are the caller's.
void move_program_data(Program& p, int64_t delta);

/// A program as text (deterministic; one step a line) and back; parse_program throws
/// std::runtime_error naming the line of a malformed text.
std::string program_text(const Program& p);
Program parse_program(const std::string& text);

/// The host side of a run: produces the top's inputs each cycle from a program and the input
/// tensor (written to program.input first, a word a request), and follows the outputs.
class ProgramDriver {
 public:
  ProgramDriver(const NpuDesign& d, const Program& p, const reference::Tensor& input);
  /// This cycle's inputs (from the driver's state only).
  [[nodiscard]] NpuInputs inputs() const;
  /// This cycle's outputs (for those inputs): handshakes, completions; then the edge.
  /// `stalled`: the bus was someone else's this cycle (the bench's own traffic, offered only
  /// while waiting() and until it completes): completions are counted and waits and markers
  /// pass, but no write of the driver's is taken.
  void observe(const NpuInputs& in, const NpuOutputs& out, bool stalled = false);
  /// The current step waits for a completion (the driver offers nothing on the ports).
  [[nodiscard]] bool waiting() const;
  /// Every step done.
  [[nodiscard]] bool done() const;
  /// The step in progress (nullptr when done) and its index in the program's steps (the
  /// input's writes come first and have none).
  [[nodiscard]] const ProgramStep* step() const { return current(); }
  [[nodiscard]] std::optional<size_t> step_index() const {
    return next_ >= input_steps_.size() ? std::optional<size_t>(next_ - input_steps_.size())
                                        : std::nullopt;
  }
  /// The data of the last APB read completed.
  [[nodiscard]] uint32_t last_read() const { return last_read_; }
  /// Layers that finished at the last observe(): kHost, the layer whose kLayerDone marker
  /// passed; kTasks, the layer whose engine completed its last task (its last write lands at
  /// that cycle's edge: read its tensor after the edge; a tensor in system memory once every
  /// step has passed, when the DMA has stored every band).
  [[nodiscard]] const std::vector<unsigned>& layers_finished() const { return finished_; }

 private:
  const NpuDesign& d_;
  const Program& p_;
  std::vector<ProgramStep> input_steps_;  ///< the input's host writes
  size_t next_ = 0;                       ///< index over input_steps_ then p_.steps
  bool apb_access_ = false;               ///< the APB transfer is in its access phase
  uint32_t last_read_ = 0;
  uint64_t seq_done_ = 0, planar_done_ = 0;
  std::vector<unsigned> finished_;
  std::vector<unsigned>
      of_kind_[2];  ///< kTasks: each engine task's layer in order (neural, planar)
  [[nodiscard]] const ProgramStep* current() const;
};

/// The register accesses of the C driver's start (queue `queue`: the list at word `head` of
/// system memory, `count` tasks) and wait, in order; the driver (sw/<design>_npu_driver.c)
/// and compile_network both follow this sequence, and the co-simulation checks the driver's
/// accesses against it.
std::vector<ProgramStep> npu_driver_steps(unsigned queue, uint64_t head, uint64_t count);

/// A tensor of `t`'s shape read from the model's buffer words, or with t.mem from `memory`.
reference::Tensor read_program_tensor(const NpuModel& m, const ProgramTensor& t,
                                      const std::vector<uint32_t>& memory);

/// Runs a program on the golden model alone: every layer's output tensor (read from the
/// buffers when its marker passes), the cycle each layer finished, and the total.
struct ProgramRun {
  std::vector<reference::Tensor> layers;
  /// With the DMA: the outputs as memory holds them (one a Program::outputs entry; empty where
  /// an output has no `at`).
  std::vector<reference::Tensor> stored;
  std::vector<uint64_t> finished_at;  ///< cycle of each layer's marker
  uint64_t cycles = 0;
};
/// Thrown by run_program when the program has not finished within max_cycles.
struct ProgramTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};
ProgramRun run_program(const NpuDesign& d, const Program& p, const reference::Tensor& input,
                       uint64_t max_cycles = 100'000'000);

}  // namespace npugen::golden
