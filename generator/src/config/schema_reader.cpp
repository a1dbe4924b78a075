#include "config/schema_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "util/text.hpp"

namespace npugen::config {
namespace {

Location location_from(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

std::string show_scalar(const YAML::Node& node) {
  if (node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  const std::string text = util::shorten(node.Scalar());
  if (node.Tag() == "!") return fmt::format("the quoted string \"{}\"", text);
  return fmt::format("'{}'", text);
}

std::string format_number(double v) { return fmt::format("{:g}", v); }

// A C/Verilog identifier of at most 63 characters: a letter, then letters, digits, _.
bool is_identifier(const std::string& text) {
  if (text.empty() || text.size() > 63 || !std::isalpha(static_cast<unsigned char>(text[0]))) {
    return false;
  }
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

// ---------------------------------------------------------------------------- Reader

Reader::Reader(std::string file, Diagnostics& diagnostics)
    : file_(std::move(file)), diagnostics_(&diagnostics) {}

Reader::Reader(Schema& schema) : schema_(&schema) {}

Section Reader::root(const YAML::Node& document) {
  if (document.IsNull() || !document.IsDefined()) {
    return Section(*this, "", nlohmann::json::json_pointer(), Location{1, 1}, std::nullopt);
  }
  if (!document.IsMap()) {
    refuse(
        location_from(document.Mark()), "",
        fmt::format("the top level must be a mapping of sections, got {}", show_scalar(document)));
    return Section(*this, "", nlohmann::json::json_pointer(), Location{1, 1}, std::nullopt);
  }
  return Section(*this, "", nlohmann::json::json_pointer(), Location{1, 1}, document);
}

Section Reader::root() {
  return Section(*this, "", nlohmann::json::json_pointer(), Location{}, std::nullopt);
}

void Reader::error(Location where, const std::string& key_path, const std::string& message) {
  if (diagnostics_ == nullptr) return;
  report(*diagnostics_, Diagnostic{file_, where.line, where.column, key_path, message});
}

void Reader::refuse(Location where, const std::string& key_path, const std::string& message) {
  refused_.push_back(key_path);
  error(where, key_path, message);
}

void Reader::rule(const std::string& text) {
  if (schema_ != nullptr) schema_->rules.push_back(text);
}

bool Reader::checks(std::initializer_list<std::string_view> keys) const {
  if (describing()) return false;
  // One path holds the other: equal, or followed by a key (.) or an element ([).
  auto holds = [](std::string_view outer, std::string_view inner) {
    return outer.empty() || (inner.substr(0, outer.size()) == outer &&
                             (inner.size() == outer.size() || inner[outer.size()] == '.' ||
                              inner[outer.size()] == '['));
  };
  return std::none_of(keys.begin(), keys.end(), [&](std::string_view key) {
    return std::any_of(refused_.begin(), refused_.end(),
                       [&](const std::string& r) { return holds(r, key) || holds(key, r); });
  });
}

// --------------------------------------------------------------------------- Section

Section::Section(Reader& reader, std::string path, nlohmann::json::json_pointer pointer,
                 Location location, std::optional<YAML::Node> node)
    : reader_(&reader), path_(std::move(path)), pointer_(std::move(pointer)), location_(location) {
  if (!node) return;
  for (auto it = node->begin(); it != node->end(); ++it) {
    Item item{it->first.Scalar(), location_from(it->first.Mark()), it->second};
    if (!it->first.IsScalar()) {
      reader.error(item.key_location, path_, "keys must be plain names");
      continue;
    }
    if (const Item* first = find(item.key)) {
      reader.error(item.key_location, path_of(util::shorten(item.key)),
                   fmt::format("duplicate key (first given at line {})", first->key_location.line));
      continue;
    }
    index_.emplace(item.key, items_.size());
    items_.push_back(std::move(item));
  }
}

const Section::Item* Section::find(const std::string& key) const {
  const auto it = index_.find(key);
  return it == index_.end() ? nullptr : &items_[it->second];
}

std::string Section::path_of(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

Location Section::location_of(const std::string& key) const {
  const Item* item = find(key);
  if (item == nullptr) return location_;
  const Location value = location_from(item->value.Mark());
  return value.line > 0 ? value : item->key_location;
}

Location Section::key_location_of(const std::string& key) const {
  const Item* item = find(key);
  return item == nullptr ? location_ : item->key_location;
}

void Section::document(const std::string& key, const char* type, std::string default_value,
                       std::string constraint, const char* doc) {
  known_.push_back(key);
  if (reader_->schema_ != nullptr) {
    reader_->schema_->entries.push_back(
        SchemaEntry{path_of(key), type, std::move(default_value), std::move(constraint), doc});
  }
}

const Section::Item* Section::lookup(const std::string& key, bool required,
                                     const std::string& expected) {
  const Item* item = find(key);
  if (item == nullptr && required && !reader_->describing()) {
    reader_->refuse(location_, path_of(key), fmt::format("required key is missing ({})", expected));
  }
  return item;
}

bool Section::scalar_ok(const Item& item, const char* expected) {
  if (item.value.IsScalar() && item.value.Tag() != "!") return true;
  reader_->refuse(location_of(item.key), path_of(item.key),
                  fmt::format("expected {}, got {}", expected, show_scalar(item.value)));
  return false;
}

int64_t Section::integer_value(const std::string& key, const IntSpec& spec) {
  const std::string range = fmt::format("{} to {}", spec.min, spec.max);
  document(key, "integer", spec.default_value ? std::to_string(*spec.default_value) : "required",
           range, spec.doc);
  const int64_t fallback = spec.default_value.value_or(spec.min);
  const std::string expected = fmt::format("an integer from {}", range);
  const Item* item = lookup(key, !spec.default_value, expected);
  if (item == nullptr) return fallback;
  if (!scalar_ok(*item, expected.c_str())) return fallback;
  int64_t value = 0;
  if (!YAML::convert<int64_t>::decode(item->value, value)) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("expected {}, got {}", expected, show_scalar(item->value)));
    return fallback;
  }
  if (value < spec.min || value > spec.max) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("{} is out of range: expected {}", value, expected));
    return fallback;
  }
  return value;
}

double Section::number_value(const std::string& key, const NumberSpec& spec) {
  const std::string range =
      fmt::format("{} to {}", format_number(spec.min), format_number(spec.max));
  document(key, "number", spec.default_value ? format_number(*spec.default_value) : "required",
           range, spec.doc);
  const double fallback = spec.default_value.value_or(spec.min);
  const std::string expected = fmt::format("a number from {}", range);
  const Item* item = lookup(key, !spec.default_value, expected);
  if (item == nullptr) return fallback;
  if (!scalar_ok(*item, expected.c_str())) return fallback;
  double value = 0;
  if (!YAML::convert<double>::decode(item->value, value) || !std::isfinite(value)) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("expected {}, got {}", expected, show_scalar(item->value)));
    return fallback;
  }
  if (value < spec.min || value > spec.max) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("{} is out of range: expected {}", format_number(value), expected));
    return fallback;
  }
  return value;
}

