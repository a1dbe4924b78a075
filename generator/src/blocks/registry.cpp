#include <algorithm>

#include "blocks/block.hpp"

namespace npugen::blocks {

const Block* find(std::string_view name) {
  for (const Block* b : all()) {
    if (b->name() == name) return b;
  }
  return nullptr;
}

const config::Parts& parts() {
  static const config::Parts kParts(all().begin(), all().end());
  return kParts;
}

config::LoadResult load_config(const std::filesystem::path& file) {
  return config::load_config(file, parts());
}

config::LoadResult load_config_text(const std::string& text, const std::string& display_name) {
  return config::load_config_text(text, display_name, parts());
}

config::Schema describe_schema() { return config::describe_schema(parts()); }

std::vector<const Block*> generated(const config::Config& config) {
  std::vector<const Block*> on;
  for (const Block* b : all()) {
    if (b->enabled(config)) on.push_back(b);
  }
  std::vector<const Block*> out;
  for (const Block* b : on) {
    const bool replaced = std::any_of(
        on.begin(), on.end(), [&](const Block* other) { return other->replaces(config) == b->name(); });
    if (!replaced) out.push_back(b);
  }
  return out;
}

}  // namespace npugen::blocks
