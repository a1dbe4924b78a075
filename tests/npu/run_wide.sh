# Layers above the engines' height and width registers, on the verilated default NPU (the
# address generator and the planar engine take 32 x 32): the compiler runs them in bands of
# rows and tiles of columns, each a task with its window's rows and columns, reading and
# writing the tensor in place through the row strides (or its staging area when the tensor is
# in system memory):
#   conv1 (3x3 same, 16 -> 8) over a 48 x 80 x 16 input in system memory (7,680 words):
#         bands load their rows, each band three tiles of columns
#   conv2 (3x3 same), add (48 x 80 x 8, its output in memory), pool (2x2 max, 48 x 80 in a
#         buffer), conv3 (3x3 stride 2 over 24 x 40), pool2, pool3 (2x2 average), fc (10)
# a 64 x 64 x 3 input packed for its first conv and kept in system memory (its 16,384 words
# above buffer A), a third of 300 channels on the planar engine's 256 (pools, add, clamp, a sum over H x W, each
# in two slices of channels), and a second network held in the buffers (a 40 x 36 x 8 input, conv 3x3, a 3x3 average
# pool with padding), run with --host-io (the task unit, no DMA: bands need no memory), two
# images. Both bit-exact against the golden model and the reference interpreter; their
# cycles against a design whose registers take every layer whole (the cost of the tiles).
# Sequenced by the host, npugen refuses the second network at the first layer beyond the
# registers, naming the task unit.
#   run_wide.sh NPUGEN CONFIG DESIGN_DIR PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 python=$4
work=$design.wide
rm -rf "$work" "$work".out* "$work.refused"
mkdir -p "$work"
"$python" - "$work" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(5)
def conv(name, k, kh, c):
    np.save(f"{d}/{name}_w.npy", rng.integers(-6, 7, size=(k, kh, kh, c), dtype=np.int8))
    np.save(f"{d}/{name}_b.npy", rng.integers(-2000, 2001, size=(k,), dtype=np.int32))
conv("conv1", 8, 3, 16)
conv("conv2", 8, 3, 8)
conv("conv3", 16, 3, 8)
conv("small", 8, 3, 8)
np.save(f"{d}/fc_w.npy", rng.integers(-6, 7, size=(10, 3 * 5 * 16), dtype=np.int8))
np.save(f"{d}/fc_b.npy", rng.integers(-2000, 2001, size=(10,), dtype=np.int32))
np.save(f"{d}/x.npy", rng.integers(-128, 128, size=(1, 48, 80, 16), dtype=np.int8))
np.save(f"{d}/x2.npy", rng.integers(-128, 128, size=(2, 40, 36, 8), dtype=np.int8))
out = "output: {multiplier: 1518500250, shift: -9, zero_point: -5}"
open(f"{d}/net.yaml", "w").write(
    "input: {height: 48, width: 80, channels: 16, zero_point: 3}\n"
    "layers:\n"
    f"  - {{name: conv1, op: conv, kernel: 3, padding: same, channels: 8, weights: conv1_w.npy,\n"
    f"     bias: conv1_b.npy, {out}, activation: relu}}\n"
    f"  - {{name: conv2, op: conv, kernel: 3, padding: same, channels: 8, weights: conv2_w.npy,\n"
    f"     bias: conv2_b.npy, {out}}}\n"
    "  - {name: add, op: add, inputs: [conv1, conv2]}\n"
    "  - {name: pool, op: max_pool, kernel: 2, stride: 2, padding: valid}\n"
    f"  - {{name: conv3, op: conv, kernel: 3, stride: 2, padding: same, channels: 16,\n"
    f"     weights: conv3_w.npy, bias: conv3_b.npy, {out}, activation: relu}}\n"
    "  - {name: pool2, op: max_pool, kernel: 2, stride: 2, padding: valid}\n"
    "  - {name: pool3, op: avg_pool, kernel: 2, stride: 2, padding: valid}\n"
    f"  - {{name: fc, op: fc, channels: 10, weights: fc_w.npy, bias: fc_b.npy, {out}}}\n")
