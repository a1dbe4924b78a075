// Cycle model of the generated planar engine at its ports (docs/planar.md). The RTL
// (rtl_templates/planar/planar.sv.mustache) is built to this model, stage for stage:
//
//   rasterizer -> read ports A, B (valid/ready requests, in-order responses)
//              -> tag queue and response queues (queue_depth() entries each)
//   stage A: input converter (a reduction's accumulator); reads the column buffer, the
//            line buffer and the gain table for the beat
//   stage B: H filter over the column buffer's columns (writing this column's taps to its
//            bank), V filter over the line buffer's rows (writing this row's H result to
//            its bank), output converter (divider, MBQM, bias, zero point, clamp)
//   output register -> write port (valid/ready).
//
// The rasterizer issues one beat a cycle: W words of a pixel (A's, and B's for ADD), or for
// a pooling window whose columns (or rows) are all in the column (line) buffer a beat that
// reads nothing. It issues
// while fewer than queue_depth() beats wait for stage A. A beat's reads each take a request
// handshake; the beat is issued once both have. Stage A takes the oldest beat when its
// responses are there and stage B is free (or frees this cycle); stage B fires when the
// output register is free (or the beat writes no output); the output register holds a word
// until the write port takes it.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "npugen/golden/common/apb.hpp"
#include "npugen/golden/planar/params.hpp"

namespace npugen::golden {

struct PlanarInputs {
  ApbRequest apb;
  bool a_req_ready = false;
  bool a_rsp_valid = false;
  std::vector<int8_t> a_rsp_data;  ///< V = W x L lanes
  bool b_req_ready = false;
  bool b_rsp_valid = false;
  std::vector<int8_t> b_rsp_data;
  bool w_ready = false;
  bool param_we = false;
  unsigned param_row = 0;         ///< channels row x V onwards
  std::vector<PlanarGain> param;  ///< V entries
};

struct PlanarOutputs {
  ApbResponse apb;
  bool a_req_valid = false;
  uint64_t a_req_addr = 0;  ///< first of W words
  bool b_req_valid = false;
  uint64_t b_req_addr = 0;
  bool w_valid = false;
  uint64_t w_addr = 0;         ///< first of W words
  unsigned w_mask = 0;         ///< words written (bit j: word w_addr + j)
  std::vector<int8_t> w_data;  ///< V lanes; 0 outside the mask and beyond the channels
  bool cfg_err = false;
  bool busy = false;
  bool task_done = false;  ///< a task's last output word was written at the last edge
};

/// One beat as the rasterizer issues it and the stages carry it.
struct PlanarBeat {
  unsigned group = 0;
  PlanarOp op = PlanarOp::kActivation;
  bool read = true;        ///< reads A (a pooling beat of rows all in the line buffer: not)
  bool read_b = false;     ///< reads B (add)
  bool first = true;       ///< starts the H filter's (or the reduction's) accumulation
  bool last = true;        ///< ends it: the beat goes on to stage B
  bool emit = true;        ///< stage B writes an output word
  bool col_write = false;  ///< stage B writes the tap to column-buffer bank `col_slot`
  bool h_done = false;     ///< pooling: the beat completes an H result (stage B forms it)
  bool lb_write = false;   ///< stage B writes the H result to line-buffer bank `slot`
  bool task_last = false;
  unsigned slot = 0;      ///< the row's line-buffer bank
  unsigned lb_addr = 0;   ///< (output column, beat) inside a bank
  unsigned nlb = 0;       ///< window rows stage B takes from the line buffer
  unsigned col_slot = 0;  ///< the column's column-buffer bank
  unsigned ncb = 0;       ///< window columns stage B takes from the column buffer
  unsigned rows = 1;      ///< valid rows of the window (vr)
  unsigned cols = 1;      ///< valid columns (vc): the average's count is rows x cols
  unsigned count = 1;     ///< channels of the beat (1 to V)
  unsigned beat = 0;      ///< the beat's index in its pixel (the gain table's row)
  bool channel_reduce = false;
  uint64_t a_addr = 0, b_addr = 0, out_addr = 0;
  bool operator==(const PlanarBeat&) const = default;
};

class PlanarModel {
 public:
  explicit PlanarModel(const PlanarParams& params);

  [[nodiscard]] PlanarOutputs outputs(const PlanarInputs& in) const;
  void tick(const PlanarInputs& in);

  [[nodiscard]] const PlanarParams& params() const { return p_; }
  [[nodiscard]] const regmap::RegisterMap& register_map() const { return map_; }
  /// The task of a group as last enabled.
  [[nodiscard]] const PlanarTask& task(unsigned group) const { return task_[group]; }
  [[nodiscard]] bool enabled(unsigned group) const { return enable_[group]; }
  /// The rasterizer has a task (it makes a beat whenever the request queue has room).
  [[nodiscard]] bool running() const { return run_; }
  /// The group the rasterizer reads now, or reads next.
  [[nodiscard]] unsigned current() const { return cur_; }
  /// Beats issued so far, and those that read nothing.
  [[nodiscard]] uint64_t beats_issued() const { return beats_; }
  [[nodiscard]] uint64_t beats_without_read() const { return beats_no_read_; }
  /// Beats the rasterizer made so far (into the request queue), and those waiting there.
  [[nodiscard]] uint64_t beats_made() const { return made_; }
  [[nodiscard]] size_t requests_waiting() const { return requests_.size(); }

