# Bad input to npugen compile and npugen run: each exits with status 2, names the file and
# line (or the file) and the problem, and writes nothing.
#   bad_input.sh NPUGEN CONFIGS DIGITS_DIR
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 configs=$2 digits=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$digits"/*.npy "$work/"
config=$configs/npu_odd_3x5.yaml

expect() {  # expect FILE TEXT [command...]: status 2, TEXT on stderr, no output folder
  local file=$1 text=$2 rc=0
  shift 2
  "$@" 2>"$work/stderr" >/dev/null || rc=$?
  [ "$rc" = 2 ] || fail "$file: status $rc, expected 2 ($(cat "$work/stderr"))"
  grep -qF -- "$text" "$work/stderr" || fail "$file: no '$text' in: $(cat "$work/stderr")"
  [ ! -e "$work/out" ] || fail "$file: something was written"
}
compile() { "$npugen" compile "$config" --network "$1" --out "$work/out" "${@:2}"; }

# A layer beyond the generated maxima: a 5 x 5 kernel on a design of 3 x 3 at most.
sed '0,/^    kernel: 3$/s//    kernel: 5/; 0,/conv1_w.npy/s//conv1_w5.npy/' "$digits/digits.yaml" >"$work/big_kernel.yaml"
python3 - "$work" <<'PY'
import struct, sys
# conv1_w5.npy: int8 [8][5][5][1] of ones (a hand-written .npy, no numpy needed).
header = "{'descr': '|i1', 'fortran_order': False, 'shape': (8, 5, 5, 1), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
open(sys.argv[1] + "/conv1_w5.npy", "wb").write(
    b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + b"\x01" * 200)
PY
# (Unpacked: packed, the first layer runs as a 1 x 1 convolution over its 25-value windows.)
expect big_kernel.yaml "big_kernel.yaml:13: error: layer conv1" compile "$work/big_kernel.yaml" \
  --no-input-packing
# A weight file of the wrong shape, and a missing one.
sed 's/conv2_w.npy/conv1_w.npy/' "$digits/digits.yaml" >"$work/wrong_shape.yaml"
expect wrong_shape.yaml "conv1_w.npy: expected int8 [16][3][3][8], got |i1 [8][3][3][1]" \
  compile "$work/wrong_shape.yaml"
sed 's/conv2_b.npy/none.npy/' "$digits/digits.yaml" >"$work/missing.yaml"
expect missing.yaml "layers[2].bias: none.npy" compile "$work/missing.yaml"
# A bias of the wrong dtype (int8 weights given as the bias).
sed 's/bias: conv1_b.npy/bias: conv1_w.npy/' "$digits/digits.yaml" >"$work/dtype.yaml"
expect dtype.yaml "expected int32 [8], got |i1 [8][3][3][1]" compile "$work/dtype.yaml"
# Shapes that do not chain: an add of 4x4x8 and 8x8x8.
cat "$digits/digits.yaml" >"$work/add.yaml"
echo "  - {name: bad, op: add, inputs: [pool1, conv1]}" >>"$work/add.yaml"
expect add.yaml "layer bad adds a 4x4x8 tensor to a 8x8x8 one" compile "$work/add.yaml"
# A shape-only network.
cat >"$work/shapes.yaml" <<'Y'
input: {height: 8, width: 8, channels: 1}
layers:
  - {name: c, op: conv, kernel: 3, channels: 4}
Y
expect shapes.yaml "the network has no weights" compile "$work/shapes.yaml"
# A design without the NPU top.
expect planar_default.yaml "does not generate the NPU top" \
  "$npugen" compile "$configs/planar_default.yaml" --network "$digits/digits.yaml" --out "$work/out"
# An input that does not match the network's input.
expect conv1_w.npy "expected int8 [N][8][8][1] (the network's input), got |i1 [8][3][3][1]" \
  "$npugen" run "$config" --network "$digits/digits.yaml" --input "$work/conv1_w.npy" \
  --out "$work/out" --design "$work/design"
[ ! -e "$work/design" ] || fail "run generated a design for a bad input"
# Outputs checked before the co-simulation is built: a waveform at a folder or in a folder
# that does not exist, an output folder at a file.
mkdir -p "$work/traces"
expect "--trace folder" "--trace $work/traces: is a folder, not a regular file" \
  "$npugen" run "$config" --network "$digits/digits.yaml" --input "$work/test_images.npy" \
  --out "$work/out" --design "$work/design" --trace "$work/traces"
expect "--trace /missing/t.fst" "--trace /missing/t.fst: the folder /missing does not exist" \
  "$npugen" run "$config" --network "$digits/digits.yaml" --input "$work/test_images.npy" \
  --out "$work/out" --design "$work/design" --trace /missing/t.fst
expect "--out file" "--out $work/conv1_w.npy: exists and is a file, not a folder" \
  "$npugen" run "$config" --network "$digits/digits.yaml" --input "$work/test_images.npy" \
  --out "$work/conv1_w.npy" --design "$work/design"
[ ! -e "$work/design" ] || fail "run generated a design for a bad output path"
echo "bad networks and inputs: exit 2 at their line, nothing written"
