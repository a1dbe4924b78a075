// The SystemVerilog constants of a register map, for a block's package, and a package
// holding them alone.
#include <fmt/format.h>

#include "emit/register_map.hpp"
#include "emit/register_map_detail.hpp"
#include "emit/sv_package.hpp"
#include "emit/templates.hpp"
#include "version.hpp"

namespace npugen::emit {
namespace {

using golden::regmap::camel_case;
using golden::regmap::Field;
using golden::regmap::Register;

using elab::SvConstant;

SvConstant int_constant(std::string name, uint64_t value, std::string doc) {
  return SvConstant::integer(std::move(name), static_cast<int64_t>(value),
                             register_map_detail::one_line(doc));
}

// `stem`: the register's CamelCase (Ctrl, QueueHead); `title` as docs name it.
void add_register(elab::SvConstants& out, const Register& r, const std::string& stem,
                  const std::string& title, bool in_group) {
  out.push_back(int_constant(stem + "Offset", r.offset,
                             in_group ? fmt::format("byte offset of {} inside an instance", title)
                                      : fmt::format("byte offset of {}", title)));
  out.push_back({stem + "Reset", "logic [31:0]", fmt::format("32'h{:08x}", r.reset_value()),
                 fmt::format("reset value of {}", title)});
  out.push_back({stem + "Mask", "logic [31:0]", fmt::format("32'h{:08x}", r.used_mask()),
                 fmt::format("bits of {} that fields hold", title)});
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

elab::SvConstants register_map_sv_constants(const golden::regmap::RegisterMap& map) {
  register_map_detail::require_consistent(map);
  elab::SvConstants out;
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

std::string register_map_sv_package(const golden::regmap::RegisterMap& map,
                                    const RegisterMapNames& names) {
  TemplateData d;
  d.set("name", names.design);
  d.set("version", std::string(kVersion));
  d.set("config_file", "a register map");
  d.set("short_hash", "");
  return package_text(d, fmt::format("{}_{}_pkg", names.module_prefix, map.block),
                      register_map_detail::one_line(map.title), register_map_sv_constants(map));
}

}  // namespace npugen::emit
