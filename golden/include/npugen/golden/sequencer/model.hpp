// Cycle model of the generated sequencer at its ports (docs/sequencer.md): the address
// generator, the dense PE array and the post unit (their own golden models, composed), the
// activation buffers A and B, the weight store, the two-set weight cache, and the control
// between them, bit-exact and cycle-exact. The co-simulation compares it with the RTL
// every cycle, the observation port (array steps, buffer writes) included.
//
// The pipeline, as the RTL has it:
//   S0  the address generator offers a set; taken when S1 is free (or leaves), the
//       result queue has room and no older layer still writes the buffer a new layer
//       reads. The memories are read at that edge (registered outputs).
//   S1  the set with its memory data: a step for the array (or, fc_batch, a feature word
//       written into a tile's cache); leaves when the array takes the step.
//   the array, the drain (the results of a dot product, in beats of P, to the post unit),
//   the post unit, and the write of its results into the output buffer.
// The weight cache: conv reads each tile's filter weights from a cache set; the first
// pixel of a filter block that was not preloaded streams its rows from the store and
// fills the set; from the block's first pixel after that, the next block's rows are
// preloaded into the other set, one row a cycle, while the store port is free.
// Zero skipping (dataflow zero_skip, with zs): each pixel's window, streamed once by the
// address generator, is staged in one of three slots of the staging memory, in turn; the
// replay reads the layer's preprocessed steps from the store, one a cycle, into the
// zero-skipping array, the first step of each job pointed at its slot (its base row moved
// by the slot's first row), and each job's results join the same drain. The next pixels are
// staged while one is replayed, its replay follows the last step of the one before without
// a gap, and a slot is staged again once the results of its jobs have left the array (the
// third slot hides that latency).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "npugen/golden/agu/model.hpp"
#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/pe_array/model.hpp"
#include "npugen/golden/post/model.hpp"
#include "npugen/golden/sequencer/params.hpp"
#include "npugen/golden/zs/array_model.hpp"

namespace npugen::golden {

/// A request on the host memory port (valid/ready; a read's data follows a cycle later).
struct MemRequest {
  bool valid = false;
  bool write = false;
  MemTarget target = MemTarget::kBufferA;
  uint64_t addr = 0;
  std::vector<uint8_t> data;  ///< mem_data_bits, little-endian bytes (writes)
};

struct SequencerInputs {
  ApbRequest apb;  ///< paddr: sequencer_csr::kAddrBits bits
  MemRequest mem;
};

/// A write of the sequencer into an activation buffer, as the observation port shows it.
struct BufferWrite {
  bool valid = false;
  unsigned buf = 0;
  uint64_t addr = 0;
  uint64_t mask = 0;          ///< lanes written
  std::vector<uint8_t> data;  ///< L bytes (lanes outside the mask: 0)
  bool operator==(const BufferWrite&) const = default;
};

struct SequencerOutputs {
  ApbResponse apb;
  bool mem_ready = false;  ///< the request is taken at the edge
  /// Each memory's port free this cycle (mem_free_o): [0], [1] buffer A's and B's for a read,
  /// [2], [3] for a write, [4] the weight store's for a read.
  unsigned mem_free = 0;
  bool mem_rsp_valid = false;      ///< a read's data (the cycle after it was taken)
  std::vector<uint8_t> mem_rdata;  ///< mem_data_bits bytes; the target's width, 0 above
  bool busy = false;
  bool layer_done = false;  ///< a layer's last result is written at the edge
  bool cfg_err = false;     ///< the address generator's STATUS.CFG_ERR
  bool step = false;        ///< observation: the array takes a step at the edge
  BufferWrite write;        ///< observation: the sequencer's buffer write at the edge
};

class SequencerModel {
 public:
  explicit SequencerModel(const SequencerDesign& design);

  [[nodiscard]] SequencerOutputs outputs(const SequencerInputs& in) const;
  void tick(const SequencerInputs& in);

  [[nodiscard]] const SequencerDesign& design() const { return d_; }
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }
  [[nodiscard]] const AguModel& agu() const { return agu_; }
  /// Activation buffer b's word, L bytes.
  [[nodiscard]] const uint8_t* buffer_word(unsigned b, uint64_t addr) const {
    return &buf_[b][addr * d_.lanes()];
  }
  [[nodiscard]] uint32_t layers_done() const { return layers_done_; }
  [[nodiscard]] uint64_t steps() const { return steps_; }
  [[nodiscard]] uint64_t weight_reads() const { return weight_reads_; }
  [[nodiscard]] uint64_t act_reads() const { return act_reads_; }
  /// Activation words read from the MEC window.
  [[nodiscard]] uint64_t window_reads() const { return window_reads_; }
  [[nodiscard]] uint64_t window_waits() const { return window_waits_; }
  [[nodiscard]] uint64_t preload_reads() const { return preload_reads_; }
  [[nodiscard]] uint64_t hazard_waits() const { return hazard_waits_; }
  [[nodiscard]] uint64_t cache_waits() const { return cache_waits_; }

