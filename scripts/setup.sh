#!/usr/bin/env bash
# Installs what npugen needs from Debian's packages, non-interactively; does nothing
# when everything is there. Run as root or with sudo available.
set -euo pipefail

packages=(
  cmake ninja-build g++ make               # build
  libyaml-cpp-dev libfmt-dev libcli11-dev   # generator libraries
  nlohmann-json3-dev libkainjow-mustache-dev libssl-dev
  catch2                                    # tests (Catch2 v2)
  verilator iverilog yosys z3               # co-simulation, cross-checks, exact optimum
  ccache                                    # the co-simulations' common objects, compiled once
  clang-14 libclang-rt-14-dev               # fuzz targets (libFuzzer, sanitizers)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