  /// The rasterizer's position in a task.
  struct Position {
    unsigned n = 0, oh = 0, ow = 0, cb = 0;
    int64_t y0 = 0, x0 = 0;  ///< pooling window origin (padding below 0)
    int64_t r = 0, x = 0;    ///< the row and column read
    int64_t rhi = 0;         ///< the window's last valid row
    int64_t next_row = 0;    ///< the first row not read yet in this image
    bool nread = true;       ///< the window reads rows (else all are in the line buffer)
    int64_t next_col = 0;    ///< the first column of the row not read yet
    bool ncol = true;        ///< the output column reads columns (else all are in the
                             ///< column buffer)
    unsigned cptr = 0;       ///< column-buffer bank of the column read (or the next)
    unsigned ptr = 0;        ///< line-buffer bank of the row read (or the next)
    unsigned lb_addr = 0;
  };
  /// The first position of a task.
  [[nodiscard]] Position start(const PlanarTask& t) const;
  /// The beat at a position.
  [[nodiscard]] PlanarBeat beat_at(unsigned group, const PlanarTask& t, const Position& at) const;
  /// The next position; false after the task's last beat.
  bool advance(const PlanarTask& t, Position& at) const;

 private:
  using Lanes = std::vector<int32_t>;
  [[nodiscard]] uint32_t read(const regmap::RegisterAt& r) const;
  [[nodiscard]] bool issue_ok() const;
  [[nodiscard]] bool a_take_ok() const;
  [[nodiscard]] bool b_fire(bool w_ready) const;
  /// Stage A: the input converter's values of a beat, combined with the accumulator.
  [[nodiscard]] Lanes stage_a(const PlanarBeat& b, const std::vector<int8_t>& a,
                              const std::vector<int8_t>& bdata)
      const;  /// Stage B's H filter: lane l's H result of the pooling beat in stage A.
  [[nodiscard]] int32_t h_result(unsigned l) const;
  /// Stage B: the output word of the beat in stage A.
  [[nodiscard]] std::vector<int8_t> stage_b() const;
  [[nodiscard]] unsigned word_mask(const PlanarBeat& b) const;

  PlanarParams p_;
  regmap::RegisterMap map_;
  PoolDivider divider_;
  std::array<std::array<uint32_t, planar_csr::kGroupWords>, planar_csr::kGroups> words_{};
  std::array<bool, planar_csr::kGroups> enable_{};  ///< CTRL.ENABLE: until the last write
  std::array<bool, planar_csr::kGroups> queued_{};  ///< enabled, not yet started
  std::array<PlanarTask, planar_csr::kGroups> task_{};
  bool cfg_err_ = false;
  unsigned tasks_done_ = 0;
  bool done_ = false;
  // Rasterizer.
  bool run_ = false;
  unsigned cur_ = 0;
  Position pos_;
  bool a_done_ = false, b_done_ = false;
  /// The request queue: beats made by the rasterizer waiting for their reads' handshakes.
  static constexpr size_t kRequestDepth = 2;
  std::deque<PlanarBeat> requests_;
  uint64_t made_ = 0;
  // Queues.
  std::deque<PlanarBeat> tags_;
  std::deque<std::vector<int8_t>> a_data_, b_data_;
  // Stage A.
  Lanes acc_;
  bool a_valid_ = false;
  PlanarBeat a_beat_;
  std::vector<Lanes> lb_rd_;         ///< [bank][lane]
  std::vector<Lanes> cb_rd_;         ///< [bank][lane]: the column buffer's, likewise
  std::vector<PlanarGain> gain_rd_;  ///< [lane]
  // Memories.
  std::vector<std::vector<int32_t>> lb_;  ///< [bank][entry * V + lane]
  std::vector<std::vector<int32_t>> cb_;  ///< column buffer: [bank][beat * V + lane]
  std::vector<PlanarGain> table_;         ///< [row * V + lane]
  // The output pipeline's registers (planar.pipeline_stages), then the output register; a
  // written word group's fields.
  struct OutBeat {
    bool valid = false;
    uint64_t addr = 0;
    unsigned mask = 0;
    std::vector<int8_t> data;
    bool last = false;
    unsigned group = 0;
  };
  std::vector<OutBeat> pipe_;  ///< [0] after stage B, the last before the output register
  OutBeat out_;                ///< the output register (the write port)
  uint64_t beats_ = 0, beats_no_read_ = 0;
};

}  // namespace npugen::golden
