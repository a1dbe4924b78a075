// Fuzz target: the configuration reader. Whatever the bytes, reading them ends in a valid
// configuration or in diagnostics (never a crash, a hang or an exception), every diagnostic
// names the file, at most kShownDiagnostics and a closing count are kept, and a valid
// configuration elaborates and hashes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "blocks/block.hpp"
#include "config/config.hpp"
#include "elab/design.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto result = npugen::blocks::load_config_text(text, "fuzz.yaml");
  if (result.config.has_value() == !result.diagnostics.empty()) std::abort();
  if (result.diagnostics.size() > npugen::config::kShownDiagnostics + 1) std::abort();
  for (const auto& d : result.diagnostics) {
    if (d.format().rfind("fuzz.yaml", 0) != 0) std::abort();
  }
  if (result.config) {
    const auto design = npugen::elab::elaborate(*result.config);
    if (design.config_hash.size() != 64) std::abort();
  }
  return 0;
}
