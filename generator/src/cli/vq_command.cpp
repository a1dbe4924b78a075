// npugen vq encode / decode: codebook training for the dequantizer, and the
// way back from indices and codebook to weights.
#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "npugen/golden/common/bits.hpp"
#include "npugen/golden/vq/encode.hpp"
#include "npugen/golden/vq/format.hpp"
#include "util/npy.hpp"
#include "util/output_tree.hpp"

namespace fs = std::filesystem;

namespace npugen::cli {
namespace {

using golden::WeightFormat;
using golden::WeightKind;

CommandError bad(const std::string& file, const std::string& problem) {
  return CommandError(kBadInput, fmt::format("{}: {}; nothing was written", file, problem));
}

// Vectors of m weights along one axis: element (o, e, i) of a tensor seen as
// [outer][extent][inner] belongs to vector (o, e / m, i), as its weight e mod m.
struct Grouping {
  size_t outer = 1;
  size_t extent = 1;
  size_t inner = 1;
  size_t m = 1;

  Grouping(const std::vector<size_t>& shape, size_t axis, size_t length) : m(length) {
    for (size_t d = 0; d < shape.size(); ++d) {
      if (d < axis) outer *= shape[d];
      if (d > axis) inner *= shape[d];
    }
    extent = shape[axis];
  }
  [[nodiscard]] size_t vectors() const { return outer * (extent / m) * inner; }
  // Flat position in the tensor of weight j of vector v (vectors in C order of the
  // tensor's shape with the axis divided by m).
  [[nodiscard]] size_t position(size_t v, size_t j) const {
    const size_t i = v % inner;
    const size_t g = (v / inner) % (extent / m);
    const size_t o = v / inner / (extent / m);
    return (o * extent + g * m + j) * inner + i;
  }
};

size_t resolve_axis(int axis, size_t rank, const std::string& file) {
  const int r = static_cast<int>(rank);
  if (axis < -r || axis >= r) {
    throw bad(file, fmt::format("--axis {} does not exist: the array has rank {} (axes {} to {})",
                                axis, rank, -r, r - 1));
  }
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

WeightFormat parse_format(const std::string& text) {
  WeightFormat f;
  if (!WeightFormat::parse(text, f)) {
    throw CommandError(kBadInput, fmt::format("--format {}: expected int2 to int32, uint2 to "
                                              "uint32, fp16 or bf16; nothing was written",
                                              text));
  }
  return f;
}

// The format an integer .npy dtype holds by default: int8 -> int8, <u2 -> uint16, ...
WeightFormat format_of_dtype(const std::string& dtype) {
  const unsigned bits = std::min(32U, 8 * static_cast<unsigned>(std::stoul(dtype.substr(2))));
  return {dtype[1] == 'u' ? WeightKind::kUint : WeightKind::kInt, bits};
}

// The .npy type that stores a format's bit patterns, and the patterns as stored.
util::NpyType storage_type(WeightFormat f) {
  if (f.kind == WeightKind::kFp16) return util::NpyType::kFloat16;
  if (f.kind == WeightKind::kBf16) return util::NpyType::kUint16;
  const bool u = f.kind == WeightKind::kUint;
  if (f.width <= 8) return u ? util::NpyType::kUint8 : util::NpyType::kInt8;
  if (f.width <= 16) return u ? util::NpyType::kUint16 : util::NpyType::kInt16;
  return u ? util::NpyType::kUint32 : util::NpyType::kInt32;
}
int64_t stored_value(WeightFormat f, uint32_t bits) {
  if (f.is_float()) return bits;
  return static_cast<int64_t>(golden::decode_weight(f, bits));
}

std::string format_doc(WeightFormat f) {
  switch (f.kind) {
    case WeightKind::kFp16:
      return "float16";
    case WeightKind::kBf16:
      return "uint16 holding bfloat16 bit patterns (NumPy has no bfloat16)";
    default:
      return fmt::format("{} values", f.name());
  }
}

nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; }

struct EncodeOptions {
  std::string weights;
  unsigned vector_length = 0;
  unsigned rows = 0;
  std::string out;
  std::string format;
  int axis = -1;
  uint64_t seed = 1;
  unsigned iterations = 25;
};

void encode(const EncodeOptions& o) {
  using golden::VqParams;
  check_output_folder("--out", o.out, "stats.json");
  if (!golden::is_power_of_two(o.vector_length) || o.vector_length > VqParams::kMaxRowWeights) {
    throw CommandError(kBadInput,
                       fmt::format("--vector-length {}: m must be a power of two from 1 to {} (the "
                                   "longest codebook row); nothing was written",
                                   o.vector_length, VqParams::kMaxRowWeights));
  }
  if (!golden::is_power_of_two(o.rows) || o.rows < VqParams::kMinRows ||
      o.rows > VqParams::kMaxRows) {
    throw CommandError(kBadInput, fmt::format("--rows {}: N must be a power of two from {} to "
                                              "{} (an index has log2 N bits); nothing was "
                                              "written",
                                              o.rows, VqParams::kMinRows, VqParams::kMaxRows));
  }
  util::NpyArray a;
  try {
    a = util::read_npy(o.weights, /*allow_float=*/true);
  } catch (const util::NpyError& e) {
    throw bad(o.weights, e.what());
  }
  if (a.shape.empty()) throw bad(o.weights, "is a scalar; weights are an array of rank 1 or more");
  const size_t count = a.floating ? a.reals.size() : a.values.size();
  if (count == 0) throw bad(o.weights, "holds no weights");
  const size_t axis = resolve_axis(o.axis, a.shape.size(), o.weights);
  if (a.shape[axis] % o.vector_length != 0) {
    throw bad(o.weights,
              fmt::format("axis {} has {} weights, not divisible by the vector length {} "
                          "(vectors are {} consecutive weights along that axis; {} weights in all)",
                          axis, a.shape[axis], o.vector_length, o.vector_length, count));
  }
  std::vector<double> values(count);
  for (size_t i = 0; i < count; ++i) {
    values[i] = a.floating ? a.reals[i] : static_cast<double>(a.values[i]);
    if (!std::isfinite(values[i])) {
      throw bad(o.weights, fmt::format("element {} is {}; weights must be finite", i, values[i]));
    }
  }
  const WeightFormat format = !o.format.empty() ? parse_format(o.format)
                              : a.floating      ? WeightFormat{WeightKind::kFp16, 16}
                                                : format_of_dtype(a.dtype);

  const Grouping g(a.shape, axis, o.vector_length);
  const size_t m = o.vector_length;
  std::vector<double> vectors(count);
  for (size_t v = 0; v < g.vectors(); ++v) {
    for (size_t j = 0; j < m; ++j) vectors[v * m + j] = values[g.position(v, j)];
  }
  const auto start = std::chrono::steady_clock::now();
  const golden::VqCodebook cb =
      golden::vq_train(vectors, {o.vector_length, o.rows, format, o.seed, o.iterations});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::vector<double> rebuilt_vectors =
      golden::vq_reconstruct(cb.codebook, o.vector_length, format, cb.indices);
  const auto err = golden::quantization_error(vectors, rebuilt_vectors);
  const double index_bits = std::log2(static_cast<double>(o.rows));
  const double bits_indices = index_bits / static_cast<double>(m);
  const double bits_codebook = static_cast<double>(o.rows) * m * format.width / count;
  const unsigned scalar_bits = std::max(1U, static_cast<unsigned>(std::floor(bits_indices)));
  const auto scalar =
      golden::quantization_error(values, golden::scalar_quantize(values, scalar_bits));
  const auto int8 = golden::quantization_error(values, golden::scalar_quantize(values, 8));

  std::vector<size_t> index_shape = a.shape;
  index_shape[axis] /= m;
  std::vector<int64_t> indices(cb.indices.begin(), cb.indices.end());
  std::vector<int64_t> codebook(cb.codebook.size());
  for (size_t i = 0; i < codebook.size(); ++i) codebook[i] = stored_value(format, cb.codebook[i]);
  std::vector<size_t> used(o.rows, 0);
  for (uint32_t i : cb.indices) ++used[i];
  const size_t rows_used =
      static_cast<size_t>(std::count_if(used.begin(), used.end(), [](size_t u) { return u > 0; }));

  const nlohmann::json stats = {
      {"weights",
       {{"file", fs::path(o.weights).filename().string()},
        {"shape", a.shape},
        {"dtype", a.dtype},
        {"count", count}}},
      {"grouping",
       {{"axis", axis},
        {"vector_length", m},
        {"vectors", g.vectors()},
        {"definition",
         "vector (..., g, ...) of indices.npy holds the weights g*m .. g*m+m-1 along the axis, "
         "the other coordinates equal; indices.npy has the weights' shape with that axis divided "
         "by m"}}},
      {"codebook",
       {{"rows", o.rows},
        {"vector_length", m},
        {"format", format.name()},
        {"stored_as", format_doc(format)},
        {"rows_used", rows_used}}},
      {"training",
       {{"method",
         "k-means, k-means++ seeding, centroids rounded into the format, then every "
         "vector assigned to its nearest stored codeword"},
        {"seed", o.seed},
        {"iterations", cb.iterations},
        {"max_iterations", o.iterations},
        {"converged", cb.converged}}},
      {"bits_per_weight",
       {{"uncompressed", format.width},
        {"indices_only", bits_indices},
        {"with_codebook", bits_indices + bits_codebook},
        {"definition",
         "indices_only = log2(N) / m; with_codebook adds N x m x format bits spread "
         "over the weights; uncompressed = the format's width"}}},
      {"error",
       {{"mse", err.mse},
        {"sqnr_db", finite_or_null(err.sqnr_db)},
        {"definition",
         "mse = mean over weights of (w - decoded)^2; sqnr_db = 10 log10(sum w^2 / "
         "sum (w - decoded)^2)"}}},
      {"scalar_comparison",
       {{"same_bits",
         {{"bits", scalar_bits}, {"mse", scalar.mse}, {"sqnr_db", finite_or_null(scalar.sqnr_db)}}},
        {"int8", {{"bits", 8}, {"mse", int8.mse}, {"sqnr_db", finite_or_null(int8.sqnr_db)}}},
        {"definition",
         "plain scalar quantization of the same weights to signed integers of `bits` bits with "
         "one scale, the clipping range that minimises the error (searched on 100 steps); "
         "same_bits uses floor(indices_only) bits, at least 1"}}}};

  util::FileMap files;
  files["indices.npy"] = util::npy_bytes(
      o.rows <= 256 ? util::NpyType::kUint8 : util::NpyType::kUint16, index_shape, indices);
  files["codebook.npy"] = util::npy_bytes(storage_type(format), {o.rows, m}, codebook);
  files["stats.json"] = stats.dump(2) + "\n";
  try {
    util::write_tree_atomically(o.out, files, "stats.json", {});
  } catch (const util::OutputError& e) {
    throw CommandError(kBadInput, e.what());
  }
  std::printf(
      "%s: %zu weights as %zu vectors of %zu -> %u-row %s codebook: %.3f bits/weight (%.3f with "
      "the codebook), SQNR %.2f dB (scalar %u-bit: %.2f dB, int8: %.2f dB); %u k-means "
      "iteration(s) in %.2f s\n",
      o.out.c_str(), count, g.vectors(), m, o.rows, format.name().c_str(), bits_indices,
      bits_indices + bits_codebook, err.sqnr_db, scalar_bits, scalar.sqnr_db, int8.sqnr_db,
      cb.iterations, seconds);
}

struct DecodeOptions {
  std::string indices;
  std::string codebook;
  std::string out;
  std::string format;
  int axis = -1;
};

void decode(const DecodeOptions& o) {
  check_output_file("--out", o.out);
  util::NpyArray cb;
  util::NpyArray ix;
  try {
    cb = util::read_npy(o.codebook, /*allow_float=*/true);
  } catch (const util::NpyError& e) {
    throw bad(o.codebook, e.what());
  }
  try {
    ix = util::read_npy(o.indices);
  } catch (const util::NpyError& e) {
    throw bad(o.indices, e.what());
  }
  if (cb.shape.size() != 2) {
    throw bad(o.codebook, fmt::format("has rank {}; a codebook is [N][m] (rows, vector length)",
                                      cb.shape.size()));
  }
  const size_t rows = cb.shape[0];
  const size_t m = cb.shape[1];
  using golden::VqParams;
  if (!golden::is_power_of_two(rows) || rows < VqParams::kMinRows) {
    throw bad(o.codebook, fmt::format("has {} rows; N must be a power of two, at least {}", rows,
                                      VqParams::kMinRows));
  }
  if (!golden::is_power_of_two(m) || m > VqParams::kMaxRowWeights) {
    throw bad(o.codebook,
              fmt::format("has vectors of {} weights; m must be a power of two up to {}", m,
                          VqParams::kMaxRowWeights));
  }
  WeightFormat format;
  if (!o.format.empty()) {
    format = parse_format(o.format);
  } else if (cb.floating) {
    format = {WeightKind::kFp16, 16};
  } else {
    format = format_of_dtype(cb.dtype);
  }
  if (cb.floating != (format.kind == WeightKind::kFp16)) {
    throw bad(o.codebook, fmt::format("has dtype '{}', which does not hold {} weights (fp16 is "
                                      "float16; integers and bf16 bit patterns are integer arrays)",
                                      cb.dtype, format.name()));
  }
  if (cb.floating && cb.dtype.substr(1) != "f2") {
    throw bad(o.codebook, fmt::format("has dtype '{}'; an fp16 codebook is float16", cb.dtype));
  }
  std::vector<uint32_t> codebook(rows * m);
  for (size_t i = 0; i < codebook.size(); ++i) {
    if (cb.floating) {
      codebook[i] = golden::encode_weight(format, cb.reals[i]);
      continue;
    }
    const int64_t v = cb.values[i];
    const bool pattern = format.kind == WeightKind::kBf16;
    const double lo = pattern ? 0 : golden::format_min(format);
    const double hi = pattern ? 65535 : golden::format_max(format);
    if (static_cast<double>(v) < lo || static_cast<double>(v) > hi) {
      throw bad(o.codebook, fmt::format("element [{}][{}] = {} is outside the {} range {} to {}",
                                        i / m, i % m, v, format.name(), lo, hi));
    }
    codebook[i] =
        pattern ? static_cast<uint32_t>(v) : golden::encode_weight(format, static_cast<double>(v));
  }
  if (ix.shape.empty()) throw bad(o.indices, "is a scalar; indices are an array of rank 1 or more");
  for (size_t i = 0; i < ix.values.size(); ++i) {
    if (ix.values[i] < 0 || static_cast<uint64_t>(ix.values[i]) >= rows) {
      throw bad(o.indices, fmt::format("element {} = {} is beyond the codebook's {} rows (0 to {})",
                                       i, ix.values[i], rows, rows - 1));
    }
  }
  const size_t axis = resolve_axis(o.axis, ix.shape.size(), o.indices);
  // The weights' shape: the indices' with the axis m times longer (a .npy file of int64
  // at most must be able to hold it).
  std::vector<size_t> shape = ix.shape;
  if (__builtin_mul_overflow(shape[axis], m, &shape[axis]) || !util::npy_data_bytes(shape, 8)) {
    throw bad(o.indices, fmt::format("shape ({}) with vectors of {} weights along axis {} makes "
                                     "more weights than a .npy file can hold",
                                     fmt::join(ix.shape, ", "), m, axis));
  }
  const Grouping g(shape, axis, m);
  std::vector<int64_t> out(g.vectors() * m);
  for (size_t v = 0; v < g.vectors(); ++v) {
    const size_t row = static_cast<size_t>(ix.values[v]);
    for (size_t j = 0; j < m; ++j) {
      const uint32_t bits = codebook[row * m + j];
      int64_t value = 0;
      if (format.kind == WeightKind::kBf16) {
        value = std::bit_cast<uint32_t>(static_cast<float>(golden::decode_weight(format, bits)));
      } else {
        value = stored_value(format, bits);
      }
      out[g.position(v, j)] = value;
    }
  }
  const util::NpyType type = format.kind == WeightKind::kFp16   ? util::NpyType::kFloat16
                             : format.kind == WeightKind::kBf16 ? util::NpyType::kFloat32
                             : format.kind == WeightKind::kUint && format.width == 32
                                 ? util::NpyType::kInt64
                                 : util::NpyType::kInt32;
  try {
    util::write_file_atomically(o.out, util::npy_bytes(type, shape, out));
  } catch (const util::OutputError& e) {
    throw CommandError(kBadInput, e.what());
  }
  std::printf("%s: %zu weights (%s) from %zu indices into a %zu x %zu codebook\n", o.out.c_str(),
              out.size(), format.name().c_str(), ix.values.size(), rows, m);
}

}  // namespace

void add_vq_command(CLI::App& app) {
  auto* vq = app.add_subcommand(
      "vq",
      "Vector quantization of weights for the dequantizer: train a codebook "
      "(encode) and turn indices back into weights (decode).");
  vq->require_subcommand(1);

  static EncodeOptions e;
  auto* enc = vq->add_subcommand(
      "encode",
      "Learn a codebook of N vectors of m weights from W (k-means, k-means++ seeding, "
      "deterministic for a seed) and write indices.npy, codebook.npy and stats.json into DIR, "
      "atomically. Vectors are m consecutive weights along --axis.");
  enc->add_option("--weights", e.weights, "Weights: integer or float .npy of any rank")
      ->check(non_empty())
      ->required();
  enc->add_option("--vector-length", e.vector_length, "m: weights per vector, a power of two")
      ->check(positive_integer())
      ->required();
  enc->add_option("--rows", e.rows, "N: codebook rows, a power of two (index width log2 N)")
      ->check(positive_integer())
      ->required();
  enc->add_option("--out", e.out, "Output folder")->check(non_empty())->required();
  enc->add_option("--format", e.format,
                  "Codebook format: int2..int32, uint2..uint32, fp16, bf16 (default: the "
                  "integer dtype of W, or fp16 for float W)");
  enc->add_option("--axis", e.axis, "Axis the vectors run along (negative counts from the end)")
      ->check(decimal_integer())
      ->capture_default_str();
  enc->add_option("--seed", e.seed, "Seed of the k-means++ seeding")
      ->check(unsigned_integer())
      ->capture_default_str();
  enc->add_option("--iterations", e.iterations, "Most k-means iterations")
      ->check(positive_integer())
      ->check(CLI::Range(1U, 1000U))
      ->capture_default_str();
  enc->callback([] { encode(e); });

  static DecodeOptions d;
  auto* dec = vq->add_subcommand(
      "decode",
      "Turn indices and a codebook back into weights, written atomically to OUT (.npy: int32 "
      "for integer formats, int64 for uint32, float16 for fp16, float32 for bf16).");
  dec->add_option("--indices", d.indices, "indices.npy (integers)")->check(non_empty())->required();
  dec->add_option("--codebook", d.codebook, "codebook.npy, [N][m]")->check(non_empty())->required();
  dec->add_option("--out", d.out, "Output .npy file")->check(non_empty())->required();
  dec->add_option("--format", d.format,
                  "Codebook format (default: from its dtype; a bf16 codebook, stored as uint16, "
                  "needs --format bf16)");
  dec->add_option("--axis", d.axis, "Axis the vectors run along, as given to encode")
      ->check(decimal_integer())
      ->capture_default_str();
  dec->callback([] { decode(d); });
}

}  // namespace npugen::cli