bool Section::boolean_value(const std::string& key, std::optional<bool> default_value,
                            const char* doc) {
  document(key, "boolean", default_value ? (*default_value ? "true" : "false") : "required",
           "true or false", doc);
  const bool fallback = default_value.value_or(false);
  const Item* item = lookup(key, !default_value, "true or false");
  if (item == nullptr) return fallback;
  if (!scalar_ok(*item, "true or false")) return fallback;
  const std::string& text = item->value.Scalar();
  if (text == "true") return true;
  if (text == "false") return false;
  reader_->refuse(location_of(key), path_of(key),
                  fmt::format("expected true or false, got {}", show_scalar(item->value)));
  return fallback;
}

std::string Section::identifier_value(const std::string& key,
                                      std::optional<std::string> default_value, const char* doc,
                                      const char* default_doc) {
  const char* constraint = "letter, then letters, digits, _ (at most 63)";
  document(key, "identifier",
           default_doc != nullptr ? std::string(default_doc) : default_value.value_or("required"),
           constraint, doc);
  std::string fallback = default_value.value_or("x");
  const Item* item = lookup(key, !default_value, "an identifier");
  if (item == nullptr) return fallback;
  // Quoted identifiers are fine: they are strings either way.
  if (!item->value.IsScalar()) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("expected an identifier, got {}", show_scalar(item->value)));
    return fallback;
  }
  const std::string& text = item->value.Scalar();
  if (!is_identifier(text)) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("'{}' is not a valid identifier: expected {}", util::shorten(text),
                                constraint));
    return fallback;
  }
  return text;
}

