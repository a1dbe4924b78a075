// The C header of a register map (rtl_templates/regmap/regs.h.mustache): C89, numbers as
// unsigned literals, byte offsets.
#include <fmt/format.h>

#include "emit/register_map.hpp"
#include "emit/register_map_detail.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

using golden::regmap::Field;
using golden::regmap::Register;
using register_map_detail::hex;

constexpr size_t kCommentWidth = 90;

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// A comment as lines {first, last, text}: no comment delimiters and no trigraphs inside.
kainjow::mustache::list comment(const std::string& text) {
  std::string safe = replace_all(replace_all(text, "*/", "* /"), "/*", "/ *");
  safe = replace_all(safe, "??", "? ?");
  const auto lines = register_map_detail::wrap(safe, kCommentWidth);
  kainjow::mustache::list out;
  for (size_t i = 0; i < lines.size(); ++i) {
    TemplateData l;
    l.set("first", flag(i == 0));
    l.set("last", flag(i + 1 == lines.size()));
    l.set("text", lines[i]);
    out.push_back(l);
  }
  return out;
}

std::string u_hex(uint64_t v, int digits = 2) { return hex(v, digits) + "u"; }
std::string u_dec(uint64_t v) { return fmt::format("{}u", v); }

// `macro`: the register's part of the macro names (CTRL, QUEUE_HEAD); `title` as the
// comment names it (CTRL, QUEUE[i].HEAD).
TemplateData register_data(const Register& r, const std::string& macro, const std::string& title,
                           uint64_t offset, const golden::regmap::Group* group) {
  TemplateData d;
  d.set("macro", macro);
  d.set("doc", comment(r.doc.empty() ? title : fmt::format("{}: {}", title, r.doc)));
  d.set("in_group", flag(group != nullptr));
  d.set("offset", u_hex(offset));
  d.set("stride", group != nullptr ? u_hex(group->stride) : std::string());
  d.set("reset", u_hex(r.reset_value(), 8));
  kainjow::mustache::list fields;
  for (const Field& f : r.fields) {
    TemplateData fd;
    fd.set("macro", fmt::format("{}_{}", macro, f.name));
    std::string text =
        fmt::format("{}.{} [{}], {}, reset {}", title, f.name, register_map_detail::bit_range(f),
                    golden::regmap::access_name(f.access), hex(f.reset, 1));
    if (!f.doc.empty()) text += ": " + f.doc;
    fd.set("doc", comment(text));
    fd.set("lsb", u_dec(f.lsb));
    fd.set("width", u_dec(f.width));
    fd.set("mask", u_hex(f.mask(), 8));
    fields.push_back(fd);
  }
  d.set("fields", fields);
  return d;
}

}  // namespace

std::string register_map_c_header(const golden::regmap::RegisterMap& map,
                                  const RegisterMapNames& names) {
  register_map_detail::require_consistent(map);
  const std::string prefix = upper_case(fmt::format("{}_{}", names.design, map.block));
  TemplateData d;
  d.set("header", names.header);
  d.set("guard", prefix + "_REGS_H");
  d.set("prefix", prefix);
  std::string intro = map.title + ".";
  if (!map.doc.empty()) intro += " " + map.doc;
  intro += fmt::format(
      " 32-bit registers; offsets in bytes from the block's base. Per register _OFFSET and "
      "_RESET, per field _LSB, _WIDTH and _MASK (in place); register arrays have _COUNT, "
      "_STRIDE and _OFFSET(i) of instance i. The same map is documented in {}.",
      register_map_paths(map, names).markdown);
  d.set("intro", comment(intro));
  d.set("addr_bits", u_dec(map.addr_bits()));
  kainjow::mustache::list entries;
  for (const auto& e : register_map_detail::entries_by_offset(map)) {
    if (e.reg != nullptr) {
      entries.push_back(TemplateData(
          "register", register_data(*e.reg, e.reg->name, e.reg->name, e.offset, nullptr)));
      continue;
    }
    const auto& g = *e.group;
    TemplateData gd;
    gd.set("macro", g.name);
    const std::string title = fmt::format("{}[i], i = 0 to {}", g.name, int64_t{g.count} - 1);
    gd.set("doc", comment(g.doc.empty() ? title : fmt::format("{}: {}", title, g.doc)));
    gd.set("offset", u_hex(g.offset));
    gd.set("count", u_dec(g.count));
    gd.set("stride", u_hex(g.stride));
    entries.push_back(TemplateData("group", gd));
    for (const Register* r : register_map_detail::registers_by_offset(g)) {
      entries.push_back(
          TemplateData("register", register_data(*r, fmt::format("{}_{}", g.name, r->name),
                                                 fmt::format("{}[i].{}", g.name, r->name),
                                                 uint64_t{g.offset} + r->offset, &g)));
    }
  }
  d.set("entries", entries);
  return render("regmap/regs.h.mustache", d);
}

}  // namespace npugen::emit
