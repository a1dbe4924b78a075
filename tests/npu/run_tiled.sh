# A layer whose filters exceed the weight store, on the verilated default NPU: conv 3x3 over
# 256 channels with 128 filters needs 4,608 weight rows (16 blocks of 8 filters x 288 rows),
# the store holds 4,096. It runs in two tiles of output channels (112 and 16 filters), each
# tile's weights loaded just before it: sequenced by the host, through the host port; with
# the task unit, by the DMA from system memory (a load task before each tile's task). Both
# bit-exact against the golden model and the reference interpreter. With the task unit and
# no DMA (--host-io: every layer's weights written first) npugen refuses it at the layer's
# line, exit 2, naming the ways out.
#   run_tiled.sh NPUGEN CONFIG DESIGN_DIR PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 python=$4
work=$design.tiled
rm -rf "$work" "$work.out" "$work.host" "$work.refused"
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
for how in host tasks; do
  out=$work.out
  [ "$how" = host ] && out=$work.host
  "$npugen" run "$config" --network "$work/net.yaml" --input "$work/x.npy" --design "$design" \
    --out "$out" --sequencing "$how" > "$work.$how.log" ||
    fail "the tiled run ($how) failed: $(tail -5 "$work.$how.log")"
  grep -q "every layer equals the golden model and the reference interpreter" "$work.$how.log" ||
    fail "no bit-exact line ($how): $(tail -5 "$work.$how.log")"
done
"$npugen" compile "$config" --network "$work/net.yaml" --out "$work/compiled" > /dev/null ||
  fail "the compile failed"
"$python" - "$work.host" "$work.out" "$work/compiled" <<'PY' || fail "the tiled layer's figures are wrong"
import json, sys
host = json.load(open(f"{sys.argv[1]}/stats.json"))["layers"][0]
tasks = json.load(open(f"{sys.argv[2]}/stats.json"))["layers"][0]
report = json.load(open(f"{sys.argv[3]}/report.json"))
rows = 112 // 8 * 288 + 16 // 8 * 288  # two tiles' rows
assert host["weight_rows"] == rows and tasks["weight_rows"] == rows, (host, tasks)
assert report["layers"][0]["tasks"] == 2, report["layers"][0]
print(f"tiled conv (2 tiles, {rows} weight rows): sequenced by the host {host['cycles']} cycles "
      f"(MAC utilisation {host['mac_utilisation']:.3f}); by the task unit, the weights loaded "
      f"by the DMA, {tasks['cycles']} ({tasks['mac_utilisation']:.3f}, "
      f"{tasks['cycles'] / host['cycles']:.2f}x)")
PY
expect_refusal "$work.refused" "$work.refused.log" \
  "net.yaml:3: error: layer wide: 4608 weight rows do not fit the weight store" \
  "sequencing host), or with the DMA (without --host-io), it would run in tiles" -- \
  "$npugen" run "$config" --network "$work/net.yaml" --input "$work/x.npy" --design "$design" \
  --out "$work.refused" --host-io
echo "with the task unit and no DMA: refused at net.yaml:3"
