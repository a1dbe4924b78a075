// The SystemRDL 2.0 rendering of a register map (rtl_templates/regmap/registers.rdl.mustache):
// one addrmap, registers with explicit offsets, groups as regfile arrays.
#include <fmt/format.h>

#include "emit/register_map.hpp"
#include "emit/register_map_detail.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

using golden::regmap::Access;
using golden::regmap::Field;
using golden::regmap::Register;
using register_map_detail::hex;

// The inside of a string literal: one line, '"' and '\' escaped.
std::string literal(std::string_view text) {
  std::string out;
  for (const char c : register_map_detail::one_line(text)) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

void set_doc(TemplateData& d, const std::string& doc) {
  d.set("has_doc", flag(!register_map_detail::one_line(doc).empty()));
  d.set("doc", literal(doc));
}

// Hardware access: read only, unless hardware updates the field; then it writes it, and
// reads it too when software can change it.
std::string hw_access(const Field& f) {
  if (!f.hw_updates) return "r";
  return f.sw_writable() ? "rw" : "w";
}

TemplateData register_data(const Register& r, uint32_t offset, const std::string& indent) {
  TemplateData d;
  d.set("indent", indent);
  d.set("name", r.name);
  set_doc(d, r.doc);
  d.set("offset", hex(offset));
  kainjow::mustache::list fields;
  for (const Field& f : r.fields) {
    TemplateData fd;
    fd.set("name", f.name);
    set_doc(fd, f.doc);
    fd.set("sw", f.access == Access::kRO ? "r" : "rw");
    fd.set("woclr", flag(f.access == Access::kW1C));
    fd.set("hw", hw_access(f));
    fd.set("msb", dec(f.msb()));
    fd.set("lsb", dec(f.lsb));
    fd.set("reset", hex(f.reset, 1));
    fields.push_back(fd);
  }
  d.set("fields", fields);
  return d;
}

}  // namespace

std::string register_map_systemrdl(const golden::regmap::RegisterMap& map,
                                   const RegisterMapNames& names) {
  register_map_detail::require_consistent(map);
  TemplateData d;
  d.set("header", names.header);
  d.set("addrmap", fmt::format("{}_{}", names.design, map.block));
  d.set("title", literal(map.title));
  set_doc(d, map.doc);
  kainjow::mustache::list entries;
  for (const auto& e : register_map_detail::entries_by_offset(map)) {
    if (e.reg != nullptr) {
      entries.push_back(TemplateData("register", register_data(*e.reg, e.offset, "  ")));
      continue;
    }
    const auto& g = *e.group;
    TemplateData begin;
    begin.set("name", g.name);
    set_doc(begin, g.doc);
    entries.push_back(TemplateData("group_begin", begin));
    for (const Register* r : register_map_detail::registers_by_offset(g)) {
      entries.push_back(TemplateData("register", register_data(*r, r->offset, "    ")));
    }
    TemplateData end;
    end.set("name", g.name);
    end.set("count", dec(g.count));
    end.set("offset", hex(g.offset));
    end.set("stride", hex(g.stride));
    entries.push_back(TemplateData("group_end", end));
  }
  d.set("entries", entries);
  return render("regmap/registers.rdl.mustache", d);
}

}  // namespace npugen::emit
