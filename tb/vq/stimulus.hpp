// Seeded stimulus for the dequantizer's co-simulation, and the independent tracker that
// predicts every output beat from the plain reference lookup. Raw std::mt19937_64 output
// only, so a seed reproduces on every platform.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "common/apb_master.hpp"
#include "npugen/golden/vq/dequant_model.hpp"
#include "npugen/golden/vq/params.hpp"

namespace npugen::tb {

struct VqStimulusOptions {
  /// throughput: VQ on, input always valid and output always ready; the vector length
  /// steps through every supported value every `beats_per_layer` beats. check: layers of
  /// random length, vector length, table base and VQ on/off, bubbles, back-pressure,
  /// codebook reloads, register reads (of every address, with and without a register),
  /// error clears and refused CTRL writes.
  bool throughput = false;
  unsigned beats_per_layer = 64;
  /// Most rows a reload writes (0: the codebook's): a reload is a share of the budget, not
  /// all of it.
  unsigned reload_rows_max = 0;
};

class VqStimulus {
 public:
  VqStimulus(const golden::VqParams& params, const VqStimulusOptions& options, uint64_t seed);

  /// Inputs of this cycle. An offered beat stays the same until it is taken.
  const golden::VqInputs& inputs() const { return in_; }
  /// After the clock edge: whether the beat offered was taken, and the register port's
  /// response in the cycle that ended.
  void advance(bool beat_taken, const golden::ApbResponse& apb);

  /// Layer changes (CTRL/BASE writes) so far, and codebook rows written.
  [[nodiscard]] uint64_t layers() const { return layers_; }
  [[nodiscard]] uint64_t codebook_writes() const { return codebook_writes_; }
  /// True once the whole codebook was written the first time.
  [[nodiscard]] bool loaded() const { return load_row_ >= p_.rows; }
  [[nodiscard]] const ApbMaster& apb() const { return apb_; }

 private:
  bool chance(unsigned per_256) { return (rng_() & 0xff) < per_256; }
  uint32_t draw_weight();
  void new_beat();
  void plan_cycle();

  golden::VqParams p_;
  VqStimulusOptions o_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  golden::VqInputs in_;
  bool beat_pending_ = false;
  unsigned load_row_ = 0;     // initial load: rows written so far
  unsigned reload_left_ = 0;  // rows left of a reload in progress
  unsigned beats_left_ = 0;   // beats left in the current layer
  unsigned k_ = 0;            // vector length (log2) of the current layer
  unsigned base_ = 0;         // table base of the current layer
  bool vq_ = true;
  unsigned valid_per_256_ = 230;
  unsigned ready_per_256_ = 230;
  uint64_t layers_ = 0;
  uint64_t codebook_writes_ = 0;
};

/// The plain reference's view of the dequantizer: a copy of the codebook and of the
/// register writes, kept from the inputs alone, and the beats it expects, in order.
class VqReferenceTracker {
 public:
  explicit VqReferenceTracker(const golden::VqParams& params);

  /// Call with every cycle's inputs and whether a beat was accepted (in_valid && in_ready).
  void clock(const golden::VqInputs& in, bool accepted);
  /// The oldest beat not yet taken: weights (P x M), and whether any lookup failed.
  struct Beat {
    std::vector<uint32_t> weights;
    bool error = false;
  };
  [[nodiscard]] bool empty() const { return beats_.empty(); }
  [[nodiscard]] const Beat& front() const { return beats_.front(); }
  void pop() { beats_.pop_front(); }

 private:
  golden::VqParams p_;
  std::vector<uint32_t> flat_;  // N x M weights, as written
  bool vq_;
  unsigned vector_length_;
  unsigned base_ = 0;
  std::deque<Beat> beats_;
};

}  // namespace npugen::tb
