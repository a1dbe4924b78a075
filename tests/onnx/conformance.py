#!/usr/bin/env python3
"""ONNX's own operator conformance cases through npugen (issue 16): every single-node case
the onnx package's backend test collection has for QLinearConv, QLinearMatMul, ConvInteger,
MatMulInteger, MaxPool, AveragePool, Relu, Add, Flatten and the element-wise functions npugen
runs as a LUT (Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Elu), wrapped as npugen
needs it, through npugen's reference interpreter (`npugen reference`), and the ones it imports through
the verilated NPU (`npugen run`) too. A test tool, not part of the product.

Wrapping: the graph's one float input is quantized by a QuantizeLinear (the integer ops: the
case's own activation input, quantized with its scale and zero point (1 and its zero point for
ConvInteger and MatMulInteger), its other inputs made initializers; the float ops: scale
max|x| / 127, a QDQ pair around the op, the output's scale the input's, Add's max|y| / 127).
Each case either matches (the integer ops exactly, or ConvInteger's and MatMulInteger's int32
results where they fit int8; the float ops within 1 LSB of the expected output quantized), or
npugen refuses it with exit status 2 and a message. A case that imports and gives another
result fails the check.

  conformance.py NPUGEN CONFIG DESIGN_DIR OUT_DIR
"""
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from npu_check import npu_check

warnings.filterwarnings("ignore")
from onnx.backend.test.case.node import collect_testcases  # noqa: E402

OPS = {"QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger", "MaxPool", "AveragePool",
       "Relu", "Add", "Flatten", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "LeakyRelu", "Elu"}
INTEGER = {"QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger"}


def elem(dtype):
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def wrap(case):
    """(model, float input, expected int output in npugen's int8 domain, what it is)."""
    node = case.model.graph.node[0]
    op = node.op_type
    inputs, outputs = case.data_sets[0]
    names = [i.name for i in case.model.graph.input]
    values = dict(zip(names, inputs))
    y = np.asarray(outputs[0])
    inits, nodes = [], []
    if op in INTEGER:
        x_name = node.input[0]
        x = np.asarray(values[x_name])
        if op.startswith("QLinear"):
            scale = float(np.asarray(values[node.input[1]]).reshape(-1)[0])
            zp = np.asarray(values[node.input[2]]).reshape(-1)[0]
        else:
            scale = 1.0
            zp = (np.asarray(values[node.input[2]]).reshape(-1)[0]
                  if len(node.input) > 2 and node.input[2] else x.dtype.type(0))
        xf = ((x.astype(np.float64) - float(zp)) * scale).astype(np.float32)
        inits += [numpy_helper.from_array(np.array(scale, np.float32), "in_s"),
                  numpy_helper.from_array(np.array(zp, x.dtype), "in_z")]
        nodes.append(helper.make_node("QuantizeLinear", ["xf", "in_s", "in_z"], [x_name],
                                      name="quantize_input"))
        for name, v in values.items():
            if name != x_name:
                inits.append(numpy_helper.from_array(np.asarray(v), name))
        nodes.append(node)
        out_name, out_type = node.output[0], elem(y.dtype)
        expected = y.astype(np.int64) - (128 if y.dtype == np.uint8 else 0)
        kind = "exact" if op.startswith("QLinear") else "exact where int8"
    else:
        x = np.asarray(inputs[0])
        if not np.issubdtype(x.dtype, np.floating):
            return None, None, None, f"its input is {x.dtype}, not float"
        s_in = float(np.abs(x).max()) / 127 or 1.0
        s_out = s_in if op != "Add" else (float(np.abs(y).max()) / 127 or 1.0)
        xf = x.astype(np.float32)
        inits += [numpy_helper.from_array(np.array(s_in, np.float32), "in_s"),
                  numpy_helper.from_array(np.array(0, np.int8), "zp"),
                  numpy_helper.from_array(np.array(s_out, np.float32), "out_s")]
        nodes += [helper.make_node("QuantizeLinear", ["xf", "in_s", "zp"], ["xq"], name="q_in"),
                  helper.make_node("DequantizeLinear", ["xq", "in_s", "zp"], [node.input[0]],
                                   name="dq_in")]
        for name, v in list(values.items())[1:]:
            inits.append(numpy_helper.from_array(np.asarray(v), name))
        nodes.append(node)
        nodes += [helper.make_node("QuantizeLinear", [node.output[0], "out_s", "zp"], ["yq"],
                                   name="q_out"),
                  helper.make_node("DequantizeLinear", ["yq", "out_s", "zp"], ["y_out"],
                                   name="dq_out")]
        out_name, out_type = "y_out", TensorProto.FLOAT
        expected = np.clip(np.rint(y / s_out), -128, 127).astype(np.int64)
        kind = "within 1 LSB"
    graph = helper.make_graph(
        nodes, case.name,
        [helper.make_tensor_value_info("xf", TensorProto.FLOAT, list(xf.shape))],
        [helper.make_tensor_value_info(out_name, out_type, None)], inits)
    opsets = [o for o in case.model.opset_import]
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = min(case.model.ir_version, 8) or 8
    return model, xf, expected, kind