std::string Section::choice_value(const std::string& key, const std::string& default_value,
                                  const std::string& constraint, const char* doc,
                                  const std::function<bool(const std::string&)>& valid) {
  document(key, "word", default_value, constraint, doc);
  const Item* item = lookup(key, false, constraint);
  if (item == nullptr) return default_value;
  if (!item->value.IsScalar()) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("expected {}, got {}", constraint, show_scalar(item->value)));
    return default_value;
  }
  const std::string& text = item->value.Scalar();
  if (!valid(text)) {
    reader_->refuse(
        location_of(key), path_of(key),
        fmt::format("'{}' is not allowed: expected {}", util::shorten(text), constraint));
    return default_value;
  }
  return text;
}

// The public readers record what each key resolved to (see resolved()).
int64_t Section::integer(const std::string& key, const IntSpec& spec) {
  return resolved(key, integer_value(key, spec));
}
double Section::number(const std::string& key, const NumberSpec& spec) {
  return resolved(key, number_value(key, spec));
}
bool Section::boolean(const std::string& key, std::optional<bool> default_value, const char* doc) {
  return resolved(key, boolean_value(key, default_value, doc));
}
std::string Section::identifier(const std::string& key, std::optional<std::string> default_value,
                                const char* doc, const char* default_doc) {
  return resolved(key, identifier_value(key, std::move(default_value), doc, default_doc));
}
std::string Section::choice(const std::string& key, const std::string& default_value,
                            const std::string& constraint, const char* doc,
                            const std::function<bool(const std::string&)>& valid) {
  return resolved(key, choice_value(key, default_value, constraint, doc, valid));
}

Section Section::section(const std::string& key, const char* doc) {
  document(key, "mapping", "", "", doc);
  const Item* item = find(key);
  if (item == nullptr || item->value.IsNull()) {
    return Section(*reader_, path_of(key), pointer_ / key, item ? item->key_location : location_,
                   std::nullopt);
  }
  if (!item->value.IsMap()) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("expected a mapping of keys, got {}", show_scalar(item->value)));
    return Section(*reader_, path_of(key), pointer_ / key, item->key_location, std::nullopt);
  }
  return Section(*reader_, path_of(key), pointer_ / key, item->key_location, item->value);
}

std::vector<Section> Section::list(const std::string& key, const char* doc, int min_count,
                                   int max_count, int default_count) {
  document(key, "list", fmt::format("{} element(s)", default_count),
           fmt::format("{} to {} mappings", min_count, max_count), doc);
  std::vector<Section> out;
  if (reader_->describing()) {
    out.push_back(
        Section(*reader_, path_of(key) + "[]", pointer_ / key / 0, location_, std::nullopt));
    return out;
  }
  const Item* item = lookup(key, min_count > 0 && default_count == 0,
                            fmt::format("a list of {} to {} mappings", min_count, max_count));
  auto defaults = [&](Location where) {
    for (int i = 0; i < default_count; ++i) {
      out.push_back(Section(*reader_, fmt::format("{}[{}]", path_of(key), i),
                            pointer_ / key / static_cast<size_t>(i), where, std::nullopt));
    }
    return out;
  };
  if (item == nullptr || item->value.IsNull()) return defaults(location_);
  if (!item->value.IsSequence()) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("expected a list of mappings, got {}", show_scalar(item->value)));
    return defaults(item->key_location);
  }
  const int count = static_cast<int>(item->value.size());
  if (count < min_count || count > max_count) {
    reader_->refuse(
        location_of(key), path_of(key),
        fmt::format("{} element(s) given: expected {} to {}", count, min_count, max_count));
    return defaults(item->key_location);
  }
  for (int i = 0; i < count; ++i) {
    const YAML::Node element = item->value[i];
    const std::string path = fmt::format("{}[{}]", path_of(key), i);
    const auto pointer = pointer_ / key / static_cast<size_t>(i);
    const Location where = location_from(element.Mark());
    if (element.IsNull()) {
      out.push_back(Section(*reader_, path, pointer, where, std::nullopt));
    } else if (!element.IsMap()) {
      reader_->refuse(where, path,
                      fmt::format("expected a mapping of keys, got {}", show_scalar(element)));
      out.push_back(Section(*reader_, path, pointer, where, std::nullopt));
    } else {
      out.push_back(Section(*reader_, path, pointer, where, element));
    }
  }
  return out;
}

