# A layer whose filters exceed the weight store, on the verilated default NPU: conv 3x3 over
# 256 channels with 128 filters needs 4,608 weight rows (16 blocks of 8 filters x 288 rows),
# the store holds 4,096. Sequenced by the host it runs in two tiles of output channels (112
# and 16 filters, the weights written again before each), bit-exact against the golden model
# and the reference interpreter; with the task unit (every layer's weights written first)
# npugen refuses it at the layer's line, exit 2, naming the way out.
#   run_tiled.sh NPUGEN CONFIG DESIGN_DIR PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 python=$4
work=$design.tiled
rm -rf "$work" "$work.out"
mkdir -p "$work"
"$python" - "$work" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
np.save(f"{d}/w.npy", rng.integers(-4, 5, size=(128, 3, 3, 256), dtype=np.int8))
np.save(f"{d}/b.npy", rng.integers(-1000, 1001, size=(128,), dtype=np.int32))
np.save(f"{d}/x.npy", rng.integers(-128, 128, size=(1, 8, 8, 256), dtype=np.int8))
open(f"{d}/net.yaml", "w").write(
    "input: {height: 8, width: 8, channels: 256, zero_point: 0}\n"
    "layers:\n"
    "  - {name: wide, op: conv, kernel: 3, channels: 128, weights: w.npy, bias: b.npy,\n"
    "     output: {multiplier: 1073741824, shift: -8, zero_point: 0}}\n")
PY
"$npugen" run "$config" --network "$work/net.yaml" --input "$work/x.npy" --design "$design" \
  --out "$work.out" --sequencing host > "$work.log" || fail "the tiled run failed: $(tail -5 "$work.log")"
grep -q "every layer equals the golden model and the reference interpreter" "$work.log" ||
  fail "no bit-exact line: $(tail -5 "$work.log")"
"$python" - "$work.out" <<'PY' || fail "the tiled layer's figures are wrong"
import json, sys
s = json.load(open(f"{sys.argv[1]}/stats.json"))
l = s["layers"][0]
assert l["weight_rows"] == 112 // 8 * 288 + 16 // 8 * 288, l  # two tiles' rows
print(f"tiled conv (2 tiles, {l['weight_rows']} weight rows written): {l['cycles']} cycles, "
      f"MAC utilisation {l['mac_utilisation']:.3f}")
PY
set +e
"$npugen" run "$config" --network "$work/net.yaml" --input "$work/x.npy" --design "$design" \
  --out "$work.refused" > "$work.refused.log" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || fail "the task unit's run exited $status, not 2"
grep -q "net.yaml:3: error: layer wide: 4608 weight rows do not fit the weight store" \
  "$work.refused.log" || fail "the refusal names no line: $(cat "$work.refused.log")"
grep -q "sequencing host" "$work.refused.log" || fail "the refusal names no way out"
[ ! -e "$work.refused" ] || fail "the refused run wrote its output folder"
echo "with the task unit: refused at net.yaml:3"