np.save(f"{d}/x3.npy", rng.integers(-128, 128, size=(2, 6, 6, 300), dtype=np.int8))
open(f"{d}/net3.yaml", "w").write(
    "input: {height: 6, width: 6, channels: 300, zero_point: 3}\n"
    "layers:\n"
    "  - {name: pool, op: max_pool, kernel: 2, stride: 1, padding: [0, 1, 0, 1]}\n"
    "  - {name: avg, op: avg_pool, kernel: 3, stride: 1, padding: same}\n"
    "  - {name: add, op: add, inputs: [pool, avg]}\n"
    "  - {name: relu, op: activation, activation: relu}\n"
    "  - {name: sum, op: reduce, function: sum, axis: spatial,\n"
    "     output: {multiplier: 1518500250, shift: -5, zero_point: -5}}\n")
np.save(f"{d}/s_w.npy", rng.integers(-6, 7, size=(16, 3, 3, 3), dtype=np.int8))
np.save(f"{d}/s_b.npy", rng.integers(-2000, 2001, size=(16,), dtype=np.int32))
np.save(f"{d}/x4.npy", rng.integers(-128, 128, size=(1, 64, 64, 3), dtype=np.int8))
open(f"{d}/net4.yaml", "w").write(
    "input: {height: 64, width: 64, channels: 3, zero_point: 3}\n"
    "layers:\n"
    f"  - {{name: stem, op: conv, kernel: 3, padding: same, channels: 16, weights: s_w.npy,\n"
    f"     bias: s_b.npy, {out}, activation: relu}}\n"
    "  - {name: pool, op: max_pool, kernel: 2, stride: 2, padding: valid}\n")
open(f"{d}/net2.yaml", "w").write(
    "input: {height: 40, width: 36, channels: 8, zero_point: 3}\n"
    "layers:\n"
    f"  - {{name: conv, op: conv, kernel: 3, padding: same, channels: 8, weights: small_w.npy,\n"
    f"     bias: small_b.npy, {out}}}\n"
    "  - {name: pool, op: avg_pool, kernel: 3, stride: 2, padding: same}\n")
PY
"$npugen" run "$config" --network "$work/net.yaml" --input "$work/x.npy" --design "$design" \
  --out "$work.out" > "$work.log" || fail "the wide run failed: $(tail -5 "$work.log")"
grep -q "every layer equals the golden model and the reference interpreter" "$work.log" ||
  fail "no bit-exact line: $(tail -5 "$work.log")"
"$npugen" run "$config" --network "$work/net2.yaml" --input "$work/x2.npy" --design "$design" \
  --out "$work.out2" --host-io > "$work.log2" || fail "the in-buffer run failed: $(tail -5 "$work.log2")"
grep -q "every layer equals the golden model and the reference interpreter" "$work.log2" ||
  fail "no bit-exact line (in buffers): $(tail -5 "$work.log2")"
# 300 channels on the planar engine's 256: every layer in two slices of channels.
"$npugen" run "$config" --network "$work/net3.yaml" --input "$work/x3.npy" --design "$design" \
  --out "$work.out3" > "$work.log3" || fail "the sliced run failed: $(tail -5 "$work.log3")"
grep -q "every layer equals the golden model and the reference interpreter" "$work.log3" ||
  fail "no bit-exact line (slices): $(tail -5 "$work.log3")"
"$npugen" compile "$config" --network "$work/net3.yaml" --out "$work/net3.sliced" > /dev/null ||
  fail "the sliced compile failed"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert all(l["tasks"] == 2 for l in r["layers"]), [l["tasks"] for l in r["layers"]]' \
  "$work/net3.sliced/report.json" || fail "net3's layers are not two slices each"
echo "net3: 300 channels in slices of 256 and 44 on the planar engine, bit-exact"
# A 64 x 64 x 3 input packed for its 3x3 reader (27 channels, 4 words a pixel: 16,384 words)
# stays in system memory, its reader in bands that load it.
"$npugen" run "$config" --network "$work/net4.yaml" --input "$work/x4.npy" --design "$design" \
  --out "$work.out4" > "$work.log4" || fail "the packed run failed: $(tail -5 "$work.log4")"
