// The SystemVerilog constants of a register map: data for a block's package template
// (localparam lines), and a package holding them alone
// (rtl_templates/regmap/reg_pkg.sv.mustache).
#include <fmt/format.h>

#include "emit/register_map.hpp"
#include "emit/register_map_detail.hpp"
#include "emit/templates.hpp"

namespace npugen::emit {
namespace {

using golden::regmap::camel_case;
using golden::regmap::Field;
using golden::regmap::Register;

SvConstant int_constant(std::string name, uint64_t value, std::string doc) {
  return {std::move(name), "int", fmt::format("{}", value), std::move(doc)};
}

// `stem`: the register's CamelCase (Ctrl, QueueHead); `title` as docs name it.
void add_register(std::vector<SvConstant>& out, const Register& r, const std::string& stem,
                  const std::string& title, bool in_group) {
  out.push_back(int_constant(stem + "Offset", r.offset,
                             in_group ? fmt::format("byte offset of {} inside an instance", title)
                                      : fmt::format("byte offset of {}", title)));
  out.push_back({stem + "Reset", "logic [31:0]", fmt::format("32'h{:08x}", r.reset_value()),
                 fmt::format("reset value of {}", title)});
  for (const Field& f : r.fields) {
    const std::string name = stem + camel_case(f.name);
    out.push_back(int_constant(name + "Lsb", f.lsb,
                               fmt::format("{}.{}: lowest bit ({})", title, f.name,
                                           golden::regmap::access_name(f.access))));
    out.push_back(
        int_constant(name + "Width", f.width, fmt::format("{}.{}: width in bits", title, f.name)));
  }
}

}  // namespace

std::vector<SvConstant> register_map_sv_constants(const golden::regmap::RegisterMap& map) {
  register_map_detail::require_consistent(map);
  std::vector<SvConstant> out;
  out.push_back(int_constant("RegAddrBits", map.addr_bits(),
                             "bits of a byte address that reach every register"));
  for (const auto& e : register_map_detail::entries_by_offset(map)) {
    if (e.reg != nullptr) {
      add_register(out, *e.reg, camel_case(e.reg->name), e.reg->name, false);
      continue;
    }
    const auto& g = *e.group;
    const std::string stem = camel_case(g.name);
    out.push_back(
        int_constant(stem + "Offset", g.offset, fmt::format("byte offset of {}[0]", g.name)));
    out.push_back(int_constant(stem + "Count", g.count, fmt::format("instances of {}", g.name)));
    out.push_back(int_constant(stem + "Stride", g.stride,
                               fmt::format("bytes from {}[i] to {}[i+1]", g.name, g.name)));
    for (const Register* r : register_map_detail::registers_by_offset(g)) {
      add_register(out, *r, stem + camel_case(r->name), fmt::format("{}[i].{}", g.name, r->name),
                   true);
    }
  }
  return out;
}

kainjow::mustache::data sv_constants_data(const std::vector<SvConstant>& constants) {
  kainjow::mustache::list out;
  for (const SvConstant& c : constants) {
    TemplateData d;
    d.set("name", c.name);
    d.set("type", c.sv_type);
    d.set("value", c.value_text);
    d.set("doc", register_map_detail::one_line(c.doc));
    out.push_back(d);
  }
  return out;
}

std::string register_map_sv_package(const golden::regmap::RegisterMap& map,
                                    const RegisterMapNames& names) {
  TemplateData d;
  d.set("header", names.header);
  d.set("title", register_map_detail::one_line(map.title));
  d.set("package", fmt::format("{}_{}_reg_pkg", names.module_prefix, map.block));
  d.set("constants", sv_constants_data(register_map_sv_constants(map)));
  return render("regmap/reg_pkg.sv.mustache", d);
}

}  // namespace npugen::emit
