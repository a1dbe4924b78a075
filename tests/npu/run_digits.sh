# npugen run on the digits CNN (networks/digits): every layer of the verilated NPU top equals
# the golden model and the plain reference interpreter (exit 0), the top-1 accuracy equals
# the reference interpreter's (355 of 360, as the training script measured), the output
# equals the training script's own integer inference (expected_logits.npy, numpy), and every
# layer's .npy and stats.json are written.
#   run_digits.sh NPUGEN CONFIG DESIGN_DIR SOURCE_DIR PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 src=$4 python=$5
net=$src/networks/digits
out=$design.digits
rm -rf "$out"
"$npugen" run "$config" --network "$net/digits.yaml" --input "$net/test_images.npy" \
  --labels "$net/test_labels.npy" --design "$design" --out "$out" | tee "$design.digits.log"
grep -q "^top-1 accuracy: 355 of 360 (98.61%); the reference interpreter's: 355 of 360$" \
  "$design.digits.log" || fail "the accuracy line differs"
for layer in conv1 pool1 conv2 pool2 fc1; do
  [ -f "$out/layers/$layer.npy" ] || fail "no $layer.npy"
done
"$python" - "$out" "$net" <<'PY' || fail "the outputs differ from the training script's"
import json, sys
import numpy as np
out, net = sys.argv[1], sys.argv[2]
y = np.load(f"{out}/output.npy")
want = np.load(f"{net}/expected_logits.npy")
assert y.dtype == np.int8 and y.shape == (360, 10), (y.dtype, y.shape)
assert (y == want).all(), "output.npy differs from expected_logits.npy"
c1 = np.load(f"{out}/layers/conv1.npy")
assert c1.shape == (360, 8, 8, 8) and c1.dtype == np.int8, c1.shape
s = json.load(open(f"{out}/stats.json"))
assert s["images"] == 360 and s["total"]["top1_correct"] == 355
assert [l["name"] for l in s["layers"]] == ["conv1", "pool1", "conv2", "pool2", "fc1"]
for l in s["layers"]:
    assert l["cycles"] > 0, l
    if l["engine"] == "neural":
        # utilisation = MACs / (T x L x cycles) never above 1, and the mapping bound never
        # above the cycles
        assert 0 < l["mac_utilisation"] <= 1 and l["mapping_bound"] <= l["cycles"], l
assert s["total"]["cycles"] == sum(l["cycles"] for l in s["layers"])
print(f"digits: {s['total']['cycles_per_image']:.1f} cycles per image, "
      f"{s['total']['images_per_second']:.0f} images/s at {s['total']['clock_mhz']:.0f} MHz")
PY
echo "digits CNN: bit-exact on the RTL, 355 of 360"
