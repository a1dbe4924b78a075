// A verilated block's apb_* ports: driving a request, comparing the response with the
// golden model's.
#pragma once

#include "common/cosim.hpp"
#include "npugen/golden/common/apb.hpp"

namespace npugen::tb {

/// Drives a request on the apb_* ports.
template <typename Dut>
void drive_apb(Dut& dut, const golden::ApbRequest& r) {
  dut.apb_psel_i = r.psel;
  dut.apb_penable_i = r.penable;
  dut.apb_pwrite_i = r.pwrite;
  dut.apb_paddr_i = r.paddr;
  dut.apb_pwdata_i = r.pwdata;
}

/// Compares the apb_* outputs with the golden response.
template <typename Dut>
void compare_apb(const Dut& dut, const golden::ApbResponse& want, Checker& check) {
  check.compare("apb_pready_o", want.pready, dut.apb_pready_o);
  check.compare("apb_pslverr_o", want.pslverr, dut.apb_pslverr_o);
  check.compare("apb_prdata_o", want.prdata, dut.apb_prdata_o);
}

}  // namespace npugen::tb
