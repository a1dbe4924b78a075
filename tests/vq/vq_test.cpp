// The dequantizer's golden model against the plain reference lookup, the weight formats,
// and the codebook training.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "npugen/golden/vq/dequant_model.hpp"
#include "npugen/golden/vq/encode.hpp"
#include "npugen/golden/vq/format.hpp"
#include "npugen/golden/vq/reference.hpp"
#include "vq/stimulus.hpp"

using namespace npugen::golden;

TEST_CASE("the dequantizer model agrees with the plain reference lookup", "[vq]") {
  std::mt19937_64 rng(11);
  const WeightFormat formats[] = {{WeightKind::kInt, 8},   {WeightKind::kUint, 12},
                                  {WeightKind::kFp16, 16}, {WeightKind::kBf16, 16},
                                  {WeightKind::kInt, 32},  {WeightKind::kInt, 3}};
  for (int trial = 0; trial < 60; ++trial) {
    VqParams p;
    p.rows = 1U << (1 + rng() % 8);
    p.row_weights = 1U << (rng() % 6);
    p.copies = 1 + static_cast<unsigned>(rng() % 5);
    p.min_vector_length = 1U << (rng() % (p.row_log2() + 1));
    p.weight = formats[rng() % 6];
    for (const bool throughput : {false, true}) {
      VqDequantModel model(p);
      npugen::tb::VqStimulus stimulus(p, {throughput, 16}, rng());
      npugen::tb::VqReferenceTracker reference(p);
      uint64_t taken = 0, errors = 0;
      for (int cycle = 0; cycle < 3000; ++cycle) {
        const VqInputs& in = stimulus.inputs();
        const VqOutputs out = model.outputs(in);
        if (out.out_valid && in.out_ready) {
          REQUIRE_FALSE(reference.empty());
          INFO("trial " << trial << " cycle " << cycle << " rows " << p.rows << " M "
                        << p.row_weights << " P " << p.copies << " " << p.weight.name());
          REQUIRE(out.out_weights == reference.front().weights);
          REQUIRE(out.out_err == reference.front().error);
          // A beat holds P x m weights from position 0; the rest are 0.
          if (out.out_vq) {
            for (size_t i = p.copies << out.out_vlen_log2; i < out.out_weights.size(); ++i) {
              REQUIRE(out.out_weights[i] == 0);
            }
          }
          errors += out.out_err ? 1 : 0;
          reference.pop();
          ++taken;
        }
        const bool accepted = in.in_valid && out.in_ready;
        reference.clock(in, accepted);
        model.tick(in);
        stimulus.advance(accepted, out.apb);
      }
      CHECK(taken > 100);
      if (throughput) CHECK(errors == 0);
    }
  }
}

TEST_CASE("the reference lookup reads vector i of a table at base*M + i*m", "[vq]") {
  std::vector<uint32_t> flat(16);
  for (uint32_t i = 0; i < 16; ++i) flat[i] = 100 + i;
  // 4 rows of 4; table at row 1 with m = 2: vector 3 is weights 4 + 6, 4 + 7.
  CHECK(*reference::vq_lookup(flat, 4, 1, 2, 3) == std::vector<uint32_t>{110, 111});
  CHECK(*reference::vq_lookup(flat, 4, 3, 4, 0) == std::vector<uint32_t>{112, 113, 114, 115});
  CHECK_FALSE(reference::vq_lookup(flat, 4, 3, 4, 1).has_value());
  CHECK_FALSE(reference::vq_lookup(flat, 4, 2, 1, 8).has_value());
}

TEST_CASE("fp16 and bf16: every finite pattern survives decode then encode", "[vq]") {
  for (const WeightFormat f :
       {WeightFormat{WeightKind::kFp16, 16}, WeightFormat{WeightKind::kBf16, 16}}) {
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
      const double v = decode_weight(f, bits);
      if (!std::isfinite(v)) continue;
      REQUIRE(encode_weight(f, v) == bits);
    }
  }
  const WeightFormat half{WeightKind::kFp16, 16};
  CHECK(encode_weight(half, 1.0 + std::ldexp(1.0, -11)) == 0x3c00);      // tie to even: down
  CHECK(encode_weight(half, 1.0 + 3 * std::ldexp(1.0, -11)) == 0x3c02);  // tie to even: up
  CHECK(encode_weight(half, 1e9) == 0x7bff);                             // saturates
  CHECK(encode_weight(half, -1e9) == 0xfbff);
  CHECK(decode_weight(half, 0x0001) == std::ldexp(1.0, -24));  // smallest subnormal
  const WeightFormat int5{WeightKind::kInt, 5};
  CHECK(encode_weight(int5, -20) == 0x10);  // saturates to -16
  CHECK(decode_weight(int5, 0x10) == -16);
  CHECK(encode_weight(WeightFormat{WeightKind::kUint, 32}, 4294967295.0) == 0xffffffffU);
  WeightFormat parsed;
  CHECK(WeightFormat::parse("uint12", parsed));
  CHECK(parsed.name() == "uint12");
  CHECK_FALSE(WeightFormat::parse("int1", parsed));
  CHECK_FALSE(WeightFormat::parse("int33", parsed));
  CHECK_FALSE(WeightFormat::parse("fp8", parsed));
}

TEST_CASE("codebook training: deterministic, exact on few distinct vectors, beats scalar", "[vq]") {
  std::mt19937_64 rng(3);
  // 16 distinct int8 vectors of 4, repeated: a 16-row codebook reproduces them exactly.
  std::vector<double> distinct(64);
  for (auto& v : distinct) v = static_cast<double>(static_cast<int>(rng() % 256) - 128);
  std::vector<double> data;
  for (int i = 0; i < 500; ++i) {
    const size_t pick = rng() % 16;
    data.insert(data.end(), distinct.begin() + static_cast<long>(pick * 4),
                distinct.begin() + static_cast<long>(pick * 4 + 4));
  }
  const VqTrainOptions exact{4, 16, {WeightKind::kInt, 8}, 1, 50};
  const VqCodebook a = vq_train(data, exact);
  const auto err = quantization_error(data, vq_reconstruct(a.codebook, 4, exact.format, a.indices));
  CHECK(err.mse == 0);
  const VqCodebook b = vq_train(data, exact);
  CHECK(a.codebook == b.codebook);
  CHECK(a.indices == b.indices);

  // Gaussian weights, 2 bits per weight: VQ (N = 256, m = 4) beats 2-bit scalar.
  std::vector<double> gauss(4096 * 4);
  for (size_t i = 0; i < gauss.size(); i += 2) {
    const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    gauss[i] = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    gauss[i + 1] = std::sqrt(-2 * std::log(u1)) * std::sin(2 * M_PI * u2);
  }
  const VqTrainOptions o{4, 256, {WeightKind::kFp16, 16}, 7, 25};
  const VqCodebook c = vq_train(gauss, o);
  const auto vq = quantization_error(gauss, vq_reconstruct(c.codebook, 4, o.format, c.indices));
  const auto scalar = quantization_error(gauss, scalar_quantize(gauss, 2));
  CHECK(vq.sqnr_db > scalar.sqnr_db + 1.0);
  // A different seed gives a (slightly) different codebook.
  const VqCodebook d = vq_train(gauss, {4, 256, {WeightKind::kFp16, 16}, 8, 25});
  CHECK(d.codebook != c.codebook);
}