grep -q "every layer equals the golden model and the reference interpreter" "$work.log4" ||
  fail "no bit-exact line (packed input in memory): $(tail -5 "$work.log4")"
for packing in "" --no-input-packing; do
  "$npugen" compile "$config" --network "$work/net4.yaml" --out "$work/net4$packing" $packing \
    > /dev/null || fail "the compile of net4 $packing failed"
done
python3 -c 'import json, sys
p, n = (json.load(open(f + "/report.json")) for f in sys.argv[1:3])
assert p["input"]["packed"] and p["input"]["buffer"] == "memory", p["input"]
assert not n["input"]["packed"], n["input"]
cp, cn = (sum(l["expected_cycles"] for l in r["layers"]) for r in (p, n))
assert cp < cn, (cp, cn)
print(f"net4: the packed input in memory: {cp:,} cycles against {cn:,} unpacked ({cn / cp:.2f}x)")' \
  "$work/net4" "$work/net4--no-input-packing" || fail "the packed input's figures are wrong"
# The same networks on a design whose registers take every layer whole.
sed -e 's/^  max_height: 32$/  max_height: 96/' -e 's/^  max_width: 32$/  max_width: 96/' \
  "$config" > "$work/whole.yaml"
for net in net net2; do
  for cfg in "$config" "$work/whole.yaml"; do
    tag=$([ "$cfg" = "$config" ] && echo tiled || echo whole)
    extra=$([ $net = net2 ] && echo --host-io || true)
    "$npugen" compile "$cfg" --network "$work/$net.yaml" --batch 1 --out "$work/$net.$tag" \
      $extra > /dev/null || fail "the $tag compile of $net failed"
  done
done
"$python" - "$work" <<'PY' || fail "the tiled runs' figures are wrong"
import json, sys
work = sys.argv[1]
def report(name):
    return json.load(open(f"{work}/{name}/report.json"))
# (layers in bands or tiles of columns; of them, those whole on 96 x 96 registers: conv1
# reads and add writes a tensor in memory, still in row bands there)
for net, tiled_layers, whole_layers in (
        ("net", ("conv1", "conv2", "add", "pool", "conv3"), ("conv2", "pool", "conv3")),
        ("net2", ("conv", "pool"), ("conv", "pool"))):
    tiled, whole = report(f"{net}.tiled"), report(f"{net}.whole")
    layers = {l["name"]: l for l in tiled["layers"]}
    for name in tiled_layers:
        assert layers[name]["tasks"] > 1, (net, name, layers[name])
    whole_by_name = {l["name"]: l for l in whole["layers"]}
    for name in whole_layers:
        assert whole_by_name[name]["tasks"] == 1, (net, name, whole_by_name[name])
    c_tiled = sum(l["expected_cycles"] for l in tiled["layers"])
    c_whole = sum(l["expected_cycles"] for l in whole["layers"])
    print(f"{net}: layer   tasks  cycles (32 x 32 registers)  cycles (96 x 96)")
    for t, w in zip(tiled["layers"], whole["layers"]):
        print(f"  {t['name']:7} {t['tasks']:5}  {t['expected_cycles']:>26,}  {w['expected_cycles']:>16,}")
    print(f"{net}: one image {c_tiled:,} cycles in bands and tiles of columns, {c_whole:,} "
          f"whole ({c_tiled / c_whole:.3f}x)")
PY
expect_refusal "$work.refused" "$work.refused.log" \
  "net2.yaml:3: error: layer conv: the sequencer cannot run it: height 40 is outside 1 to 32 (agu.max_height)" \
  "with the task unit (--sequencing tasks) it would run in bands of rows and tiles of columns" -- \
  "$npugen" run "$config" --network "$work/net2.yaml" --input "$work/x2.npy" --design "$design" \
  --out "$work.refused" --sequencing host
echo "sequenced by the host: refused at net2.yaml:3"
