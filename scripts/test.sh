#!/usr/bin/env bash
# The whole test suite: set up, build, and run every test under CTest on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# ccache (scripts/setup.sh installs it) keeps the objects of unchanged sources between runs.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake --preset default "${launcher[@]}"
cmake --build --preset default
ctest --preset default
