#include "npugen/golden/common/regmap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace npugen::golden::regmap {
namespace {

constexpr uint64_t kAddressSpace = uint64_t{1} << 32;

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// lower_snake, as a block's name is written: a letter, then lower-case words and digits.
bool is_lower_snake(std::string_view name) {
  if (name.empty() || !is_lower(name.front()) || name.back() == '_') return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '_') {
      if (name[i - 1] == '_') return false;
    } else if (!is_lower(c) && !is_digit(c)) {
      return false;
    }
  }
  return true;
}

std::string hex(uint64_t v) { return fmt::format("0x{:02x}", v); }

std::string bits(const Field& f) {
  return fmt::format("[{}:{}]", uint64_t{f.lsb} + f.width - (f.width > 0 ? 1 : 0), f.lsb);
}

// A name as messages show it.
std::string quoted(const std::string& name) { return name.empty() ? "(empty)" : name; }

void check_name(std::vector<std::string>& out, const std::string& what, const std::string& name) {
  if (name.empty()) {
    out.push_back(fmt::format("{} has an empty name", what));
  } else if (!is_upper_snake(name)) {
    out.push_back(
        fmt::format("{}: name {} is not UPPER_SNAKE (capitals, digits, single "
                    "underscores, starting with a capital)",
                    what, name));
  }
}

void check_duplicates(std::vector<std::string>& out, const std::string& where,
                      const std::vector<std::pair<std::string, std::string>>& named) {
  std::map<std::string, std::string> seen;
  for (const auto& [name, what] : named) {
    if (name.empty()) continue;
    const auto [it, fresh] = seen.emplace(name, what);
    if (!fresh) {
      out.push_back(fmt::format("{}: {} and {} share the name {}", where, it->second, what, name));
    }
  }
}

// `what` is "register CTRL" or "register QUEUE.HEAD".
void check_register(std::vector<std::string>& out, const Register& r, const std::string& what) {
  check_name(out, what, r.name);
  if (r.offset % kRegisterBytes != 0) {
    out.push_back(fmt::format("{}: offset {} is not a multiple of 4", what, hex(r.offset)));
  }
  if (uint64_t{r.offset} + kRegisterBytes > kAddressSpace) {
    out.push_back(
        fmt::format("{}: offset {} is beyond the 32-bit address space", what, hex(r.offset)));
  }
  if (r.fields.empty()) out.push_back(fmt::format("{} has no fields", what));
  std::vector<std::pair<std::string, std::string>> names;
  for (const Field& f : r.fields) {
    const std::string fw = fmt::format("{} field {}", what, quoted(f.name));
    check_name(out, fw, f.name);
    names.emplace_back(f.name, fmt::format("field {}", bits(f)));
    if (f.width == 0) {
      out.push_back(fmt::format("{}: width 0", fw));
      continue;
    }
    if (uint64_t{f.lsb} + f.width > 32) {
      out.push_back(fmt::format("{} {} reaches beyond bit 31", fw, bits(f)));
      continue;
    }
    if (f.width < 32 && (f.reset >> f.width) != 0) {
      out.push_back(fmt::format("{}: reset value {} does not fit in its {} bit(s)", fw,
                                hex(f.reset), f.width));
    }
  }
  check_duplicates(out, what, names);
  for (size_t i = 0; i < r.fields.size(); ++i) {
    for (size_t j = i + 1; j < r.fields.size(); ++j) {
      const Field& a = r.fields[i];
      const Field& b = r.fields[j];
      if (a.width == 0 || b.width == 0) continue;
      const uint64_t a_end = uint64_t{a.lsb} + a.width;
      const uint64_t b_end = uint64_t{b.lsb} + b.width;
      if (a.lsb < b_end && b.lsb < a_end) {
        out.push_back(fmt::format("{}: field {} {} overlaps field {} {}", what, quoted(a.name),
                                  bits(a), quoted(b.name), bits(b)));
      }
    }
  }
}

