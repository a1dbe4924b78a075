// The zero-skipping preprocessing job (blocks/zs/zs_job.hpp).
#include "blocks/zs/zs_job.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/npy.hpp"

namespace fs = std::filesystem;

namespace npugen::blocks::zs {

const Design& zs_design(const elab::Design& design) {
  const auto* z = design.find<Design>();
  if (z == nullptr) {
    throw BadInput(
        fmt::format("{}: zs.enabled is false: the dense array has nothing to "
                    "preprocess; nothing was written",
                    design.config.source.string()));
  }
  return *z;
}

ZsJob load_zs_job(const elab::Design& design, const fs::path& weights_file) {
  const auto& z = zs_design(design);
  const std::string cfg = design.config.source.string();
  util::NpyArray a;
  try {
    a = util::read_npy(weights_file);
  } catch (const util::NpyError& e) {
    throw BadInput(fmt::format("{}: {}; nothing was written", weights_file.string(), e.what()));
  }
  const auto& p = z.params;
  auto bad = [&](const std::string& problem) {
    return BadInput(fmt::format("{}: {}; nothing was written", weights_file.string(), problem));
  };
  if (a.shape.size() != 3) {
    throw bad(fmt::format("has rank {} (shape {}); weights are [T][C][L] (tiles, cycles, lanes)",
                          a.shape.size(), fmt::join(a.shape, "x")));
  }
  if (a.shape[0] != p.array.tiles || a.shape[2] != p.array.lanes) {
    throw bad(fmt::format("shape {}x{}x{} does not fit {}: it needs [T={}][C][L={}]", a.shape[0],
                          a.shape[1], a.shape[2], cfg, p.array.tiles, p.array.lanes));
  }
  if (a.shape[1] == 0 || a.shape[1] > p.max_rows) {
    throw bad(fmt::format("has C = {} cycles; {} allows 1 to {} (zs.max_rows)", a.shape[1], cfg,
                          p.max_rows));
  }
  const unsigned w = p.array.weight_width;
  const int64_t lo = p.array.weight_signed ? -(int64_t{1} << (w - 1)) : 0;
  const int64_t hi = p.array.weight_signed ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
  for (size_t i = 0; i < a.values.size(); ++i) {
    if (a.values[i] < lo || a.values[i] > hi) {
      const size_t l = i % a.shape[2];
      const size_t c = (i / a.shape[2]) % a.shape[1];
      const size_t t = i / a.shape[2] / a.shape[1];
      throw bad(fmt::format("W[{}][{}][{}] = {} is outside the {}-bit {} weight range {} to {}", t,
                            c, l, a.values[i], w, p.array.weight_signed ? "signed" : "unsigned", lo,
                            hi));
    }
  }
  ZsJob job;
  job.tensor = golden::HierTensor{
      {p.array.lanes, p.array.tiles}, static_cast<unsigned>(a.shape[1]), std::move(a.values)};
  return job;
}

void run_zs_job(const elab::Design& design, ZsJob& job) {
  const auto& p = zs_design(design).params;
  job.schedule = golden::preprocess(job.tensor, p.levels(), &job.stats);
  job.problems = golden::check_schedule(job.tensor, p.levels(), job.schedule);
  job.bound = golden::lower_bound(job.tensor, p.levels());
  // Each level on its own, for the contribution figures.
  job.intra_only_steps = golden::preprocess(job.tensor, {p.intra, {0, 0}}).steps();
  job.inter_only_steps = golden::preprocess(job.tensor, {{0, 0}, p.inter}).steps();
}

nlohmann::json zs_stats_json(const elab::Design& design, const ZsJob& job) {
  const auto& p = zs_design(design).params;
  const auto& s = job.schedule;
  const unsigned tiles = p.array.tiles;
  const unsigned lanes = p.array.lanes;
  const unsigned span = 2 * p.intra.lookaside + 1;
  std::vector<std::vector<uint64_t>> lane_hist(p.intra.lookahead + 1,
                                               std::vector<uint64_t>(span, 0));
  std::vector<uint64_t> offset_hist(p.inter.lookahead + 1, 0);
  std::vector<uint64_t> dest_hist(p.inter.lookaside + 1, 0);
  uint64_t busy_tile_steps = 0;
  for (size_t i = 0; i < s.steps(); ++i) {
    for (unsigned t = 0; t < tiles; ++t) {
      bool busy = false;
      for (unsigned l = 0; l < lanes; ++l) {
        const size_t at = (i * tiles + t) * lanes + l;
        if (s.weight[at] == 0) continue;
        busy = true;
        ++lane_hist[s.sel_cycle[at]]
                   [static_cast<unsigned>(s.sel_lane[at] + static_cast<int>(p.intra.lookaside))];
      }
      if (!busy) continue;
      ++busy_tile_steps;
      ++offset_hist[s.offset[0][i * tiles + t]];
      ++dest_hist[s.aside[0][i * tiles + t]];
    }
  }
  nlohmann::json lane_json = nlohmann::json::object();
  for (unsigned dc = 0; dc <= p.intra.lookahead; ++dc) {
    for (unsigned k = 0; k < span; ++k) {
      lane_json[fmt::format("dc={},dl={}", dc,
                            static_cast<int>(k) - static_cast<int>(p.intra.lookaside))] =
          lane_hist[dc][k];
    }
  }
  const uint64_t c = job.stats.dense_cycles;
  const uint64_t steps = job.stats.steps;
  const uint64_t s0 = job.stats.steps_after_level.at(0);
  const uint64_t cycles = golden::array_cycles(p, s.base);
  const uint64_t stream_steps = std::max<uint64_t>(steps, 1);
  return nlohmann::json{
      {"config", {{"file", design.config_file}, {"hash", design.config_hash}}},
      {"shape", {{"tiles", tiles}, {"cycles", c}, {"lanes", lanes}}},
      {"levels",
       {{"intra_tile", {{"lookahead", p.intra.lookahead}, {"lookaside", p.intra.lookaside}}},
        {"inter_tile", {{"lookahead", p.inter.lookahead}, {"lookaside", p.inter.lookaside}}}}},
      {"nonzeros", job.stats.nonzeros},
      {"dense_cycles", c},
      {"steps", steps},
      {"speedup", steps == 0 ? nlohmann::json(nullptr)
                             : nlohmann::json(static_cast<double>(c) / static_cast<double>(steps))},
      {"lower_bound",
       {{"value", job.bound.value},
        {"capacity", job.bound.capacity},
        {"hitting", job.bound.hitting},
        {"cover", job.bound.cover},
        {"binding", job.bound.how},
        {"definition",
         "max of: capacity = max over tile ranges [i,j] and lane ranges [p,q] of ceil(nonzeros / "
         "((tiles i-D..j) x (lanes p-d..q+d))); hitting = fewest bases with one in [c-h-H, c] for "
         "every nonempty row c; cover = max over tile ranges [i,j] of ceil(sum of m_t / tiles "
         "i-D..j), m_t = fewest windows of h+1 rows covering tile t's nonempty rows"}}},
      {"steps_over_lower_bound",
       job.bound.value == 0
           ? nlohmann::json(nullptr)
           : nlohmann::json(static_cast<double>(steps) / static_cast<double>(job.bound.value))},
      {"cycles_removed",
       {{"intra_tile", c - s0},
        {"inter_tile", s0 - steps},
        {"definition",
         "intra_tile = C - rows still busy in some tile after level 0 alone; inter_tile = those "
         "rows - steps after level 1"}}},
      {"steps_with_one_level",
       {{"intra_tile_only", job.intra_only_steps},
        {"inter_tile_only", job.inter_only_steps},
        {"definition", "steps when the other level is switched off"}}},
      {"array_cycles",
       {{"value", cycles},
        {"stall_cycles", cycles - stream_steps},
        {"act_rows_per_cycle", p.act_rows_per_cycle},
        {"definition",
         "sum over steps of ceil(n/R), n = new window rows (first step: h+H+1); excludes the "
         "adder-tree latency"}}},
      {"histograms",
       {{"lane_select", lane_json},
        {"tile_offset", offset_hist},
        {"dest_aside", dest_hist},
        {"counted_over",
         {{"lane_select", "nonzero weights"},
          {"tile_offset", fmt::format("{} busy tile-steps", busy_tile_steps)},
          {"dest_aside", "busy tile-steps"}}}}}};
}

util::FileMap zs_outputs(const elab::Design& design, const ZsJob& job) {
  using util::NpyType;
  const auto& p = zs_design(design).params;
  const auto& s = job.schedule;
  const size_t steps = s.steps();
  const size_t tiles = p.array.tiles;
  const size_t lanes = p.array.lanes;
  util::FileMap files;
  const bool wide = !p.array.weight_signed && p.array.weight_width == 32;
  files["weights.npy"] =
      util::npy_bytes(wide ? NpyType::kInt64 : NpyType::kInt32, {steps, tiles, lanes}, s.weight);
  files["sel_cycle.npy"] = util::npy_bytes(NpyType::kUint8, {steps, tiles, lanes},
                                           {s.sel_cycle.begin(), s.sel_cycle.end()});
  files["sel_lane.npy"] = util::npy_bytes(NpyType::kInt8, {steps, tiles, lanes},
                                          {s.sel_lane.begin(), s.sel_lane.end()});
  files["tile_offset.npy"] =
      util::npy_bytes(NpyType::kUint8, {steps, tiles}, {s.offset[0].begin(), s.offset[0].end()});
  std::vector<int64_t> dest(steps * tiles);
  for (size_t i = 0; i < dest.size(); ++i)
    dest[i] = static_cast<int64_t>(i % tiles) + s.aside[0][i];
  files["dest_tile.npy"] = util::npy_bytes(NpyType::kUint16, {steps, tiles}, dest);
  files["base_cycle.npy"] =
      util::npy_bytes(NpyType::kUint32, {steps}, {s.base.begin(), s.base.end()});
  // The control words the RTL consumes, packed as 32-bit words (bit 0 of word 0 first).
  const auto stream = golden::step_stream(p, s);
  const size_t words = (zs_design(design).layout.width() + 31) / 32;
  std::vector<int64_t> control;
  control.reserve(stream.size() * words);
  for (const auto& step : stream) {
    for (uint32_t w : golden::pack_control(zs_design(design).layout, step.control)) {
      control.push_back(w);
    }
  }
  files["control.npy"] = util::npy_bytes(NpyType::kUint32, {stream.size(), words}, control);
  files["stats.json"] = zs_stats_json(design, job).dump(2) + "\n";
  return files;
}

}  // namespace npugen::blocks::zs
