#!/usr/bin/env bash
# The main job on one configuration (default: configs/default.yaml): set up, build
# npugen, generate the design, co-simulate it against the golden model, summarise.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-configs/default.yaml}

scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target npugen
npugen=build/generator/npugen

"$npugen" check "$config"
"$npugen" generate "$config"
"$npugen" sim "$config"