 private:
  /// Where a step's operands come from.
  enum class ActSource : uint8_t { kBuffer, kPad, kStoreSlice, kWindow };
  /// A staged pixel window of the zero-skip path and where its results go.
  struct ZsPixel {
    uint64_t wbase = 0;  ///< store row of the layer's first step
    unsigned out_buf = 0;
    uint64_t out_addr = 0;
    unsigned out_lane = 0;
    unsigned group = 0;  ///< post group of the first job's filters
    PostOutputRange range;
    bool layer_end = false;  ///< the layer's last pixel
  };
  enum class WeightSource : uint8_t { kCache, kStore };
  /// The set in S1.
  struct Stage1 {
    bool valid = false;
    bool load = false;  ///< fc_batch feature load: cache write, no step
    bool first = false, last = false;
    ActSource act = ActSource::kBuffer;
    WeightSource weight = WeightSource::kStore;
    unsigned in_buf = 0;
    uint8_t pad_value = 0;
    unsigned tile = 0;
    unsigned cset = 0;  ///< cache set read (and written by a fill or a load)
    uint64_t crow = 0;  ///< cache row
    bool fill = false;  ///< write the store row into the cache set
    bool uses_act = false, uses_store = false;
    bool win_write = false;  ///< MEC: write the buffer's word into the window
    unsigned win = 0;        ///< its slot
    bool zs = false;         ///< zero skip: stage the word (no step)
    unsigned zslot = 0;      ///< its slot
    uint64_t zrow = 0;       ///< its row
  };
  /// A dot product in flight: where its results go.
  struct Result {
    Dataflow dataflow = Dataflow::kConv;
    unsigned out_buf = 0;
    uint64_t out_addr = 0;
    unsigned out_lane = 0;
    unsigned filters = 0;
    unsigned group = 0;     ///< post table group of the first beat
    unsigned src_lane = 0;  ///< fc_batch: the neuron's lane in its group
    unsigned zslot = 0;     ///< zero skip: the staging slot its rows came from
    uint64_t out_stride = 0;
    PostOutputRange range;
    bool layer_end = false;
  };
  /// A beat in the post unit: where its results go.
  struct Beat {
    unsigned buf = 0;
    uint64_t word = 0;
    unsigned dst = 0, src = 0, count = 0;
    bool pixel_end = false, layer_end = false;
  };
  /// The state the address-set side (S0) keeps about layers, blocks and the cache.
  struct Front {
    uint64_t crow = 0;               ///< cache row of the last set taken
    unsigned cset = 0;               ///< cache set of the running block
    bool fill = false;               ///< the running pixel fills the cache from the store
    bool bypass = false;             ///< the layer's blocks exceed the cache
    bool rknown = false;             ///< rows of a block known
    uint64_t rcount = 0;             ///< sets of the layer's first pixel so far
    uint64_t rows = 0;               ///< rows of a block (R = KH x KW x ceil(C/L))
    uint64_t blk_row = 0;            ///< weight row of the running block's first step
    unsigned blk_grp = 0;            ///< post group of the running block's first filters
    unsigned z_grp = 0, z_lane = 0;  ///< fc_batch: the next neuron's post group and lane
    bool pl_started = false;         ///< the next block's preload started
    unsigned zslot = 0;              ///< zero skip: the slot the next pixel is staged in
    uint64_t zrow = 0;               ///< zero skip: row of the last set staged
  };
  struct Preload {
    bool active = false;
    uint64_t next = 0;     ///< store row to read next
    uint64_t left = 0;     ///< rows still to read
    uint64_t widx = 0;     ///< cache row of the next read
    uint64_t written = 0;  ///< rows written
    uint64_t rows = 0;     ///< rows of the block
    unsigned set = 0;
    bool wvalid = false;  ///< the store's output holds a preload row: write it at the edge
    uint64_t wrow = 0;
    bool done = false;  ///< the other set holds the next block
  };

