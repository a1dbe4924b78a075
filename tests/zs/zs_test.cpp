// Zero-skipping preprocessing against its contract (the independent checker), the
// lower bound and the plain dense reference; the control-word layout; the cycle model
// of the zero-skipping array against the dense reference.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "npugen/golden/pe_array/dense_reference.hpp"
#include "npugen/golden/zs/array_model.hpp"
#include "npugen/golden/zs/params.hpp"
#include "npugen/golden/zs/schedule.hpp"

using namespace npugen::golden;

namespace {

HierTensor random_tensor(std::mt19937_64& rng, std::vector<unsigned> extents, unsigned rows,
                         double sparsity) {
  HierTensor t{std::move(extents), rows, {}};
  t.values.resize(t.units() * rows * t.lanes());
  std::bernoulli_distribution zero(sparsity);
  std::uniform_int_distribution<int> value(-128, 127);
  for (auto& v : t.values) {
    int x = 0;
    while (!zero(rng) && x == 0) x = value(rng);
    v = x;
  }
  return t;
}

// Accumulators of a two-level schedule for activations A [C][L], from the contract's
// formula (not the cycle model).
std::vector<int64_t> run_schedule(const HierSchedule& s, const std::vector<int64_t>& acts) {
  const unsigned lanes = s.extents[0];
  const unsigned tiles = s.extents[1];
  std::vector<int64_t> acc(tiles, 0);
  for (size_t i = 0; i < s.steps(); ++i) {
    for (unsigned t = 0; t < tiles; ++t) {
      const size_t row0 = s.base[i] + s.offset[0][i * tiles + t];
      const unsigned dest = t + s.aside[0][i * tiles + t];
      for (unsigned l = 0; l < lanes; ++l) {
        const size_t at = (i * tiles + t) * lanes + l;
        if (s.weight[at] == 0) continue;
        acc[dest] += s.weight[at] * acts[(row0 + s.sel_cycle[at]) * lanes + l + s.sel_lane[at]];
      }
    }
  }
  return acc;
}

std::vector<int64_t> dense(const HierTensor& w, const std::vector<int64_t>& acts) {
  const unsigned lanes = w.extents[0];
  const unsigned tiles = w.extents[1];
  std::vector<uint32_t> wr(w.values.begin(), w.values.end());
  std::vector<uint32_t> ar(acts.begin(), acts.end());
  const auto raw =
      reference::dense_dot_products(wr, ar, tiles, w.rows, lanes, {8, true}, {8, true}, 64);
  return {raw.begin(), raw.end()};
}

}  // namespace

TEST_CASE("two-level schedules satisfy the contract and equal the dense product", "[zs]") {
  std::mt19937_64 rng(7);
  const std::vector<std::vector<SkipDepth>> settings = {
      {{0, 0}, {0, 0}}, {{1, 1}, {0, 0}}, {{0, 0}, {1, 1}}, {{1, 1}, {1, 1}},
      {{2, 2}, {2, 1}}, {{4, 0}, {0, 3}}, {{0, 4}, {4, 0}}};
  for (int trial = 0; trial < 300; ++trial) {
    const unsigned lanes = 1 + rng() % 9;
    const unsigned tiles = 1 + rng() % 7;
    const unsigned rows = 1 + rng() % 40;
    const double sparsity = std::vector<double>{0, 0.3, 0.5, 0.75, 0.9, 1.0}[rng() % 6];
    auto levels = settings[rng() % settings.size()];
    levels[1].lookaside = std::min(levels[1].lookaside, tiles - 1);
    levels[0].lookaside = std::min(levels[0].lookaside, lanes - 1);
    const HierTensor w = random_tensor(rng, {lanes, tiles}, rows, sparsity);
    ScheduleStats stats;
    const HierSchedule s = preprocess(w, levels, &stats);
    INFO("trial " << trial << ": T=" << tiles << " C=" << rows << " L=" << lanes);
    const auto problems = check_schedule(w, levels, s);
    CHECK(problems.empty());
    for (const auto& p : problems) UNSCOPED_INFO(p);
    const LowerBound lb = lower_bound(w, levels);
    CHECK(lb.value <= s.steps());
    CHECK(s.steps() <= rows);
    CHECK(stats.steps == s.steps());
    CHECK(stats.steps_after_level.size() == 2);
    CHECK(stats.steps_after_level.back() == s.steps());
    CHECK(stats.steps_after_level[0] >= s.steps());
    std::vector<int64_t> acts(size_t{rows} * lanes);
    for (auto& a : acts) a = static_cast<int64_t>(rng() % 255) - 127;
    CHECK(run_schedule(s, acts) == dense(w, acts));
  }
}

