// Reads a YAML mapping against the schema written in code, collecting every error
// at once. Running the same reading code without a document (describe mode)
// produces the schema's documentation, so each key is defined in exactly one place.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "config/diagnostic.hpp"

namespace npugen::config {

/// One documented key of the schema.
struct SchemaEntry {
  std::string path;           ///< dotted key path
  std::string type;           ///< integer, boolean, number, identifier, mapping
  std::string default_value;  ///< "required" when there is none
  std::string constraint;     ///< range or allowed values
  std::string doc;
};

/// The documentation of the whole schema: keys and cross-field rules.
struct Schema {
  std::vector<SchemaEntry> entries;
  std::vector<std::string> rules;
};

/// Where a key sits in the file (1-based), for messages about it.
struct Location {
  int line = 0;
  int column = 0;
};

struct IntSpec {
  int64_t min;
  int64_t max;
  std::optional<int64_t> default_value;  ///< empty: the key is required
  const char* doc;
};

struct NumberSpec {
  double min;
  double max;
  std::optional<double> default_value;
  const char* doc;
};

class Reader;

/// A mapping of the document (possibly absent) and the keys read from it so far.
class Section {
 public:
  int64_t integer(const std::string& key, const IntSpec& spec);
  double number(const std::string& key, const NumberSpec& spec);
  bool boolean(const std::string& key, std::optional<bool> default_value, const char* doc);
  /// A C/Verilog identifier: letter, then letters, digits or underscores. `default_doc`,
  /// when given, is how the schema documents the default (for a default taken from
  /// another key).
  std::string identifier(const std::string& key, std::optional<std::string> default_value,
                         const char* doc, const char* default_doc = nullptr);
  /// A word from a set the caller recognises (`valid`), described by `constraint`
  /// (e.g. "ram or flops"). A value that is not valid is reported with the constraint.
  std::string choice(const std::string& key, const std::string& default_value,
                     const std::string& constraint, const char* doc,
                     const std::function<bool(const std::string&)>& valid);
  Section section(const std::string& key, const char* doc);
  /// A list of mappings, each read by the caller like a section. When the key is absent
  /// the list has default_count elements that read as all defaults (a list with no
  /// default elements and a min_count above 0 is required). In describe mode the
  /// list has one element whose keys document as key[].name.
  std::vector<Section> list(const std::string& key, const char* doc, int min_count, int max_count,
                            int default_count);

  /// Reads an integer key into `member`, whose value on entry is the default: the struct's
  /// own initializer is the one place a default is written.
  template <typename T>
  void integer(const std::string& key, T& member, int64_t min, int64_t max, const char* doc) {
    member = static_cast<T>(integer(key, IntSpec{min, max, static_cast<int64_t>(member), doc}));
  }
  /// A required integer key read into `member`.
  template <typename T>
  void required(const std::string& key, T& member, int64_t min, int64_t max, const char* doc) {
    member = static_cast<T>(integer(key, IntSpec{min, max, std::nullopt, doc}));
  }
  /// A boolean key read into `member` (its value on entry is the default).
  void boolean(const std::string& key, bool& member, const char* doc) {
    member = boolean(key, std::optional<bool>(member), doc);
  }

  /// A list of names (identifiers), each with where it sits; absent: empty.
  struct Name {
    std::string text;
    Location location;
  };
  std::vector<Name> names(const std::string& key, const char* doc, int min_count, int max_count);
  /// A key that no longer belongs here (not documented): given, it is reported with
  /// `message`, which says where it went.
  void retired(const std::string& key, const std::string& message);
  /// Replaces what a key resolved to by its canonical form, for keys whose meaning other
  /// keys change (a level switched off means lookahead 0), so that configurations that mean
  /// the same design resolve, and hash, the same.
  void canonical(const std::string& key, nlohmann::json value) { resolved(key, std::move(value)); }
  /// A key whose value the caller reads itself (a scalar, a list or a mapping of a form the
  /// typed readers do not cover: `3` or `[3, 3]`, a file name or a number). Documented as
  /// `type` with `constraint`; absent: nullptr. Report problems at location_of(key).
  const YAML::Node* value(const std::string& key, const char* type, const char* constraint,
                          const char* doc);
  /// Whether the mapping has the key (reading it is still up to the caller).
  [[nodiscard]] bool has(const std::string& key) const;