  /// Every decision of a cycle, from the state and the inputs.
  struct Cycle {
    SequencerOutputs out;
    AguInputs agu_in;
    AguOutputs agu_out;
    PeArrayInputs array_in;
    PostInputs post_in;
    PostOutputs post_out;
    std::vector<uint32_t> step_weights, step_acts;
    bool take = false, hazard = false;
    bool s1_adv = false, acc_taken = false, beat_taken = false, last_beat = false;
    // The set taken: its S1 and the front's next state.
    Stage1 s1_next;
    Front front_next;
    bool push_result = false;
    Result result;
    std::vector<int32_t> acc;  ///< the array's results, when the drain takes them
    bool pl_start = false, pl_abandon = false, pl_read = false;
    bool set_bypass = false;
    bool cache_waits = false;
    bool read_act[2] = {false, false};
    uint64_t act_addr = 0;
    bool read_store = false;
    uint64_t store_addr = 0;
    bool read_cache[2] = {false, false};
    uint64_t cache_addr = 0;
    bool read_win = false;  ///< MEC: the set's word from the window
    unsigned win_addr = 0;
    bool window_waits = false;
    // Zero skipping.
    bool zs_take = false;   ///< the set taken is staged (its pixel recorded: zs_px)
    ZsPixel zs_px;          ///< the staged pixel's record after this set
    bool zs_push = false;   ///< the array takes the offered step
    bool zs_read = false;   ///< the replay reads the next step from the store
    bool zs_acc = false;    ///< the drain takes the zero-skipping array's results
    bool rp_start = false;  ///< the replay of the next staged pixel starts
    bool rp_chain = false;  ///< the pixel's end is offered and the next one is staged
    std::array<bool, SequencerDesign::kZsSlots> release{};  ///< a replayed slot whose
                                                            ///< results have all left
    bool zs_end = false;                                    ///< the step offered ends its pixel
    bool zs_push_result = false;  ///< the step taken ends a job: its result's place queued
    Result zs_result;
    ZeroSkipInputs zs_in;
    StreamStep zs_step;
    std::vector<uint32_t> zs_rows;  ///< the rows the array reads
    // The host.
    bool mem_take = false;
    // Own registers.
    bool own_write = false;
    uint32_t own_offset = 0, own_data = 0;
  };
  [[nodiscard]] Cycle decide(const SequencerInputs& in) const;
  void classify(const AddressSet& s, Cycle& c) const;
  [[nodiscard]] bool busy() const;
  [[nodiscard]] uint32_t read_own(uint32_t offset) const;
  [[nodiscard]] std::vector<int32_t> beat_values(unsigned beat) const;
  /// Zero skipping: work staged, replayed or in the array.
  [[nodiscard]] bool zs_outstanding() const;
  static unsigned next_slot(unsigned s) { return s + 1 == SequencerDesign::kZsSlots ? 0 : s + 1; }
  /// The step on the store's output (the replay's).
  [[nodiscard]] StreamStep zs_step_of(const std::vector<uint8_t>& row, unsigned& filters,
                                      bool& end) const;

  SequencerDesign d_;
  regmap::RegisterMap map_;
  AguModel agu_;
  PeArrayModel array_;
  PostModel post_;
  std::array<std::vector<uint8_t>, 2> buf_;
  std::vector<uint8_t> store_;
  std::array<std::vector<uint8_t>, 2> cache_;
  // The memories' registered read data.
  std::array<std::vector<uint8_t>, 2> act_out_;
  std::vector<uint8_t> store_out_;
  std::array<std::vector<uint8_t>, 2> cache_out_;
  std::vector<uint8_t> window_;      ///< MEC window: mec_window words of L bytes
  std::vector<uint8_t> window_out_;  ///< its registered read data

  Stage1 s1_;
  Front front_;
  Preload pl_;
  std::deque<Result> results_;
  bool dr_valid_ = false;
  std::vector<int32_t> dr_acc_;
  Result dr_;
  unsigned dr_beat_ = 0;
  uint64_t dr_word_ = 0;
  unsigned dr_lane_ = 0, dr_grp_ = 0;
  std::deque<Beat> beats_;
  std::array<uint32_t, 2> pending_{};  ///< dot products in flight per output buffer
  bool rsp_valid_ = false;
  MemTarget rsp_target_ = MemTarget::kBufferA;
  // Own registers.
  bool cache_bypass_ = false;
  uint32_t layers_done_ = 0;
  uint32_t cycles_reg_ = 0, steps_reg_ = 0, act_reads_reg_ = 0, weight_reads_reg_ = 0,
           writes_reg_ = 0, window_reads_reg_ = 0;
  // Zero skipping.
  std::optional<ZeroSkipArrayModel> zs_;
  std::vector<uint8_t> stage_;  ///< zs.max_rows words of L bytes: kZsSlots slots
  static constexpr unsigned kSlots = SequencerDesign::kZsSlots;
  std::array<ZsPixel, kSlots> px_;
  std::array<bool, kSlots> full_{};      ///< a slot holds a whole pixel, not yet released
  std::array<bool, kSlots> replayed_{};  ///< its steps have all been offered
  std::array<unsigned, kSlots> jobs_{};  ///< its jobs offered whose results have not left
  unsigned rp_slot_ = 0;                 ///< the slot replayed (or next to be)
  bool rp_active_ = false;               ///< steps still to be read and offered
  uint64_t rp_next_ = 0;                 ///< store row read next
  bool st_valid_ = false;                ///< the store's output holds the step offered
  uint64_t j_word_ = 0;                  ///< where the next job's results go
  unsigned j_lane_ = 0, j_grp_ = 0;
  // Totals for the bench (not registers).
  uint64_t steps_ = 0, weight_reads_ = 0, act_reads_ = 0, preload_reads_ = 0, hazard_waits_ = 0,
           cache_waits_ = 0, window_reads_ = 0, window_waits_ = 0;
};

}  // namespace npugen::golden