TEST_CASE("the N-level form schedules three axes within the contract", "[zs]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 150; ++trial) {
    const std::vector<unsigned> extents = {1 + static_cast<unsigned>(rng() % 5),
                                           1 + static_cast<unsigned>(rng() % 4),
                                           1 + static_cast<unsigned>(rng() % 4)};
    const unsigned rows = 1 + rng() % 24;
    std::vector<SkipDepth> levels = {{static_cast<unsigned>(rng() % 3), 1},
                                     {static_cast<unsigned>(rng() % 3), 1},
                                     {static_cast<unsigned>(rng() % 3), 1}};
    for (size_t k = 0; k < 3; ++k) {
      levels[k].lookaside = std::min<unsigned>(levels[k].lookaside, extents[k] - 1);
    }
    const HierTensor w = random_tensor(rng, extents, rows, 0.2 * static_cast<double>(rng() % 5));
    ScheduleStats stats;
    const HierSchedule s = preprocess(w, levels, &stats);
    INFO("trial " << trial);
    const auto problems = check_schedule(w, levels, s);
    CHECK(problems.empty());
    for (const auto& p : problems) UNSCOPED_INFO(p);
    CHECK(stats.steps_after_level.size() == 3);
    CHECK(s.steps() <= rows);
  }
}

TEST_CASE("the checker catches broken schedules", "[zs]") {
  std::mt19937_64 rng(3);
  const std::vector<SkipDepth> levels = {{1, 1}, {1, 1}};
  const HierTensor w = random_tensor(rng, {6, 4}, 20, 0.6);
  const HierSchedule good = preprocess(w, levels);
  REQUIRE(check_schedule(w, levels, good).empty());
  auto first_nonzero = [&](const HierSchedule& s) {
    for (size_t i = 0; i < s.weight.size(); ++i) {
      if (s.weight[i] != 0) return i;
    }
    return size_t{0};
  };
  const size_t at = first_nonzero(good);
  {
    HierSchedule bad = good;
    bad.weight[at] += 1;
    CHECK_FALSE(check_schedule(w, levels, bad).empty());
  }
  {
    HierSchedule bad = good;
    bad.weight[at] = 0;  // a weight dropped
    CHECK_FALSE(check_schedule(w, levels, bad).empty());
  }
  {
    HierSchedule bad = good;
    bad.sel_lane[at] = 2;  // outside d = 1
    CHECK_FALSE(check_schedule(w, levels, bad).empty());
  }
  {
    HierSchedule bad = good;
    bad.offset[0][0] = 2;  // outside H = 1
    CHECK_FALSE(check_schedule(w, levels, bad).empty());
  }
  {
    // A sideways move inside the weight's own row: not in the select set (no mux input).
    HierSchedule bad = good;
    bad.sel_cycle[at] = 0;
    bad.sel_lane[at] = 1;
    const auto problems = check_schedule(w, levels, bad);
    REQUIRE_FALSE(problems.empty());
    bool named = false;
    for (const auto& p : problems)
      named = named || p.find("sideways in its own row") != std::string::npos;
    CHECK(named);
  }
  {
    HierSchedule bad = good;
    REQUIRE(bad.steps() >= 2);
    bad.base[1] = bad.base[0];
    CHECK_FALSE(check_schedule(w, levels, bad).empty());
  }
}