// The identifiers renderers derive from names (C macros join them with '_', SystemVerilog
// constants are their CamelCase) must be unique: REG_FIELD of one register must not be the
// name of another register, GROUP_REG not that of a plain register, and so on.
void check_flat_names(std::vector<std::string>& out, const RegisterMap& m) {
  struct Flat {
    std::string name;
    std::string what;
    bool joined;
  };
  std::vector<Flat> flat;
  auto add_register = [&](const Register& r, const std::string& prefix, bool joined) {
    const std::string name = prefix + r.name;
    const std::string path = prefix.empty() ? r.name : fmt::format("{}.{}", prefix, r.name);
    flat.push_back({name, "register " + path, joined});
    for (const Field& f : r.fields) {
      flat.push_back(
          {fmt::format("{}_{}", name, f.name), fmt::format("field {}.{}", path, f.name), true});
    }
  };
  for (const Register& r : m.registers) add_register(r, "", false);
  for (const Group& g : m.groups) {
    flat.push_back({g.name, "group " + g.name, false});
    for (const Register& r : g.registers) {
      const std::string name = fmt::format("{}_{}", g.name, r.name);
      flat.push_back({name, fmt::format("register {}.{}", g.name, r.name), true});
      for (const Field& f : r.fields) {
        flat.push_back({fmt::format("{}_{}", name, f.name),
                        fmt::format("field {}.{}.{}", g.name, r.name, f.name), true});
      }
    }
  }
  std::map<std::string, size_t> seen;
  std::set<std::pair<std::string, std::string>> reported;
  for (size_t i = 0; i < flat.size(); ++i) {
    const Flat& e = flat[i];
    if (e.name.empty() || !is_upper_snake(e.name)) continue;
    const auto [it, fresh] = seen.emplace(camel_case(e.name), i);
    if (fresh) continue;
    const Flat& first = flat[it->second];
    // Duplicates in one scope are reported as such.
    if (first.what == e.what || (!first.joined && !e.joined && first.name == e.name)) continue;
    if (!reported.emplace(first.what, e.what).second) continue;
    if (first.name == e.name) {
      out.push_back(
          fmt::format("{} and {} both make the macro name {}", first.what, e.what, e.name));
    } else {
      out.push_back(fmt::format("{} ({}) and {} ({}) both make the SystemVerilog name {}",
                                first.what, first.name, e.what, e.name, it->first));
    }
  }
}

// Register instances overlapping: sorted by offset, each compared with the ones before it
// that reach it. One message per pair of registers (the first instances that meet).
void check_overlaps(std::vector<std::string>& out, const RegisterMap& m) {
  std::vector<RegisterAt> all = m.instances();
  std::set<std::pair<const Register*, const Register*>> reported;
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = i; j-- > 0;) {
      if (uint64_t{all[j].offset} + kRegisterBytes <= all[i].offset) break;
      if (!reported.emplace(all[j].reg, all[i].reg).second) continue;
      out.push_back(fmt::format("register {} at {} overlaps register {} at {}", all[j].path(),
                                hex(all[j].offset), all[i].path(), hex(all[i].offset)));
    }
  }
}

// The group's instances must all lie in the 32-bit address space.
void check_fits(std::vector<std::string>& out, const Group& g) {
  if (g.count == 0 || g.registers.empty()) return;
  const uint64_t last = g.instance_offset(g.count - 1) + g.span();
  if (last > kAddressSpace) {
    out.push_back(fmt::format("group {}: instance {} ends at {}, beyond the 32-bit address space",
                              quoted(g.name), g.count - 1, hex(last)));
  }
}

}  // namespace

std::string_view access_name(Access access) {
  switch (access) {
    case Access::kRW:
      return "rw";
    case Access::kRO:
      return "ro";
    case Access::kW1C:
      return "w1c";
  }
  return "?";
}

bool is_upper_snake(std::string_view name) {
  if (name.empty() || !is_upper(name.front()) || name.back() == '_') return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '_') {
      if (name[i - 1] == '_') return false;
    } else if (!is_upper(c) && !is_digit(c)) {
      return false;
    }
  }
  return true;
}

std::string camel_case(std::string_view upper_snake) {
  std::string out;
  bool word_start = true;
  for (const char c : upper_snake) {
    if (c == '_') {
      word_start = true;
      continue;
    }
    out += word_start || !is_upper(c) ? c : static_cast<char>(c - 'A' + 'a');
    word_start = false;
  }
  return out;
}

uint32_t Field::mask() const {
  if (width == 0 || lsb >= 32) return 0;
  const uint64_t ones = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  return static_cast<uint32_t>(ones << lsb);
}

uint32_t Register::reset_value() const {
  uint32_t v = 0;
  for (const Field& f : fields) {
    if (f.lsb < 32) v |= (f.reset << f.lsb) & f.mask();
  }
  return v;
}

uint32_t Register::used_mask() const {
  uint32_t m = 0;
  for (const Field& f : fields) m |= f.mask();
  return m;
}

uint32_t Register::writable_mask() const {
  uint32_t m = 0;
  for (const Field& f : fields) {
    if (f.sw_writable()) m |= f.mask();
  }
  return m;
}

uint32_t Register::w1c_mask() const {
  uint32_t m = 0;
  for (const Field& f : fields) {
    if (f.access == Access::kW1C) m |= f.mask();
  }
  return m;
}

uint32_t Register::after_write(uint32_t value, uint32_t wdata) const {
  const uint32_t rw = writable_mask() & ~w1c_mask();
  return (value & ~rw & ~(w1c_mask() & wdata)) | (wdata & rw);
}

