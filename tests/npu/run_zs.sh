# The zero-skipping array inside the NPU top (npu_zs): the pruned digits CNN
# (networks/digits/digits_pruned.yaml, 75% of each layer's weights 0) runs bit-exact against
# the golden model and the plain reference interpreter, with the accuracy equal to the
# reference's and the output equal to the training script's own integer inference, twice:
# with the compiler's choice of arrays and with --no-zero-skip (every layer dense). The
# layers the compiler puts on the zero-skipping array (conv2, fc1) take fewer cycles than
# on the dense array, the outputs are the same both ways, and so is the dense network's on
# npu_zs and on the default design.
#   run_zs.sh NPUGEN CONFIG DESIGN_DIR SOURCE_DIR PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 src=$4 python=$5
net=$src/networks/digits
work=$design.zs
rm -rf "$work" && mkdir -p "$work"

for how in zs dense; do
  flag=()
  [ "$how" = dense ] && flag=(--no-zero-skip)
  "$npugen" run "$config" --network "$net/digits_pruned.yaml" --input "$net/test_images.npy" \
    --labels "$net/test_labels.npy" --design "$design" --out "$work/$how" "${flag[@]}" \
    > "$work/$how.log" || fail "digits_pruned ($how): $(tail -5 "$work/$how.log")"
  grep -q "every layer equals the golden model and the reference interpreter" "$work/$how.log" \
    || fail "digits_pruned ($how): no bit-exact line"
  grep -q "^top-1 accuracy: \([0-9]*\) of 360 .*; the reference interpreter's: \1 of 360$" \
    "$work/$how.log" || fail "digits_pruned ($how): the accuracy differs from the reference's"
done
cat "$work/zs.log"

"$python" - "$work" "$net" <<'PY' || fail "the zero-skipping figures are wrong"
import json, sys
import numpy as np
w, net = sys.argv[1], sys.argv[2]
zs, dense = np.load(f"{w}/zs/output.npy"), np.load(f"{w}/dense/output.npy")
assert (zs == dense).all(), "the zero-skipped and the dense runs' outputs differ"
assert (zs == np.load(f"{net}/expected_logits_pruned.npy")).all(), \
    "the output differs from the training script's integer inference"
s = {k: {l["name"]: l for l in json.load(open(f"{w}/{k}/stats.json"))["layers"]}
     for k in ("zs", "dense")}
for name in ("conv2", "fc1"):
    a, b = s["zs"][name], s["dense"][name]
    assert a["array"] == "zero_skip" and a["zs_steps_per_pixel"] > 0, a
    assert b["array"] == "dense" and b["zs_steps_per_pixel"] == 0, b
    assert a["cycles"] < b["cycles"], (name, a["cycles"], b["cycles"])
    print(f"{name}: {b['cycles']} cycles dense, {a['cycles']} zero-skipped "
          f"({b['cycles'] / a['cycles']:.2f}x; {a['zs_steps_per_pixel']} steps replayed a pixel, "
          f"dense mapping bound {b['mapping_bound']} steps)")
assert s["zs"]["conv1"]["array"] == "dense", "conv1 (packed, 2 rows a pixel) should stay dense"
tz = json.load(open(f"{w}/zs/stats.json"))["total"]["cycles"]
td = json.load(open(f"{w}/dense/stats.json"))["total"]["cycles"]
assert tz < td, (tz, td)
print(f"the network: {td} cycles dense, {tz} with zero skipping ({td / tz:.2f}x)")
PY

# The dense network on npu_zs: nothing to skip, the same output as the training script's.
"$npugen" run "$config" --network "$net/digits.yaml" --input "$net/test_images.npy" \
  --labels "$net/test_labels.npy" --design "$design" --out "$work/digits" > "$work/digits.log" \
  || fail "digits on npu_zs: $(tail -5 "$work/digits.log")"
"$python" -c "import numpy as np, sys; sys.exit(0 if (np.load('$work/digits/output.npy') == np.load('$net/expected_logits.npy')).all() else 1)" \
  || fail "the dense digits CNN on npu_zs differs from the training script's inference"
echo "run_zs: the pruned digits CNN zero-skipped and dense, and the dense one, all bit-exact"
