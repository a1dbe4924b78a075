// The register port every block with registers has: an AMBA APB (APB3) completer with no
// wait states. One transfer takes a setup phase (PSEL high, PENABLE low) and an access
// phase (PSEL and PENABLE high); the completer answers in the access phase: PREADY high
// (always: no wait states), PRDATA the register read (0 for writes and for addresses with
// no register), PSLVERR high when the address decodes to no register. A write takes
// effect at the clock edge that ends the access phase. Writes to read-only fields are
// ignored (not an error), as OpenTitan's register blocks do.
#pragma once

#include <cstdint>
#include <optional>

#include "npugen/golden/common/regmap.hpp"

namespace npugen::golden {

/// The requester's side of the port in one cycle (paddr holds the block's byte address:
/// RegisterMap::addr_bits() bits).
struct ApbRequest {
  bool psel = false;
  bool penable = false;
  bool pwrite = false;
  uint32_t paddr = 0;
  uint32_t pwdata = 0;

  /// The access phase of a transfer (the cycle the completer answers in).
  [[nodiscard]] bool access() const { return psel && penable; }
  [[nodiscard]] bool write() const { return access() && pwrite; }
  [[nodiscard]] bool read() const { return access() && !pwrite; }
  bool operator==(const ApbRequest&) const = default;
};

/// The completer's side in that cycle.
struct ApbResponse {
  uint32_t prdata = 0;
  bool pready = true;
  bool pslverr = false;
  bool operator==(const ApbResponse&) const = default;
};

/// The register an access-phase request addresses (none outside the access phase or for an
/// address with no register).
inline std::optional<regmap::RegisterAt> apb_target(const regmap::RegisterMap& map,
                                                    const ApbRequest& r) {
  if (!r.access()) return std::nullopt;
  return map.decode(r.paddr);
}

/// The response to `r`; `read(reg)` is the value of the register decoded (called only for
/// a read of a register that exists).
template <typename ReadRegister>
ApbResponse apb_response(const regmap::RegisterMap& map, const ApbRequest& r, ReadRegister&& read) {
  ApbResponse out;
  if (!r.access()) return out;
  const auto target = map.decode(r.paddr);
  out.pslverr = !target.has_value();
  if (target && !r.pwrite) out.prdata = read(*target);
  return out;
}

}  // namespace npugen::golden
