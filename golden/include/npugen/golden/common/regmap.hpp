// One register-map model for every block that has software-visible registers (in the
// spirit of OpenTitan's reggen: one data model, several renderers). A block builds its
// RegisterMap once from its parameters; the generator renders it (Markdown, C header,
// SystemRDL, JSON, SystemVerilog constants: generator/src/emit/register_map.hpp) and the
// golden model and the testbench take offsets, reset values and write masks from it.
//
// Registers are 32 bits wide; offsets are in bytes from the block's base.
//
// Plain registers and register arrays. A map holds two lists: `registers`, the plain
// registers at fixed offsets, and `groups`, register arrays in the sense of a SystemRDL
// regfile array: `count` instances of the same registers, instance i at
// `offset + i x stride`, each register at its own offset inside the instance. The two are
// kept apart rather than making a plain register a group of one with an empty name,
// because they are named differently everywhere a map is rendered (CTRL_OFFSET against
// QUEUE_HEAD_OFFSET(i), `reg` against `regfile`), so every renderer would test for that
// special group, and a nameless group of several instances would be representable and
// meaningless. Code that wants every register instance at its address, whichever list it
// comes from, uses instances() or decode().
//
// Nothing here checks a map while it is built: problems() lists every inconsistency at
// once, and the generator treats a non-empty list as an internal error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npugen::golden::regmap {

/// Bytes of one register.
inline constexpr uint32_t kRegisterBytes = 4;
/// Register instances a map may hold (problems() says so beyond it).
inline constexpr uint64_t kMaxInstances = uint64_t{1} << 16;

/// Software access of a field.
enum class Access : uint8_t {
  kRW,   ///< read and write
  kRO,   ///< read only; writes are ignored
  kW1C,  ///< read; writing 1 to a bit clears it, writing 0 leaves it
};

/// "rw", "ro", "w1c".
std::string_view access_name(Access access);

struct Field {
  std::string name;  ///< UPPER_SNAKE, unique in its register
  unsigned lsb = 0;
  unsigned width = 1;
  Access access = Access::kRW;
  uint32_t reset = 0;       ///< value after reset, right-aligned (bit 0 of it is bit lsb)
  bool hw_updates = false;  ///< hardware changes the value (a status flag, a counter)
  std::string doc;

  [[nodiscard]] unsigned msb() const { return lsb + width - 1; }
  /// The field's bits in place in the register (0x000000f0 for [7:4]); the bits inside
  /// the register when the field reaches beyond bit 31.
  [[nodiscard]] uint32_t mask() const;
  /// Whether software can change it (rw or w1c).
  [[nodiscard]] bool sw_writable() const { return access != Access::kRO; }
};

struct Register {
  std::string name;     ///< UPPER_SNAKE, unique among its siblings
  uint32_t offset = 0;  ///< bytes, from the base of the map (plain) or of the group instance
  std::string doc;
  std::vector<Field> fields;

  /// Value after reset: every field's reset in place; bits of no field are 0.
  [[nodiscard]] uint32_t reset_value() const;
  /// Bits some field holds; the others read as 0 and ignore writes.
  [[nodiscard]] uint32_t used_mask() const;
  /// Bits software can write: those of rw and w1c fields.
  [[nodiscard]] uint32_t writable_mask() const;
  /// Bits of w1c fields.
  [[nodiscard]] uint32_t w1c_mask() const;
  /// The value after software writes `wdata` to a register holding `value`: rw bits take
  /// wdata, w1c bits are cleared where wdata is 1, the rest is kept (hardware updates in
  /// the same cycle are the block's business).
  [[nodiscard]] uint32_t after_write(uint32_t value, uint32_t wdata) const;
  /// The field of that name, or nullptr.
  [[nodiscard]] const Field* field(std::string_view name) const;
};

/// A register array (a SystemRDL regfile array): `count` instances of `registers`, instance
/// i at byte offset `offset + i x stride`.
struct Group {
  std::string name;  ///< UPPER_SNAKE, unique among the map's registers and groups
  uint32_t offset = 0;
  unsigned count = 1;
  uint32_t stride = 0;  ///< bytes between instances, at least span()
  std::string doc;
  std::vector<Register> registers;  ///< offsets relative to the instance

  /// Bytes one instance covers: from its base to the end of its last register.
  [[nodiscard]] uint32_t span() const;
  /// Byte offset of instance i (not checked against count).
  [[nodiscard]] uint64_t instance_offset(unsigned i) const {
    return uint64_t{offset} + uint64_t{i} * stride;
  }
  /// The register of that name, or nullptr.
  [[nodiscard]] const Register* reg(std::string_view name) const;
};

/// One register at its address: a plain register, or a register of one group instance.
struct RegisterAt {
  const Register* reg = nullptr;
  const Group* group = nullptr;  ///< nullptr for a plain register
  unsigned instance = 0;         ///< 0 for a plain register
  uint32_t offset = 0;           ///< absolute byte offset

  /// "CTRL", or "QUEUE[2].HEAD".
  [[nodiscard]] std::string path() const;
};

struct RegisterMap {
  std::string block;  ///< the block's name, lower_snake ("vq", "tasks"): used in file and
                      ///< macro names
  std::string title;  ///< a heading: "Registers of the dequantizer"
  std::string doc;    ///< a paragraph introducing the map (may be empty)
  std::vector<Register> registers;
  std::vector<Group> groups;

  /// Bits of a byte address that reach every register (at least 2: one register).
  [[nodiscard]] unsigned addr_bits() const;
  /// Bytes from offset 0 to the end of the last register.
  [[nodiscard]] uint64_t end() const;
  /// Every register instance at its address, by increasing offset (plain registers and
  /// group instances interleaved as they fall). Pointers into this map. Instances beyond
  /// the 32-bit address space, or beyond kMaxInstances, are left out (problems() names
  /// them).
  [[nodiscard]] std::vector<RegisterAt> instances() const;
  /// The register whose byte offset is exactly `offset`, or none (an address with no
  /// register: a decode error, reads as 0). Offsets inside a register, not multiples of 4,
  /// decode to none: a bus that ignores the low address bits clears them first.
  [[nodiscard]] std::optional<RegisterAt> decode(uint32_t offset) const;
  /// The plain register or the group of that name, or nullptr.
  [[nodiscard]] const Register* reg(std::string_view name) const;
  [[nodiscard]] const Group* group(std::string_view name) const;
  /// Every inconsistency, each a sentence naming the register and field: names (empty,
  /// not UPPER_SNAKE, duplicate, or equal once flattened into macro names), fields
  /// (width 0, beyond bit 31, overlapping, reset wider than the field), registers without
  /// fields, offsets not multiples of 4 or beyond 32 bits, registers overlapping (every
  /// instance of every group included), groups without registers or instances, strides
  /// smaller than the span. Empty when the map is consistent.
  [[nodiscard]] std::vector<std::string> problems() const;
};

/// Whether `name` is UPPER_SNAKE: a capital letter, then capitals and digits, words
/// joined by single underscores.
bool is_upper_snake(std::string_view name);
/// CamelCase of an UPPER_SNAKE name, as SystemVerilog constants are named: VLEN_LOG2 ->
/// VlenLog2.
std::string camel_case(std::string_view upper_snake);

}  // namespace npugen::golden::regmap
