// The Markdown rendering of a register map (rtl_templates/regmap/registers.md.mustache).
#include <fmt/format.h>

#include "emit/register_map.hpp"
#include "emit/register_map_detail.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

using golden::regmap::Field;
using golden::regmap::Register;
using register_map_detail::hex;
using register_map_detail::one_line;

// Text in a table cell: one line, '|' escaped.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : one_line(text)) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

TemplateData field_data(const Field& f) {
  TemplateData d;
  d.set("bits", register_map_detail::bit_range(f));
  d.set("name", f.name);
  d.set("access", std::string(golden::regmap::access_name(f.access)));
  d.set("reset", hex(f.reset, 1));
  d.set("hw", f.hw_updates ? "yes" : "no");
  d.set("doc", cell(f.doc));
  return d;
}

// A register's row in the overview and its section; `offset` as the reader computes it.
void add_register(const Register& r, const std::string& title, const std::string& offset,
                  kainjow::mustache::list& rows, kainjow::mustache::list& sections) {
  TemplateData row;
  row.set("offset", offset);
  row.set("name", title);
  row.set("reset", hex(r.reset_value(), 8));
  row.set("doc", cell(r.doc));
  rows.push_back(row);
  TemplateData s;
  s.set("title", title);
  s.set("offset", offset);
  s.set("reset", hex(r.reset_value(), 8));
  s.set("has_doc", flag(!one_line(r.doc).empty()));
  s.set("doc", one_line(r.doc));
  kainjow::mustache::list fields;
  for (const Field& f : r.fields) fields.push_back(field_data(f));
  s.set("fields", fields);
  sections.push_back(s);
}

}  // namespace

std::string register_map_markdown(const golden::regmap::RegisterMap& map,
                                  const RegisterMapNames& names) {
  register_map_detail::require_consistent(map);
  const RegisterMapPaths paths = register_map_paths(map, names);
  TemplateData d;
  d.set("header", names.header);
  d.set("title", one_line(map.title));
  d.set("has_doc", flag(!one_line(map.doc).empty()));
  d.set("doc", one_line(map.doc));
  d.set("addr_bits", dec(map.addr_bits()));
  d.set("c_header", paths.c_header);
  d.set("systemrdl", paths.systemrdl);
  d.set("json", paths.json);
  kainjow::mustache::list rows;
  kainjow::mustache::list groups;
  kainjow::mustache::list sections;
  for (const auto& e : register_map_detail::entries_by_offset(map)) {
    if (e.reg != nullptr) {
      add_register(*e.reg, e.reg->name, hex(e.reg->offset), rows, sections);
      continue;
    }
    const auto& g = *e.group;
    TemplateData gd;
    gd.set("name", g.name);
    gd.set("count", dec(g.count));
    gd.set("last", dec(int64_t{g.count} - 1));
    gd.set("offset", hex(g.offset));
    gd.set("stride", hex(g.stride));
    gd.set("doc", cell(g.doc));
    groups.push_back(gd);
    for (const Register* r : register_map_detail::registers_by_offset(g)) {
      add_register(*r, fmt::format("{}[i].{}", g.name, r->name),
                   fmt::format("{} + i x {}", hex(uint64_t{g.offset} + r->offset), hex(g.stride)),
                   rows, sections);
    }
  }
  d.set("rows", rows);
  d.set("has_groups", flag(!groups.empty()));
  d.set("groups", groups);
  d.set("sections", sections);
  return render("regmap/registers.md.mustache", d);
}

}  // namespace npugen::emit