TEST_CASE("levels remove cycles on sparse weights and nothing on dense ones", "[zs]") {
  std::mt19937_64 rng(5);
  const HierTensor full = random_tensor(rng, {16, 16}, 64, 0.0);
  CHECK(preprocess(full, {{1, 1}, {1, 1}}).steps() == 64);
  const HierTensor sparse = random_tensor(rng, {16, 16}, 256, 0.75);
  ScheduleStats intra_only;
  const HierSchedule s0 = preprocess(sparse, {{1, 1}, {0, 0}}, &intra_only);
  CHECK(s0.steps() < 200);  // level 0 alone empties rows in every tile at once
  CHECK(intra_only.steps_after_level[0] == s0.steps());
  ScheduleStats both;
  const HierSchedule s = preprocess(sparse, {{1, 1}, {1, 1}}, &both);
  CHECK(s.steps() < s0.steps());  // level 1 removes more
  CHECK(s.steps() <= both.steps_after_level[0]);
  const HierTensor empty = random_tensor(rng, {4, 3}, 10, 1.0);
  CHECK(preprocess(empty, {{1, 1}, {1, 1}}).steps() == 0);
}

TEST_CASE("lane selects: own activation first, then 2d+1 lanes of each row ahead", "[zs]") {
  for (unsigned h = 0; h <= 4; ++h) {
    for (unsigned d = 0; d <= 4; ++d) {
      ZeroSkipParams p;
      p.intra = {h, d};
      CHECK(p.lane_selects() == 1 + h * (2 * d + 1));
      std::vector<bool> used(p.lane_selects(), false);
      auto check = [&](unsigned dc, int dl) {
        const unsigned code = p.lane_select_code(dc, dl);
        REQUIRE(code < p.lane_selects());
        CHECK_FALSE(used[code]);
        used[code] = true;
        unsigned back_dc = 99;
        int back_dl = 99;
        p.lane_select_of(code, back_dc, back_dl);
        CHECK(back_dc == dc);
        CHECK(back_dl == dl);
      };
      check(0, 0);
      CHECK(p.lane_select_code(0, 0) == 0);
      for (unsigned dc = 1; dc <= h; ++dc) {
        for (int dl = -static_cast<int>(d); dl <= static_cast<int>(d); ++dl) check(dc, dl);
      }
      CHECK(std::count(used.begin(), used.end(), true) == static_cast<long>(used.size()));
    }
  }
}

TEST_CASE("control words pack and unpack every field", "[zs]") {
  std::mt19937_64 rng(9);
  ZeroSkipParams p;
  p.array = PeArrayParams{5, 3, 8, true, 8, true, 32, 1};
  p.intra = {2, 1};
  p.inter = {1, 2};
  p.max_rows = 300;
  const ControlLayout layout = ControlLayout::of(p);
  CHECK(layout.advance_bits == 9);
  CHECK(layout.tile_offset_bits == 1);
  CHECK(layout.dest_bits == 2);
  CHECK(layout.lane_select_bits == 3);  // 1 + 2 x 3 = 7 inputs (none sideways in row 0)
  CHECK(layout.width() == 2 + 9 + 5 * 3 + 15 * 3);
  for (int i = 0; i < 100; ++i) {
    StepControl c;
    c.first = rng() % 2;
    c.last = rng() % 2;
    c.advance = static_cast<uint32_t>(rng() % 512);
    for (unsigned t = 0; t < 5; ++t) {
      c.tile_offset.push_back(static_cast<uint8_t>(rng() % 2));
      c.dest.push_back(static_cast<uint8_t>(rng() % 4));
    }
    for (unsigned k = 0; k < 15; ++k) c.lane_select.push_back(static_cast<uint8_t>(rng() % 8));
    const StepControl back = unpack_control(layout, pack_control(layout, c));
    CHECK(back.first == c.first);
    CHECK(back.last == c.last);
    CHECK(back.advance == c.advance);
    CHECK(back.tile_offset == c.tile_offset);
    CHECK(back.dest == c.dest);
    CHECK(back.lane_select == c.lane_select);
  }
}

