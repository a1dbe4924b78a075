#!/usr/bin/env bash
# The main job (default: configs/default.yaml, the NPU top): set up, build npugen, generate
# the design, co-simulate the NPU on a random network against the golden model, then run the
# digits CNN (networks/digits, 360 held-back images of scikit-learn's 8 x 8 digits) on the
# verilated top: every layer bit-exact against the golden model and the plain reference
# interpreter, the accuracy, cycles per image, MAC utilisation per layer and images/s.
#   scripts/run.sh [CONFIG]   (configs/npu_zs.yaml: also the pruned digits CNN, zero-skipped
#                              and dense)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-configs/default.yaml}

scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target npugen
npugen=build/generator/npugen

"$npugen" check "$config"
"$npugen" generate "$config"
"$npugen" sim "$config" --block npu
digits=networks/digits
"$npugen" run "$config" --network "$digits/digits.yaml" --input "$digits/test_images.npy" \
  --labels "$digits/test_labels.npy"
# A design with the zero-skipping array (configs/npu_zs.yaml) also runs the pruned digits
# CNN, its sparse layers zero-skipped, then all dense (--no-zero-skip) for comparison.
if grep -Eq '^\s*dataflows:.*zero_skip' "$config"; then
  for flag in "" --no-zero-skip; do
    "$npugen" run "$config" --network "$digits/digits_pruned.yaml" \
      --input "$digits/test_images.npy" --labels "$digits/test_labels.npy" \
      --out "generated/$(basename "$config" .yaml)/run_pruned${flag:+_dense}" ${flag:+"$flag"}
  done
fi
