# The VQ weight loader through the verilated NPU top (npu_vq): layers loaded as codebook
# indices run bit-exact against the golden model and the plain reference interpreter (which
# computes with the codebook's vectors, looked up by the network reader, never by the
# dequantizer's model).
# - The digits CNN with conv2 and fc1 as VQ layers (networks/digits/digits_vq.yaml), with the
#   task unit and sequenced by the host: the same output both ways, the accuracy equal to the
#   reference interpreter's, and the bits those layers send are the codebook's plus 8-bit
#   indices of 4 weights (not their rows).
# - A wide layer (conv 3x3, 256 -> 64 channels) where VQ pays: its weights cross the host
#   port in at most 1/3.5 of the bits of its rows.
# - Refusals at the layer's line, exit 2, nothing written: VQ on a design without the loader,
#   a vector length the dequantizer lacks, a vector length that does not divide the input
#   channels.
#   run_vq.sh NPUGEN CONFIG DESIGN_DIR SOURCE_DIR DEFAULT_CONFIG PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 src=$4 default_config=$5 python=$6
net=$src/networks/digits
work=$design.vq
rm -rf "$work" && mkdir -p "$work"

for how in tasks host; do
  "$npugen" run "$config" --network "$net/digits_vq.yaml" --input "$net/test_images.npy" \
    --labels "$net/test_labels.npy" --design "$design" --out "$work/digits_$how" \
    --sequencing "$how" > "$work/digits_$how.log" || fail "digits_vq ($how): $(tail -5 "$work/digits_$how.log")"
  grep -q "every layer equals the golden model and the reference interpreter" \
    "$work/digits_$how.log" || fail "digits_vq ($how): no bit-exact line"
  grep -q "^top-1 accuracy: \([0-9]*\) of 360 .*; the reference interpreter's: \1 of 360$" \
    "$work/digits_$how.log" || fail "digits_vq ($how): the accuracy differs from the reference's"
done
tail -3 "$work/digits_tasks.log"

"$python" - "$work" <<'PY' || fail "the VQ layers' figures are wrong"
import json, sys
import numpy as np
w = sys.argv[1]
a = np.load(f"{w}/digits_tasks/output.npy")
b = np.load(f"{w}/digits_host/output.npy")
assert (a == b).all(), "the two sequencings' outputs differ"
s = json.load(open(f"{w}/digits_tasks/stats.json"))
rows = {l["name"]: l for l in s["layers"]}
# 8 x 8 array: a row is 64 int8; VQ: 256 codewords of 4 weights (8,192 bits) and 16 indices
# of 8 bits a row; conv1 (one input channel) is sent as rows.
assert rows["conv1"]["weight_bits_per_batch"] == rows["conv1"]["weight_rows"] * 512, rows["conv1"]
for name in ("conv2", "fc1"):
    l = rows[name]
    assert l["weight_bits_per_batch"] == 8192 + l["weight_rows"] * 16 * 8, l
print("digits_vq: conv2 and fc1 sent as indices:",
      {n: rows[n]["weight_bits_per_batch"] for n in ("conv1", "conv2", "fc1")})
PY

# A wide layer: 64 filters over 256 channels, 2,304 weight rows.
"$python" - "$work" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(11)
np.save(f"{d}/w.npy", rng.integers(-6, 7, size=(64, 3, 3, 256), dtype=np.int8))
np.save(f"{d}/b.npy", rng.integers(-1000, 1001, size=(64,), dtype=np.int32))
np.save(f"{d}/x.npy", rng.integers(-128, 128, size=(1, 6, 6, 256), dtype=np.int8))
layer = ("  - {name: wide, op: conv, kernel: 3, channels: 64, weights: w.npy, bias: b.npy,\n"
         "     output: {multiplier: 1073741824, shift: -9, zero_point: 0}%s}\n")
head = "input: {height: 6, width: 6, channels: 256, zero_point: 0}\nlayers:\n"
open(f"{d}/wide.yaml", "w").write(head + layer % ", vq: {vector_length: 4}")
open(f"{d}/wide8.yaml", "w").write(head + layer % ", vq: {vector_length: 8}")
open(f"{d}/conv1_vq.yaml", "w").write(
    "input: {height: 8, width: 8, channels: 1, zero_point: -128}\nlayers:\n"
    "  - {name: c, op: conv, kernel: 3, channels: 8, weights: w1.npy, bias: 0,\n"
    "     output: {multiplier: 1073741824, shift: -4, zero_point: 0}, vq: {vector_length: 2}}\n")
np.save(f"{d}/w1.npy", rng.integers(-6, 7, size=(8, 3, 3, 1), dtype=np.int8))
PY
"$npugen" run "$config" --network "$work/wide.yaml" --input "$work/x.npy" --design "$design" \
  --out "$work/wide" > "$work/wide.log" || fail "the wide VQ layer: $(tail -5 "$work/wide.log")"
grep -q "every layer equals the golden model and the reference interpreter" "$work/wide.log" ||
  fail "the wide VQ layer: no bit-exact line"
"$python" - "$work" <<'PY' || fail "the wide layer's VQ saves too little"
import json, sys
l = json.load(open(f"{sys.argv[1]}/wide/stats.json"))["layers"][0]
rows_bits = l["weight_rows"] * 512
ratio = rows_bits / l["weight_bits_per_batch"]
print(f"wide conv 3x3 256->64 as indices: {l['weight_bits_per_batch']} bits against "
      f"{rows_bits} as rows ({ratio:.2f}x fewer), {l['cycles']} cycles")
assert ratio >= 3.5, ratio
PY

refused() {  # refused NAME CONFIG NETWORK TEXT
  set +e
  "$npugen" run "$2" --network "$3" --input "$4" --out "$work/refused_$1" \
    > "$work/refused_$1.log" 2>&1
  local status=$?
  set -e
  [ "$status" -eq 2 ] || fail "$1: exit $status, not 2: $(cat "$work/refused_$1.log")"
  grep -q "$5" "$work/refused_$1.log" || fail "$1: no '$5' in: $(cat "$work/refused_$1.log")"
  [ ! -e "$work/refused_$1" ] || fail "$1: the refused run wrote its output folder"
  echo "refused ($1): $(grep -m1 error "$work/refused_$1.log")"
}
refused no_loader "$default_config" "$net/digits_vq.yaml" "$net/test_images.npy" \
  "digits_vq.yaml:[0-9]*: error: layer conv2: .*vq.enabled"
refused length "$config" "$work/wide8.yaml" "$work/x.npy" \
  "wide8.yaml:3: error: layer wide: vectors of 8 weights"
refused channels "$config" "$work/conv1_vq.yaml" "$work/x.npy" \
  "conv1_vq.yaml:[0-9:]*: error: layers\[0\].vq: layer c: vectors of 2 weights along 1 input channels"