const Field* Register::field(std::string_view name) const {
  for (const Field& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

uint32_t Group::span() const {
  uint64_t end = 0;
  for (const Register& r : registers) end = std::max(end, uint64_t{r.offset} + kRegisterBytes);
  return static_cast<uint32_t>(std::min(end, kAddressSpace - 1));
}

const Register* Group::reg(std::string_view name) const {
  for (const Register& r : registers) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

std::string RegisterAt::path() const {
  if (group == nullptr) return reg->name;
  return fmt::format("{}[{}].{}", group->name, instance, reg->name);
}

uint64_t RegisterMap::end() const {
  uint64_t e = 0;
  for (const Register& r : registers) e = std::max(e, uint64_t{r.offset} + kRegisterBytes);
  for (const Group& g : groups) {
    if (g.count > 0 && !g.registers.empty()) {
      e = std::max(e, g.instance_offset(g.count - 1) + g.span());
    }
  }
  return e;
}

unsigned RegisterMap::addr_bits() const {
  const uint64_t e = end();
  unsigned k = 2;
  while (k < 64 && (uint64_t{1} << k) < e) ++k;
  return k;
}

std::vector<RegisterAt> RegisterMap::instances() const {
  std::vector<RegisterAt> all;
  for (const Register& r : registers) all.push_back({&r, nullptr, 0, r.offset});
  uint64_t total = registers.size();
  for (const Group& g : groups) {
    total += uint64_t{g.count} * g.registers.size();
    if (total > kMaxInstances) break;
    for (unsigned i = 0; i < g.count; ++i) {
      for (const Register& r : g.registers) {
        const uint64_t at = g.instance_offset(i) + r.offset;
        if (at < kAddressSpace) all.push_back({&r, &g, i, static_cast<uint32_t>(at)});
      }
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const RegisterAt& a, const RegisterAt& b) { return a.offset < b.offset; });
  return all;
}

std::optional<RegisterAt> RegisterMap::decode(uint32_t offset) const {
  for (const Register& r : registers) {
    if (r.offset == offset) return RegisterAt{&r, nullptr, 0, offset};
  }
  for (const Group& g : groups) {
    if (offset < g.offset || g.stride == 0) continue;
    const uint64_t rel = offset - g.offset;
    const uint64_t i = rel / g.stride;
    if (i >= g.count) continue;
    for (const Register& r : g.registers) {
      if (r.offset == rel % g.stride) {
        return RegisterAt{&r, &g, static_cast<unsigned>(i), offset};
      }
    }
  }
  return std::nullopt;
}

const Register* RegisterMap::reg(std::string_view name) const {
  for (const Register& r : registers) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

const Group* RegisterMap::group(std::string_view name) const {
  for (const Group& g : groups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::vector<std::string> RegisterMap::problems() const {
  std::vector<std::string> out;
  if (!is_lower_snake(block)) {
    out.push_back(
        fmt::format("the block name {} is not lower_snake (a small letter, then small "
                    "letters, digits, single underscores)",
                    quoted(block)));
  }
  if (registers.empty() && groups.empty()) out.push_back("the map has no registers");

  std::vector<std::pair<std::string, std::string>> top_names;
  for (const Register& r : registers) {
    const std::string what = "register " + quoted(r.name);
    check_register(out, r, what);
    top_names.emplace_back(r.name, what);
  }
  uint64_t total = registers.size();
  for (const Group& g : groups) {
    const std::string what = "group " + quoted(g.name);
    check_name(out, what, g.name);
    top_names.emplace_back(g.name, what);
    if (g.offset % kRegisterBytes != 0) {
      out.push_back(fmt::format("{}: offset {} is not a multiple of 4", what, hex(g.offset)));
    }
    if (g.stride % kRegisterBytes != 0) {
      out.push_back(fmt::format("{}: stride {} is not a multiple of 4", what, hex(g.stride)));
    }
    if (g.count == 0) out.push_back(fmt::format("{} has no instances (count 0)", what));
    if (g.registers.empty()) out.push_back(fmt::format("{} has no registers", what));
    std::vector<std::pair<std::string, std::string>> names;
    for (const Register& r : g.registers) {
      const std::string rw = fmt::format("register {}.{}", quoted(g.name), quoted(r.name));
      check_register(out, r, rw);
      names.emplace_back(r.name, rw);
    }
    check_duplicates(out, what, names);
    if (!g.registers.empty() && g.stride < g.span()) {
      out.push_back(fmt::format("{}: stride {} is smaller than the {} bytes its registers span",
                                what, hex(g.stride), hex(g.span())));
    }
    check_fits(out, g);
    total += uint64_t{g.count} * g.registers.size();
  }
  check_duplicates(out, "the map", top_names);
  check_flat_names(out, *this);
  if (total > kMaxInstances) {
    out.push_back(fmt::format("the map has {} register instances, more than the {} it may hold",
                              total, kMaxInstances));
  } else {
    check_overlaps(out, *this);
  }
  return out;
}

}  // namespace npugen::golden::regmap
