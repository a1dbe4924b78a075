# Tensors above a buffer, on the verilated default NPU (buffers of 4,096 words): a 32 x 32 x 40
# input (5,120 words) and a 32 x 32 x 40 activation stay in system memory, and the layers that
# read or write them run in row bands, each band's rows loaded and stored by the DMA:
#   conv1 (3x3, 40 -> 16): bands load the input's rows, write B
#   conv2 (1x1, 16 -> 40): bands store their rows to memory
#   pool  (2x2 max, the planar engine): bands load conv2's rows, after a claim that waits for
#         conv2's stores (the other engine)
#   conv3 (3x3 stride 2, 40 -> 16), pool2, fc (10): in the buffers, the fc's output stored as
#         usual
# Two images, bit-exact against the golden model and the reference interpreter; the report
# names the tensors in memory and the bands. The golden model then runs the same network on
# default with buffers four times larger (no bands) for the cost of the bands. Sequenced by
# the host, npugen refuses the network at the tensor's line, naming the way out.
#   run_bands.sh NPUGEN CONFIG DESIGN_DIR PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 python=$4
work=$design.bands
rm -rf "$work" "$work.out" "$work.refused" "$work.add.out"
mkdir -p "$work"
"$python" - "$work" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(11)
def conv(name, k, kh, c):
    np.save(f"{d}/{name}_w.npy", rng.integers(-6, 7, size=(k, kh, kh, c), dtype=np.int8))
    np.save(f"{d}/{name}_b.npy", rng.integers(-2000, 2001, size=(k,), dtype=np.int32))
conv("conv1", 16, 3, 40)
conv("conv2", 40, 1, 16)
conv("conv3", 16, 3, 40)
np.save(f"{d}/fc_w.npy", rng.integers(-6, 7, size=(10, 4 * 4 * 16), dtype=np.int8))
np.save(f"{d}/fc_b.npy", rng.integers(-2000, 2001, size=(10,), dtype=np.int32))
np.save(f"{d}/x.npy", rng.integers(-128, 128, size=(2, 32, 32, 40), dtype=np.int8))
out = "output: {multiplier: 1518500250, shift: -9, zero_point: -5}"
open(f"{d}/net.yaml", "w").write(
    "input: {height: 32, width: 32, channels: 40, zero_point: 3}\n"
    "layers:\n"
    f"  - {{name: conv1, op: conv, kernel: 3, padding: same, channels: 16, weights: conv1_w.npy,\n"
    f"     bias: conv1_b.npy, {out}, activation: relu}}\n"
    f"  - {{name: conv2, op: conv, kernel: 1, channels: 40, weights: conv2_w.npy,\n"
    f"     bias: conv2_b.npy, {out}}}\n"
    "  - {name: pool, op: max_pool, kernel: 2, stride: 2, padding: valid}\n"
    f"  - {{name: conv3, op: conv, kernel: 3, stride: 2, padding: same, channels: 16,\n"
    f"     weights: conv3_w.npy, bias: conv3_b.npy, {out}, activation: relu}}\n"
    "  - {name: pool2, op: max_pool, kernel: 2, stride: 2, padding: valid}\n"
    f"  - {{name: fc, op: fc, channels: 10, weights: fc_w.npy, bias: fc_b.npy, {out}}}\n")
PY
"$npugen" run "$config" --network "$work/net.yaml" --input "$work/x.npy" --design "$design" \
  --out "$work.out" > "$work.log" || fail "the banded run failed: $(tail -5 "$work.log")"
grep -q "every layer equals the golden model and the reference interpreter" "$work.log" ||
  fail "no bit-exact line: $(tail -5 "$work.log")"
# The same network with buffers four times larger: no tensor in memory, no bands.
sed -e 's/^  act_words: 4096$/  act_words: 16384/' -e 's/^  act_words: 8192$/  act_words: 32768/' \
  -e 's/^  buffer_words: 8192$/  buffer_words: 32768/' "$config" > "$work/large.yaml"
"$npugen" compile "$work/large.yaml" --network "$work/net.yaml" --batch 1 --out "$work/large" \
  > /dev/null || fail "the large-buffer compile failed"
"$npugen" compile "$config" --network "$work/net.yaml" --batch 1 --out "$work/banded" \
  > /dev/null || fail "the banded compile failed"