bool Section::has(const std::string& key) const { return find(key) != nullptr; }

const YAML::Node* Section::value(const std::string& key, const char* type, const char* constraint,
                                 const char* doc) {
  document(key, type, "none", constraint, doc);
  const Item* item = find(key);
  return item == nullptr ? nullptr : &item->value;
}

Location location_of(const YAML::Node& node) { return location_from(node.Mark()); }

std::string describe_value(const YAML::Node& node) { return show_scalar(node); }

void Section::retired(const std::string& key, const std::string& message) {
  known_.push_back(key);
  if (find(key) != nullptr) reader_->error(key_location_of(key), path_of(key), message);
}

std::vector<Section::Name> Section::names(const std::string& key, const char* doc, int min_count,
                                          int max_count) {
  std::vector<Name> out = names_value(key, doc, min_count, max_count);
  std::vector<std::string> texts;
  for (const auto& n : out) texts.push_back(n.text);
  resolved(key, texts);
  return out;
}

std::vector<Section::Name> Section::names_value(const std::string& key, const char* doc,
                                                int min_count, int max_count) {
  document(key, "list", "[]", fmt::format("{} to {} identifiers", min_count, max_count), doc);
  std::vector<Name> out;
  const Item* item = find(key);
  if (item == nullptr || item->value.IsNull()) return out;
  if (!item->value.IsSequence()) {
    reader_->refuse(location_of(key), path_of(key),
                    fmt::format("expected a list of names, got {}", show_scalar(item->value)));
    return out;
  }
  const int count = static_cast<int>(item->value.size());
  if (count < min_count || count > max_count) {
    reader_->refuse(
        location_of(key), path_of(key),
        fmt::format("{} name(s) given: expected {} to {}", count, min_count, max_count));
    return out;
  }
  for (int i = 0; i < count; ++i) {
    const YAML::Node element = item->value[i];
    const Location where = location_from(element.Mark());
    if (!element.IsScalar() || !is_identifier(element.Scalar())) {
      reader_->refuse(where, fmt::format("{}[{}]", path_of(key), i),
                      fmt::format("expected a name (letter, then letters, digits, _), got {}",
                                  show_scalar(element)));
      continue;
    }
    out.push_back(Name{element.Scalar(), where});
  }
  return out;
}

void Section::finish() {
  for (const auto& item : items_) {
    if (std::find(known_.begin(), known_.end(), item.key) != known_.end()) continue;
    std::string message = "unknown key";
    const std::string suggestion = did_you_mean(item.key, known_);
    if (!suggestion.empty()) {
      message += fmt::format("; did you mean '{}'?", suggestion);
    } else {
      std::string list;
      for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
      message += fmt::format(" (known keys here: {})", list);
    }
    reader_->error(item.key_location, path_of(util::shorten(item.key)), message);
  }
}

// --------------------------------------------------------------------- documentation

std::string schema_markdown(const Schema& schema) {
  std::string out =
      "| key | type | default | allowed | meaning |\n"
      "| --- | --- | --- | --- | --- |\n";
  for (const auto& e : schema.entries) {
    if (e.type == "mapping" || e.type == "list") {
      if (e.type == "list") {
        out += fmt::format("| **`{}`** | list | {} | {} | {} |\n", e.path, e.default_value,
                           e.constraint, e.doc);
      } else {
        out += fmt::format("| **`{}`** | section | | | {} |\n", e.path, e.doc);
      }
    } else {
      out +=
          fmt::format("| `{}` | {} | {} | {} | {} |\n", e.path, e.type,
                      e.default_value == "required" ? "**required**" : "`" + e.default_value + "`",
                      e.constraint, e.doc);
    }
  }
  if (!schema.rules.empty()) {
    out +=
        "\nRules across keys. Each belongs to the section of the first key it names (\"With "
        "the sequencer\" and \"With the NPU\": to sequencer and npu). A section with an "
        "`enabled` key (absent: false) is checked key by key whether it is enabled or not (each "
        "key's type, range and allowed values, a power of two where one is asked); its rules "
        "apply only when it is enabled. The rules of sections without one always apply. A rule "
        "is not checked over a key whose value is refused (that key's own message says "
        "why):\n\n";
    for (const auto& r : schema.rules) out += fmt::format("- {}\n", r);
  }
  return out;
}

}  // namespace npugen::config