def to_onnx_layout(ours, shape):
    """npugen's int8 NHWC (or [N][K]) as the ONNX output's shape (NCHW, or 2-D)."""
    if len(shape) in (3, 4) and ours.ndim == 4:  # [N][C][L] is [N][C][1][L]
        return ours.transpose(0, 3, 1, 2).reshape(shape)
    return ours.reshape(shape)


def main():
    npugen, config, design, out = sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])
    out.mkdir(parents=True, exist_ok=True)
    cases = [c for c in collect_testcases()
             if len(c.model.graph.node) == 1 and c.model.graph.node[0].op_type in OPS]
    rows, wrong = [], []
    for case in sorted(cases, key=lambda c: c.name):
        op = case.model.graph.node[0].op_type
        d = out / case.name
        d.mkdir(exist_ok=True)
        model, xf, expected, kind = wrap(case)
        row = {"case": case.name, "op": op}
        if model is None:
            row.update(result="not wrapped", why=kind)
            rows.append(row)
            continue
        onnx.save(model, d / "model.onnx")
        np.save(d / "input.npy", xf)
        ref = subprocess.run([npugen, "reference", "--onnx", str(d / "model.onnx"), "--input",
                              str(d / "input.npy"), "--out", str(d / "ref")],
                             capture_output=True, text=True)
        if ref.returncode == 2:
            why = ref.stderr.strip().splitlines()[0].split("error: ", 1)[-1]
            row.update(result="refused", why=why)
            rows.append(row)
            continue
        if ref.returncode != 0:
            wrong.append(f"{case.name}: npugen reference exited {ref.returncode}: {ref.stderr}")
            continue
        ours = to_onnx_layout(np.load(d / "ref" / "output.npy").astype(np.int64),
                              expected.shape)
        diff = np.abs(ours - expected)
        if kind == "exact where int8":
            fits = np.abs(expected) <= 127
            ok = bool((diff[fits] == 0).all())
            row["note"] = f"{int(fits.sum())} of {fits.size} results fit int8"
        elif kind == "exact":
            ok = bool((diff == 0).all())
        else:
            ok = bool(diff.max() <= 1)
        row.update(result="match" if ok else "WRONG", kind=kind,
                   equal=float(np.mean(diff == 0)), max_diff=int(diff.max()))
        if not ok:
            wrong.append(f"{case.name}: max |difference| {diff.max()} ({kind})")
        # The NPU too, when the default design takes it.
        row["npu"], failure = npu_check(npugen, config, design, d / "model.onnx",
                                        d / "input.npy", d)
        if failure:
            wrong.append(failure)
        rows.append(row)
    (out / "conformance.json").write_text(json.dumps(rows, indent=1) + "\n")
    for r in rows:
        extra = r.get("why") or (f"{r['equal']:.0%} equal, max {r['max_diff']}; NPU "
                                  f"{r.get('npu', '-')}" + (f"; {r['note']}" if "note" in r else ""))
        print(f"{r['case']:50} {r['op']:14} {r['result']:11} {extra}")
    matched = sum(r["result"] == "match" for r in rows)
    npu = sum(r.get("npu") == "bit-exact" for r in rows)
    print(f"{len(rows)} cases: {matched} match, {npu} of them bit-exact on the NPU, "
          f"{sum(r['result'] == 'refused' for r in rows)} refused with a message, "
          f"{sum(r['result'] == 'not wrapped' for r in rows)} not wrapped")
    if wrong:
        print("\n".join(wrong))
        sys.exit(1)
    if matched == 0:
        sys.exit("no case matched")


if __name__ == "__main__":
    main()
