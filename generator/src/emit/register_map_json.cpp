// The JSON rendering of a register map: the model as it is, with what follows from it
// (masks, reset values, every register instance at its address), for tests and users.
#include "emit/register_map.hpp"
#include "emit/register_map_detail.hpp"

namespace npugen::emit {
namespace {

using golden::regmap::Field;
using golden::regmap::Register;

nlohmann::ordered_json field_json(const Field& f) {
  return {{"name", f.name},
          {"lsb", f.lsb},
          {"msb", f.msb()},
          {"width", f.width},
          {"access", std::string(golden::regmap::access_name(f.access))},
          {"reset", f.reset},
          {"hw_updates", f.hw_updates},
          {"mask", f.mask()},
          {"doc", f.doc}};
}

nlohmann::ordered_json register_json(const Register& r) {
  nlohmann::ordered_json fields = nlohmann::ordered_json::array();
  for (const Field& f : r.fields) fields.push_back(field_json(f));
  return {{"name", r.name},
          {"offset", r.offset},
          {"doc", r.doc},
          {"reset", r.reset_value()},
          {"used_mask", r.used_mask()},
          {"writable_mask", r.writable_mask()},
          {"fields", fields}};
}

}  // namespace

nlohmann::ordered_json register_map_json(const golden::regmap::RegisterMap& map,
                                         const RegisterMapNames& names) {
  register_map_detail::require_consistent(map);
  nlohmann::ordered_json registers = nlohmann::ordered_json::array();
  for (const Register& r : map.registers) registers.push_back(register_json(r));
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const auto& g : map.groups) {
    nlohmann::ordered_json regs = nlohmann::ordered_json::array();
    for (const Register& r : g.registers) regs.push_back(register_json(r));
    groups.push_back({{"name", g.name},
                      {"offset", g.offset},
                      {"count", g.count},
                      {"stride", g.stride},
                      {"span", g.span()},
                      {"doc", g.doc},
                      {"registers", regs}});
  }
  nlohmann::ordered_json addresses = nlohmann::ordered_json::array();
  for (const auto& at : map.instances()) {
    nlohmann::ordered_json a = {
        {"path", at.path()}, {"offset", at.offset}, {"register", at.reg->name}};
    if (at.group != nullptr) {
      a["group"] = at.group->name;
      a["instance"] = at.instance;
    }
    addresses.push_back(a);
  }
  return {{"generated_by", names.header},
          {"design", names.design},
          {"block", map.block},
          {"title", map.title},
          {"doc", map.doc},
          {"register_bytes", golden::regmap::kRegisterBytes},
          {"addr_bits", map.addr_bits()},
          {"registers", registers},
          {"groups", groups},
          {"addresses", addresses}};
}

}  // namespace npugen::emit
