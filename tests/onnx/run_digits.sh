# The digits CNN through ONNX (issue 16): scripts/digits_onnx.py writes the float network as
# an ONNX model and ONNX Runtime quantizes it statically in both formats (QDQ and QOperator,
# uint8 activations, per-channel int8 weights of 7 bits: reduce_range, so that ONNX Runtime's
# own int8 kernels are exact on x86-64 without VNNI, whose 16-bit pair sums saturate with
# 8-bit weights and drift by tens of LSB); npugen imports each (onnx-info), runs it on
# the verilated default NPU from the model's float input (bit-exact against the golden model
# and the reference interpreter), and its output is compared with ONNX Runtime's: equal on
# most elements, at most 1 LSB apart (ONNX Runtime requantizes in float, npugen as TFLite
# does), the same top-1 class on every image, and so ONNX Runtime's accuracy.
#   run_digits.sh NPUGEN CONFIG DESIGN_DIR PYTHON SCRIPTS_DIR
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 python=$4 scripts=$5
work=$design.onnx
rm -rf "$work"
mkdir -p "$work"
"$python" "$scripts/digits_onnx.py" "$work" > "$work/export.log" 2>&1 ||
  fail "digits_onnx.py failed: $(tail -5 "$work/export.log")"
for fmt in qdq qop; do
  "$npugen" onnx-info "$work/digits_$fmt.onnx" > "$work/info_$fmt.txt" ||
    fail "onnx-info $fmt failed"
  grep -q "5 layers" "$work/info_$fmt.txt" || fail "onnx-info $fmt: $(cat "$work/info_$fmt.txt")"
  "$npugen" run "$config" --onnx "$work/digits_$fmt.onnx" --input "$work/input.npy" \
    --labels "$work/labels.npy" --design "$design" --out "$work/run_$fmt" > "$work/run_$fmt.log" ||
    fail "the $fmt run failed: $(tail -5 "$work/run_$fmt.log")"
  grep -q "every layer equals the golden model and the reference interpreter" \
    "$work/run_$fmt.log" || fail "no bit-exact line ($fmt)"
done
"$python" - "$work" "$npugen" <<'PY' || fail "npugen and ONNX Runtime disagree"
import re, sys
import numpy as np
work = sys.argv[1]
for fmt in ("qdq", "qop"):
    info = open(f"{work}/info_{fmt}.txt").read()
    m = re.search(r"^output \S+ \[[^]]*\] (u?int8) scale (\S+) zero point (-?\d+)", info, re.M)
    dtype, scale, zp = m.group(1), float(m.group(2)), int(m.group(3))
    ours = np.load(f"{work}/run_{fmt}/output.npy").astype(np.int64)  # int8 [N][10]
    ort = np.load(f"{work}/ort_{fmt}.npy")  # ONNX Runtime's dequantized logits
    q = np.rint(ort / np.float32(scale)).astype(np.int64) + zp - (128 if dtype == "uint8" else 0)
    d = np.abs(ours - q)
    labels = np.load(f"{work}/labels.npy")
    acc = float(np.mean(ours.argmax(axis=1) == labels))
    print(f"{fmt}: {ours.size} logits, {np.mean(d == 0):.2%} equal to ONNX Runtime's, max "
          f"|difference| {d.max()} LSB, top-1 the same on {np.mean(ours.argmax(1) == ort.argmax(1)):.0%} "
          f"of {len(ours)} images, accuracy {acc:.2%}")
    assert d.max() <= 1, (fmt, d.max())
    assert (ours.argmax(axis=1) == ort.argmax(axis=1)).all(), fmt
    assert np.mean(d == 0) > 0.9, fmt
    log = open(f"{work}/run_{fmt}.log").read()
    ort_acc = float(np.mean(ort.argmax(axis=1) == labels))
    right = int(round(ort_acc * len(labels)))
    # ONNX Runtime's accuracy on the same model (its weights are 7-bit: reduce_range)
    assert f"top-1 accuracy: {right} of {len(labels)}" in log, (right, log[-300:])
    # Layer by layer: each layer's tensor against ONNX Runtime's quantized tensor of the
    # layer's last node (made a graph output), NCHW to NHWC, uint8 to int8.
    import onnx
    import onnxruntime as ort
    model = onnx.load(f"{work}/digits_{fmt}.onnx")
    outputs_of = {n.name: n.output[0] for n in model.graph.node}
    rows = [l for l in info.splitlines() if re.match(r"^l\d+ ", l)]
    names = []
    for row in rows:
        last = re.findall(r"node (\S+) \(", row)[-1]
        names.append(outputs_of[last])
    typed = {v.name: v for v in onnx.shape_inference.infer_shapes(model).graph.value_info}
    # Tensors shape inference leaves untyped (com.microsoft ops): the activations' type, the
    # input QuantizeLinear's zero point's.
    inits = {t.name: t for t in model.graph.initializer}
    act = next(inits[n.input[2]].data_type for n in model.graph.node if n.op_type == "QuantizeLinear")
    extra = [typed.get(n) or onnx.helper.make_tensor_value_info(n, act, None)
             for n in names if n not in [o.name for o in model.graph.output]]
    model.graph.output.extend(extra)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = dict(zip([o.name for o in session.get_outputs()],
                   session.run(None, {"input": np.load(f"{work}/input.npy")})))
    rates = []
    for i, name in enumerate(names):
        t = got[name]
        if t.dtype.kind == "f":
            continue  # the dequantized output: compared above
        t = t.astype(np.int64) - (128 if t.dtype == np.uint8 else 0)
        if t.ndim == 4:
            t = t.transpose(0, 2, 3, 1)
        mine = np.load(f"{work}/run_{fmt}/layers/l{i}.npy").astype(np.int64).reshape(t.shape)
        diff = np.abs(mine - t)
        rates.append(f"l{i} {np.mean(diff == 0):.2%} (max {diff.max()})")
        assert diff.max() <= 1, (fmt, i, diff.max())
    print(f"{fmt}, layer by layer, equal to ONNX Runtime: " + ", ".join(rates))
PY
echo "the digits CNN through ONNX: both formats bit-exact on the NPU, within 1 LSB of ONNX Runtime"