  /// Reports every key of the mapping that no reader asked for, with a suggestion.
  void finish();

  /// Location of a key's value (or of this section when the key is absent).
  [[nodiscard]] Location location_of(const std::string& key) const;
  /// Location of the key itself (or of this section when the key is absent).
  [[nodiscard]] Location key_location_of(const std::string& key) const;
  [[nodiscard]] std::string path_of(const std::string& key) const;

 private:
  friend class Reader;
  struct Item {
    std::string key;
    Location key_location;
    YAML::Node value;
  };
  Section(Reader& reader, std::string path, nlohmann::json::json_pointer pointer, Location location,
          std::optional<YAML::Node> node);

  [[nodiscard]] const Item* find(const std::string& key) const;
  // The readers behind the public ones, which record the value they return.
  int64_t integer_value(const std::string& key, const IntSpec& spec);
  double number_value(const std::string& key, const NumberSpec& spec);
  bool boolean_value(const std::string& key, std::optional<bool> default_value, const char* doc);
  std::string identifier_value(const std::string& key, std::optional<std::string> default_value,
                               const char* doc, const char* default_doc);
  std::string choice_value(const std::string& key, const std::string& default_value,
                           const std::string& constraint, const char* doc,
                           const std::function<bool(const std::string&)>& valid);
  std::vector<Name> names_value(const std::string& key, const char* doc, int min_count,
                                int max_count);
  void document(const std::string& key, const char* type, std::string default_value,
                std::string constraint, const char* doc);
  /// The key's item; nullptr when absent (an error when the key is required).
  const Item* lookup(const std::string& key, bool required, const std::string& expected);
  /// Common checks for a scalar value; false (with an error recorded) when unusable.
  bool scalar_ok(const Item& item, const char* expected);
  /// Records the value a key resolved to (given or default) in the reader's resolved
  /// document, and returns it.
  template <typename T>
  T resolved(const std::string& key, T value);

  Reader* reader_;
  std::string path_;
  nlohmann::json::json_pointer pointer_;  ///< where the section sits in the resolved document
  Location location_;
  std::vector<Item> items_;                        ///< in file order
  std::unordered_map<std::string, size_t> index_;  ///< key -> position in items_
  std::vector<std::string> known_;
};

class Reader {
 public:
  /// Reads a parsed document; errors go to diagnostics.
  Reader(std::string file, Diagnostics& diagnostics);
  /// Describe mode: no document, every read returns its default and documents itself.
  explicit Reader(Schema& schema);

  Section root(const YAML::Node& document);
  Section root();

  void error(Location where, const std::string& key_path, const std::string& message);
  /// An error about a key's value, which the reader refuses: the key stands at its default,
  /// and rules over it are not checked (their messages would speak of the default).
  void refuse(Location where, const std::string& key_path, const std::string& message);
  /// Documents a cross-field rule (describe mode).
  void rule(const std::string& text);
  /// Whether a rule over these keys is checked: a document is read (not described) and no
  /// key's value, nor a section or list holding it, nor an element of it, was refused.
  [[nodiscard]] bool checks(std::initializer_list<std::string_view> keys) const;

  [[nodiscard]] bool describing() const { return schema_ != nullptr; }
  /// Every key read so far, with the value it resolved to (defaults filled in): the
  /// resolved configuration, written by the same calls that read it.
  [[nodiscard]] const nlohmann::json& resolved() const { return resolved_; }

 private:
  friend class Section;
  std::string file_;
  Diagnostics* diagnostics_ = nullptr;
  Schema* schema_ = nullptr;
  nlohmann::json resolved_ = nlohmann::json::object();
  std::vector<std::string> refused_;  ///< key paths whose values were refused
};

template <typename T>
T Section::resolved(const std::string& key, T value) {
  if (!reader_->describing()) reader_->resolved_[pointer_ / key] = value;
  return value;
}

/// Where a node of the document starts (1-based; 0 when it has no mark).
Location location_of(const YAML::Node& node);
/// A value as messages quote it: nothing, a list, a mapping, 'text' or "quoted".
std::string describe_value(const YAML::Node& node);

/// Renders the schema as a Markdown table plus the list of rules.
std::string schema_markdown(const Schema& schema);

}  // namespace npugen::config
