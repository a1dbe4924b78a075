#!/usr/bin/env bash
# The whole test suite: set up, build, and run every test under CTest on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# ccache (scripts/setup.sh installs it) keeps the objects of unchanged sources between runs.
# CCACHE_BASEDIR makes the paths under the checkout relative in what ccache hashes, so a
# clone in another folder (CI's clean clones) hits the same objects; it also reaches the
# verilated models' builds, which Verilator runs through ccache when it finds it.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD
fi
cmake --preset default "${launcher[@]}"
cmake --build --preset default
ctest --preset default
