#!/usr/bin/env bash
# The whole test suite: set up, build, and run every test under CTest on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset default
cmake --build --preset default
ctest --preset default
