# npugen run on the digits CNN (networks/digits): every layer of the verilated NPU top equals
# the golden model and the plain reference interpreter (exit 0), the top-1 accuracy equals
# the reference interpreter's (355 of 360, as the training script measured), the output
# equals the training script's own integer inference (expected_logits.npy, numpy), and every
# layer's .npy and stats.json are written. The task unit sequences the layers (the default);
# the host-sequenced run gives the same output. Then a descriptor of the last batch's run
# file is corrupted (its length word below the header's 4 words): the top's task unit flags
# it (STATUS.TASKS_ERR) and the run reports it and fails.
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
# The total adds, per batch, what follows the last layer's completion: the DMA's store of
# the output (its buffer words, W + 2 = 4 cycles each with L = 8) and the driver's accesses
# (the interrupt, STATUS read and cleared): a few cycles.
layers_cycles = sum(l["cycles"] for l in s["layers"])
after = 10 + 4 * s["layers"][-1]["output_words_per_batch"]
assert layers_cycles <= s["total"]["cycles"] <= layers_cycles + after * 45, (layers_cycles, s["total"])
print(f"digits: {s['total']['cycles_per_image']:.1f} cycles per image, "
      f"{s['total']['images_per_second']:.0f} images/s at {s['total']['clock_mhz']:.0f} MHz")
PY
echo "digits CNN: bit-exact on the RTL, 355 of 360"

# Corrupted descriptors: a length below the header's (the task unit's error flag), and an
# engine register the engine refuses (its configuration error); the run reports each.
work=$design/sim/run-work
[ -f "$work/network.run" ] || fail "no run file in $work"
corrupt() {  # corrupt LAYER WORD VALUE OUT: descriptor LAYER's word WORD := VALUE (hex)
  "$python" - "$work/network.run" "$@" <<'PY' || fail "cannot corrupt the run file"
import sys
path, layer, word, value, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
lines = open(path).read().split("\n")
first = next(i for i, l in enumerate(lines) if l.startswith("memory "))
words = []
for l in lines[first + 1:]:
    if not l.startswith("words "):
        break
    words += l.split()[1:]
offsets = [int(l.split()[1]) for l in lines if l.startswith("descriptor ")]
assert len(offsets) == 5, offsets
words[offsets[layer] + word] = value
for k in range(0, len(words), 8):
    lines[first + 1 + k // 8] = "words " + " ".join(words[k:k + 8])
open(out, "w").write("\n".join(lines))
PY
}
check_corrupt() {  # check_corrupt RUN_FILE MESSAGE
  set +e
  "$design/sim/build-npu/sim" --run "$1" --cycles 100000 > "$1.log" 2>&1
  local status=$?
  set -e
  [ "$status" -ne 0 ] || fail "the corruption in $1 went unnoticed"
  grep -q "$2" "$1.log" || fail "the run did not report '$2': $(tail -5 "$1.log")"
  echo "corrupted: $(grep -m1 -o "cycle [0-9]*: $2[^;(]*" "$1.log")"
}
corrupt 1 1 00000002 "$design.corrupt.run"  # pool1's length: 2 words
check_corrupt "$design.corrupt.run" "the task unit flagged a malformed descriptor"
# conv1's first engine register (after the 4-word header and the 8-word operation and
# regions group, the engine group's first data word): a shape no engine takes.
corrupt 0 13 ffffffff "$design.refused.run"
check_corrupt "$design.refused.run" "an engine refused the registers"

# The host sequences the layers: the same output; the cycles of both, as a ratio.
"$npugen" run "$config" --network "$net/digits.yaml" --input "$net/test_images.npy" \
  --design "$design" --out "$out.host" --sequencing host > "$design.digits-host.log" ||
  fail "the host-sequenced run failed"
"$python" - "$out" "$out.host" <<'PY' || fail "the host-sequenced run differs"
import json, sys
import numpy as np
a, b = sys.argv[1], sys.argv[2]
assert (np.load(f"{a}/output.npy") == np.load(f"{b}/output.npy")).all()
ta = json.load(open(f"{a}/stats.json"))["total"]["cycles"]
tb = json.load(open(f"{b}/stats.json"))["total"]["cycles"]
print(f"digits: {ta} cycles sequenced by the task unit, {tb} by the host ({ta / tb:.3f})")
PY
