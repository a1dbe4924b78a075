// Fuzz target: the network reader and compiler (npugen schedule --network). Whatever the
// bytes, compiling ends in a task list that fits the design's limits or in diagnostics
// naming the file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "blocks/block.hpp"
#include "blocks/tasks/tasks.hpp"
#include "config/config.hpp"
#include "sched/network.hpp"

namespace {

const npugen::config::Config& design() {
  static const npugen::config::Config config = [] {
    auto loaded = npugen::blocks::load_config_text(
        "pe_array: {tiles: 4, lanes: 8}\n"
        "tasks: {enabled: true, buffer_words: 65536, memory_words: 16384}\n",
        "fuzz_design.yaml");
    if (!loaded.config) std::abort();
    return *loaded.config;
  }();
  return config;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto result = npugen::sched::load_network_text(text, "fuzz.yaml", design());
  if (result.tasks.has_value() == !result.diagnostics.empty()) std::abort();
  for (const auto& d : result.diagnostics) {
    if (d.format().rfind("fuzz.yaml", 0) != 0) std::abort();
  }
  if (!result.tasks) return 0;
  const auto& params = npugen::blocks::tasks::config_of(design()).params;
  for (const auto& t : *result.tasks) {
    for (const auto& r : {t.in[0], t.in[1], t.out}) {
      if (!r.empty() && r.end() > params.buffer_words) std::abort();
    }
  }
  return 0;
}