TEST_CASE("the cycle model of the zero-skipping array equals the dense reference", "[zs]") {
  std::mt19937_64 rng(13);
  uint64_t total_held = 0;
  for (int trial = 0; trial < 60; ++trial) {
    ZeroSkipParams p;
    const unsigned tiles = 1 + rng() % 5;
    const unsigned lanes = 1 + rng() % 6;
    p.array = PeArrayParams{tiles, lanes,          8,  true,
                            8,     rng() % 2 == 0, 32, static_cast<unsigned>(rng() % 3)};
    p.intra = {static_cast<unsigned>(rng() % 3), std::min<unsigned>(rng() % 3, lanes - 1)};
    p.inter = {static_cast<unsigned>(rng() % 3), std::min<unsigned>(rng() % 3, tiles - 1)};
    p.act_rows_per_cycle = 1 + rng() % 3;
    p.max_rows = 64;
    p.step_buffer_depth = 1 + rng() % 3;
    ZeroSkipArrayModel model(p);
    // Three jobs back to back, with bubbles on the input.
    std::vector<HierTensor> jobs;
    std::vector<std::vector<uint32_t>> acts;
    std::vector<std::vector<StreamStep>> streams;
    for (int j = 0; j < 3; ++j) {
      const unsigned rows = 1 + rng() % 40;
      jobs.push_back(random_tensor(rng, {lanes, tiles}, rows, 0.25 * (rng() % 5)));
      std::vector<uint32_t> a(size_t{rows} * lanes);
      for (auto& x : a) x = static_cast<uint32_t>(rng() & 0xff);
      acts.push_back(a);
      streams.push_back(step_stream(p, preprocess(jobs.back(), p.levels())));
    }
    size_t job_in = 0, step_in = 0, results = 0;
    std::vector<uint32_t> rd(size_t{p.act_rows_per_cycle} * lanes);
    uint64_t held = 0;
    for (int cycle = 0; cycle < 4000 && results < jobs.size(); ++cycle) {
      // This cycle's inputs: a step offered (with bubbles), the results' ready (with
      // back-pressure), and the activation rows the array asks for.
      ZeroSkipInputs in;
      const bool offer = job_in < jobs.size() && rng() % 4 != 0;
      if (offer) {
        in.step_valid = true;
        in.step = &streams[job_in][step_in];
      }
      in.acc_ready = rng() % 3 != 0;
      const ZeroSkipOutputs out = model.outputs(in);
      if (out.acc_valid && !in.acc_ready) ++held;
      if (out.acc_valid && in.acc_ready) {
        std::vector<uint32_t> wr;
        for (int64_t v : jobs[results].values) wr.push_back(static_cast<uint32_t>(v) & 0xff);
        const auto expect =
            reference::dense_dot_products(wr, acts[results], tiles, jobs[results].rows, lanes,
                                          {8, true}, {8, p.array.act_signed}, 32);
        CHECK(std::vector<uint64_t>(out.acc.begin(), out.acc.end()) == expect);
        ++results;
      }
      CHECK(!(out.act_rd_en && out.acc_valid && !in.acc_ready));  // nothing moves while held
      std::fill(rd.begin(), rd.end(), 0);
      if (out.act_rd_en) {
        const auto& a = acts.at(out.act_rd_job);
        const size_t rows = jobs[out.act_rd_job].rows;
        for (unsigned k = 0; k < out.act_rd_count; ++k) {
          if (out.act_rd_row + k >= rows) continue;
          std::copy_n(a.begin() + static_cast<ptrdiff_t>((out.act_rd_row + k) * lanes), lanes,
                      rd.begin() + static_cast<ptrdiff_t>(k * lanes));
        }
      }
      in.act_rd_data = rd;
      model.tick(in);
      if (offer && out.step_ready && ++step_in == streams[job_in].size()) {
        ++job_in;
        step_in = 0;
      }
    }
    total_held += held;
    CHECK(results == jobs.size());
  }
  CHECK(total_held > 10);  // results did wait for acc_ready
}
