# Bad ONNX input (issue 16): corrupt and truncated files, an opset outside the supported
# range, a graph of two inputs, a dynamic dimension without a size, float weights in the
# middle, operators and attributes npugen does not map, models that break ONNX's rules (an
# input nothing defines, a name defined twice, raw_data of the wrong size, typed data of the
# wrong count, dimensions beyond bounds, an attribute of the wrong type, given twice or
# unknown: ONNX Runtime refuses each, bad_models.py checks): npugen onnx-info and compile exit
# 2, naming the node and the problem, and write nothing. A good model of the same kind imports.
#   bad_input.sh NPUGEN CONFIG PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" "$(dirname "$0")/bad_models.py" "$work" || fail "bad_models.py failed"
"$npugen" onnx-info "$work/good.onnx" > "$work/good.txt" || fail "the good model does not import"
grep -q "1 layers" "$work/good.txt" || fail "the good model: $(cat "$work/good.txt")"
# A MatMul's per-channel weight scales along its output channels (axis 1) import.
"$npugen" onnx-info "$work/matmul_axis1.onnx" > "$work/mm.txt" ||
  fail "a MatMul with per-channel weights along axis 1 does not import: $(cat "$work/mm.txt")"
count=0
while IFS=$'\t' read -r name text; do
  [ -n "$name" ] || continue
  expect_refusal "$work/out" "$work/$name.log" "$work/$name.onnx" "$text" -- \
    "$npugen" compile "$config" --onnx "$work/$name.onnx" --out "$work/out"
  expect_refusal "$work/out" "$work/$name.info.log" "$text" -- \
    "$npugen" onnx-info "$work/$name.onnx"
  count=$((count + 1))
done < "$work/expected.txt"
[ "$count" -ge 24 ] || fail "only $count bad models"
echo "$count bad ONNX models refused, each naming its problem"
# A QuantizeLinear without a zero point: uint8 with zero point 0, as ONNX Runtime computes it.
"$npugen" reference --onnx "$work/no_zero_point.onnx" --input "$work/no_zero_point_input.npy" \
  --out "$work/nozp" > "$work/nozp.log" 2>&1 || fail "no_zero_point.onnx: $(cat "$work/nozp.log")"
"$python" -c "
import sys, numpy as np
ours = np.load(sys.argv[1]).astype(np.int64)
ort = np.load(sys.argv[2])
sys.exit(0 if ours.shape == ort.shape and (ours == ort).all() and ort.min() == -128 else 1)
" "$work/nozp/output.npy" "$work/no_zero_point_expected.npy" \
  || fail "no_zero_point.onnx: npugen's output is not ONNX Runtime's uint8 result"
echo "a QuantizeLinear without a zero point gives ONNX Runtime's uint8 result"
