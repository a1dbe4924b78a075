// Cycle-exact model of the generated task unit at its ports: the task manager
// (K queues, fixed-priority arbiter, descriptor fetch and parse into a single-entry
// fetch queue, configuration queue) and the data control (task buffer of E entries with
// dependency and conflict vectors, access enable, engine bookkeeping). Engines and
// descriptor memory are outside: the caller answers reads and signals completions.
//
// The protocol of every golden model: outputs(in) during a cycle with those inputs, then
// tick(in) at its clock edge. Every output but the register port's read data and error
// (which follow the APB address) is a function of the registered state only.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/tasks/params.hpp"

namespace npugen::golden {

struct TaskUnitInputs {
  ApbRequest apb;           ///< the register port
  bool mem_ready = true;    ///< the memory takes a read request at this clock edge
  bool mem_rvalid = false;  ///< a read's data (reads are answered in order)
  uint32_t mem_rdata = 0;
  std::array<uint32_t, kEngineKinds> done{};  ///< per kind, one bit per engine (busy ones only)
};

/// One access grant: the engine may start reading the task's inputs.
struct TaskGrant {
  bool valid = false;
  unsigned engine = 0;
  unsigned entry = 0;
  uint32_t task_id = 0;
  uint64_t cycles = 0;
  uint32_t network_id = 0;  ///< from the task's queue
  uint32_t base_index = 0;  ///< from the task's queue
  uint64_t desc = 0;        ///< word address of the task's descriptor (the fetch's base)
  bool operator==(const TaskGrant&) const = default;
};

/// The unit's outputs. Fields of a grant that is not valid are zero, as on the ports.
struct TaskUnitOutputs {
  bool mem_req = false;   ///< a read request, taken at the edge if mem_ready (else offered again)
  uint64_t mem_addr = 0;  ///< the fetch's next address, also between fetches
  std::array<TaskGrant, kEngineKinds> grant{};
  bool commit = false;       ///< a descriptor moved from the fetch queue to the config queue
  uint32_t commit_task = 0;  ///< its task id
  bool idle = false;         ///< no queue has tasks and nothing is fetched, queued or in the buffer
  bool err = false;          ///< sticky: a descriptor's length was below the header's
  ApbResponse apb;           ///< the register port (follows the request's address)
  bool operator==(const TaskUnitOutputs&) const = default;
};

/// A parsed task as the configuration queue and the task buffer hold it.
struct TaskConfig {
  uint32_t task_id = 0;
  uint32_t network_id = 0;
  uint32_t base_index = 0;
  uint32_t op = 0;
  std::array<uint64_t, 6> region{};  ///< in0 base, in0 words, in1 base, in1 words, out base, words
  uint64_t cycles = 0;
  uint64_t desc = 0;  ///< word address of its descriptor (its queue's HEAD when the fetch started)
  /// Engine kind as an index (operation codes 6 and 7, which no encoder writes, are planar).
  [[nodiscard]] unsigned kind() const {
    return static_cast<unsigned>(engine_of(static_cast<TaskOp>(op)));
  }
  bool operator==(const TaskConfig&) const = default;
};

class TaskUnitModel {
 public:
  explicit TaskUnitModel(const TaskParams& params);

  void reset();
  /// Outputs during a cycle with these inputs.
  [[nodiscard]] TaskUnitOutputs outputs(const TaskUnitInputs& in) const;
  /// The clock edge at the end of that cycle.
  void tick(const TaskUnitInputs& in);
  /// True when a tick with no register write, no read data and no completion changes
  /// nothing.
  [[nodiscard]] bool quiescent() const;
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }

  [[nodiscard]] const TaskParams& params() const { return p_; }
  /// Valid task-buffer entries (for reports).
  [[nodiscard]] unsigned occupied_entries() const;

  enum class Fetch : uint8_t { kIdle, kFetch, kFull };

  struct State {
    // Task queues.
    std::vector<uint64_t> head, count;
    std::vector<uint32_t> network_id, base_index, priority;
    bool lock_valid = false;
    unsigned lock_queue = 0;
    // Fetch queue: the descriptor being fetched or waiting to commit.
    Fetch fetch = Fetch::kIdle;
    unsigned fq_queue = 0;
    uint64_t fetch_base = 0;
    uint32_t issued = 0, received = 0, total = 0;  ///< issued: reads taken by the memory
    bool total_known = false;
    uint32_t group_left = 0, reg_addr = 0;
    bool task_switch = true;
    TaskConfig fq;
    bool err = false;
    // Configuration queue.
    std::vector<TaskConfig> cq;
    unsigned cq_rd = 0, cq_wr = 0, cq_count = 0;
    // Task buffer.
    std::vector<bool> valid, started;
    std::vector<TaskConfig> entry;
    std::vector<uint32_t> seq;
    std::vector<uint64_t> dep, conf;
    std::array<uint32_t, kEngineKinds> ins_seq{}, next_seq{};
    // Engines.
    std::array<std::vector<bool>, kEngineKinds> busy;
    std::array<std::vector<unsigned>, kEngineKinds> engine_entry;
    bool operator==(const State&) const = default;
  };
  [[nodiscard]] const State& state() const { return s_; }

 private:
  /// The outputs of the registered state (all but the register port's).
  [[nodiscard]] TaskUnitOutputs state_outputs() const;
  /// The register at a byte offset.
  [[nodiscard]] uint32_t read(uint32_t offset) const;
  [[nodiscard]] bool select(unsigned& queue) const;
  bool grant_for(unsigned kind, TaskGrant& g) const;
  void parse_word(State& n, uint32_t word) const;

  TaskParams p_;
  regmap::RegisterMap map_;
  State s_;
};

}  // namespace npugen::golden