"$python" - "$work" "$work.out" <<'PY' || fail "the banded run's figures are wrong"
import json, sys
work, out = sys.argv[1], sys.argv[2]
s = json.load(open(f"{out}/stats.json"))
banded = json.load(open(f"{work}/banded/report.json"))
large = json.load(open(f"{work}/large/report.json"))
layers = {l["name"]: l for l in banded["layers"]}
assert banded["input"]["buffer"] == "memory", banded["input"]
assert layers["conv2"]["output"]["buffer"] == "memory", layers["conv2"]
for name in ("conv1", "conv2", "pool"):
    assert layers[name]["tasks"] > 1, (name, layers[name])
for name in ("conv3", "pool2", "fc"):
    assert layers[name]["tasks"] == 1, (name, layers[name])
assert all(l["tasks"] == 1 and l["output"]["buffer"] != "memory" for l in large["layers"])
assert large["input"]["buffer"] == "A"
c_banded = sum(l["expected_cycles"] for l in banded["layers"])
c_large = sum(l["expected_cycles"] for l in large["layers"])
assert c_banded > c_large
print("layer   tasks  cycles (banded, 4,096-word buffers)  cycles (16,384-word buffers)")
for b, g in zip(banded["layers"], large["layers"]):
    print(f"{b['name']:7} {b['tasks']:5}  {b['expected_cycles']:>34,}  {g['expected_cycles']:>28,}")
print(f"one image: {c_banded:,} cycles in bands, {c_large:,} in buffers that hold every "
      f"tensor ({c_banded / c_large:.2f}x); the RTL run of 2 images: {s['total']['cycles']:,} "
      "cycles, bit-exact")
PY
expect_refusal "$work.refused" "$work.refused.log" \
  "net.yaml:1: error: the input (1 image(s) of 32x32x40, 5120 words) does not fit buffer A" \
  "with the task unit (--sequencing tasks) it would stay in system memory" -- \
  "$npugen" run "$config" --network "$work/net.yaml" --input "$work/x.npy" --design "$design" \
  --out "$work.refused" --sequencing host
echo "sequenced by the host: refused at net.yaml:1"
# An add of two tensors in memory (conv 3x3 and conv 1x1, 32 x 32 x 40: 5,120 words each): its
# bands load the first input's rows with their descriptor and the second's with a load-only
# task before each band (header bit 25, no engine write), bit-exact on the RTL.
"$python" - "$work" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(13)
for name, k in (("a1", 3), ("a2", 1)):
    np.save(f"{d}/{name}_w.npy", rng.integers(-6, 7, size=(40, k, k, 40), dtype=np.int8))
    np.save(f"{d}/{name}_b.npy", rng.integers(-2000, 2001, size=(40,), dtype=np.int32))
np.save(f"{d}/x5.npy", rng.integers(-128, 128, size=(1, 32, 32, 40), dtype=np.int8))
out = "output: {multiplier: 1518500250, shift: -9, zero_point: -5}"
open(f"{d}/add.yaml", "w").write(
    "input: {height: 32, width: 32, channels: 40, zero_point: 3}\n"
    "layers:\n"
    f"  - {{name: c1, op: conv, kernel: 3, padding: same, channels: 40, weights: a1_w.npy,\n"
    f"     bias: a1_b.npy, {out}, activation: relu}}\n"
    f"  - {{name: c2, op: conv, kernel: 1, channels: 40, weights: a2_w.npy, bias: a2_b.npy,\n"
    f"     {out}}}\n"
    "  - {name: add, op: add, inputs: [c1, c2]}\n"
    "  - {name: pool, op: max_pool, kernel: 2, stride: 2, padding: valid}\n")
PY
"$npugen" run "$config" --network "$work/add.yaml" --input "$work/x5.npy" --design "$design" \
  --out "$work.add.out" > "$work.add.log" || fail "the add's run failed: $(tail -5 "$work.add.log")"
grep -q "every layer equals the golden model and the reference interpreter" "$work.add.log" ||
  fail "no bit-exact line (add of two tensors in memory): $(tail -5 "$work.add.log")"
"$npugen" compile "$config" --network "$work/add.yaml" --out "$work/add" > /dev/null ||
  fail "the add's compile failed"
python3 -c 'import json, sys
r = {l["name"]: l for l in json.load(open(sys.argv[1]))["layers"]}
assert r["c1"]["output"]["buffer"] == "memory" and r["c2"]["output"]["buffer"] == "memory", r
assert r["add"]["tasks"] > 1, r["add"]' "$work/add/report.json" ||
  fail "the add's inputs are not both in memory"
echo "an add of two tensors in memory: bit-exact"
