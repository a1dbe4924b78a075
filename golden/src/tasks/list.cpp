#include "npugen/golden/tasks/list.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace npugen::golden {
namespace {

void put_group(std::vector<uint32_t>& w, unsigned address, const std::vector<uint32_t>& data) {
  w.push_back(address | (static_cast<uint32_t>(data.size()) << task_desc::kGroupCountShift));
  w.insert(w.end(), data.begin(), data.end());
}

uint32_t checked(uint64_t value, unsigned bits, size_t task, const char* what) {
  if (bits < 64 && value >> bits) {
    throw std::invalid_argument(
        fmt::format("task {}: {} {} does not fit {} bits", task, what, value, bits));
  }
  return static_cast<uint32_t>(value);
}

}  // namespace

DescriptorImage encode_task_list(const std::vector<Task>& tasks, const TaskParams& params,
                                 uint32_t first_id) {
  DescriptorImage image;
  const unsigned rb = params.region_bits();
  for (size_t i = 0; i < tasks.size(); ++i) {
    const Task& t = tasks[i];
    if (t.shape.size() > 16) throw std::invalid_argument(fmt::format("task {}: shape > 16", i));
    std::vector<uint32_t>& w = image.words;
    const size_t first = w.size();
    image.offsets.push_back(first);
    w.push_back((((first_id + static_cast<uint32_t>(i)) & 0xFFFF) << task_desc::kTaskIdShift) |
                (checked(t.network_id, 8, i, "network id") << task_desc::kNetworkIdShift) |
                (uint32_t{t.task_switch} << task_desc::kTaskSwitchBit) |
                (uint32_t{t.input_in_memory} << task_desc::kInMemoryBit) |
                (uint32_t{t.output_in_memory} << task_desc::kOutMemoryBit));
    w.push_back(0);  // total words, filled below
    w.push_back(0);  // input base pointer (system memory; the DMA's business)
    w.push_back(0);  // output base pointer
    put_group(
        w, task_desc::kRegOp,
        {static_cast<uint32_t>(t.op), checked(t.in[0].base, rb, i, "input 0 base"),
         checked(t.in[0].words, rb, i, "input 0 words"),
         checked(t.in[1].base, rb, i, "input 1 base"),
         checked(t.in[1].words, rb, i, "input 1 words"), checked(t.out.base, rb, i, "output base"),
         checked(t.out.words, rb, i, "output words")});
    put_group(w, task_desc::kRegCycles, {checked(t.cycles, params.cycle_bits, i, "cycles")});
    if (!t.shape.empty()) put_group(w, task_desc::kRegShape, t.shape);
    const size_t total = w.size() - first;
    if (total > task_desc::kMaxWords) throw std::invalid_argument("descriptor too long");
    w[first + 1] = static_cast<uint32_t>(total);
  }
  return image;
}

std::vector<Task> decode_task_list(const std::vector<uint32_t>& words) {
  std::vector<Task> tasks;
  size_t at = 0;
  while (at < words.size()) {
    if (at + task_desc::kHeaderWords > words.size()) {
      throw std::invalid_argument(fmt::format("word {}: truncated descriptor header", at));
    }
    const uint32_t h0 = words[at];
    const size_t total = words[at + 1] & 0xFFFF;
    if (total < task_desc::kHeaderWords || at + total > words.size()) {
      throw std::invalid_argument(
          fmt::format("word {}: descriptor length {} is invalid", at + 1, total));
    }
    Task t;
    t.name = fmt::format("T{}", tasks.size());
    t.network_id = (h0 >> task_desc::kNetworkIdShift) & 0xFF;
    t.task_switch = (h0 >> task_desc::kTaskSwitchBit) & 1U;
    t.input_in_memory = (h0 >> task_desc::kInMemoryBit) & 1U;
    t.output_in_memory = (h0 >> task_desc::kOutMemoryBit) & 1U;
    size_t k = at + task_desc::kHeaderWords;
    const size_t stop = at + total;
    while (k < stop) {
      const unsigned address = words[k] & 0xFFFF;
      const unsigned count = (words[k] >> task_desc::kGroupCountShift) & 0xFF;
      if (k + 1 + count > stop) {
        throw std::invalid_argument(fmt::format("word {}: group runs past the descriptor", k));
      }
      for (unsigned j = 0; j < count; ++j) {
        const uint32_t v = words[k + 1 + j];
        const unsigned reg = address + j;
        switch (reg) {
          case task_desc::kRegOp:
            if (v >= kTaskOps) throw std::invalid_argument(fmt::format("word {}: bad op", k + 1));
            t.op = static_cast<TaskOp>(v);
            break;
          case task_desc::kRegIn0Base:
            t.in[0].base = v;
            break;
          case task_desc::kRegIn0Words:
            t.in[0].words = v;
            break;
          case task_desc::kRegIn1Base:
            t.in[1].base = v;
            break;
          case task_desc::kRegIn1Words:
            t.in[1].words = v;
            break;
          case task_desc::kRegOutBase:
            t.out.base = v;
            break;
          case task_desc::kRegOutWords:
            t.out.words = v;
            break;
          case task_desc::kRegCycles:
            t.cycles = v;
            break;
          default:
            if (reg >= task_desc::kRegShape && reg < task_desc::kRegShape + 16) {
              t.shape.push_back(v);
            }
        }
      }
      k += 1 + count;
    }
    tasks.push_back(std::move(t));
    at = stop;
  }
  return tasks;
}

std::string image_bytes(const std::vector<uint32_t>& words) {
  std::string out;
  out.reserve(words.size() * 4);
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((w >> (8 * b)) & 0xFF));
  }
  return out;
}

std::vector<uint32_t> image_words(const std::string& bytes) {
  if (bytes.size() % 4 != 0) {
    throw std::invalid_argument(
        fmt::format("{} bytes is not a whole number of 32-bit words", bytes.size()));
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i) {
    uint32_t w = 0;
    for (int b = 0; b < 4; ++b) {
      w |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[4 * i + b])) << (8 * b);
    }
    words[i] = w;
  }
  return words;
}

}  // namespace npugen::golden
