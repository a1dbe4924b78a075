#!/usr/bin/env python3
"""Element-wise functions as the planar engine's LUT (issue 34), against ONNX Runtime exactly:
Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Elu and Swish between a DequantizeLinear and
a QuantizeLinear (QDQ, int8 and uint8), and com.microsoft's QLinearSigmoid and QLinearLeakyRelu
(QOperator), each over all 256 input values, with random scales and zero points. npugen's
reference interpreter must give ONNX Runtime's output bit for bit; each function's first model
also runs on the verilated NPU (`npugen run`), bit-exact against the reference. A test tool,
not part of the product.

  lut_functions.py NPUGEN CONFIG DESIGN_DIR OUT_DIR [--sets N] [--seed S]
"""
import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from npu_check import npu_check

# (op, attributes, the output's range in float: its scale covers it)
FUNCTIONS = [
    ("Sigmoid", {}, (0.0, 1.0)),
    ("Tanh", {}, (-1.0, 1.0)),
    ("HardSigmoid", {"alpha": 0.25, "beta": 0.4}, (0.0, 1.0)),
    ("HardSwish", {}, None),
    ("LeakyRelu", {"alpha": 0.1}, None),
    ("Elu", {"alpha": 0.7}, None),
    ("Swish", {}, None),
]
QLINEAR = [("QLinearSigmoid", {}, (0.0, 1.0)), ("QLinearLeakyRelu", {"alpha": 0.2}, None)]
SHAPE = [1, 16, 4, 4]  # 256 values, NCHW


def model(op, attrs, xs, xz, ys, yz, dtype):
    """x (float) -> QuantizeLinear -> the function -> int8 or uint8 y."""
    np_t = np.int8 if dtype == TensorProto.INT8 else np.uint8
    inits = [numpy_helper.from_array(np.array(xs, np.float32), "xs"),
             numpy_helper.from_array(np.array(xz, np_t), "xz"),
             numpy_helper.from_array(np.array(ys, np.float32), "ys"),
             numpy_helper.from_array(np.array(yz, np_t), "yz")]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"], name="quantize_x")]
    if op.startswith("QLinear"):
        nodes.append(helper.make_node(op, ["xq", "xs", "xz", "ys", "yz"], ["y"], name="f",
                                      domain="com.microsoft", **attrs))
    else:
        nodes += [helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xf"], name="dq"),
                  helper.make_node(op, ["xf"], ["f"], name="f", **attrs),
                  helper.make_node("QuantizeLinear", ["f", "ys", "yz"], ["y"], name="q")]
    g = helper.make_graph(nodes, "lut", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                       SHAPE)],
                          [helper.make_tensor_value_info("y", dtype, SHAPE)], inits)
    opsets = [helper.make_opsetid("", 24), helper.make_opsetid("com.microsoft", 1)]
    m = helper.make_model(g, opset_imports=opsets)
    m.ir_version = 10
    return m


def main():
    a = argparse.ArgumentParser()
    a.add_argument("npugen")
    a.add_argument("config")
    a.add_argument("design")
    a.add_argument("out", type=Path)
    a.add_argument("--sets", type=int, default=12, help="scale sets per function and type")
    a.add_argument("--seed", type=int, default=34)
    args = a.parse_args()
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    wrong, rows = [], []
    cases = [(op, attrs, rng_out, t, False) for op, attrs, rng_out in FUNCTIONS
             for t in (TensorProto.INT8, TensorProto.UINT8)]
    cases += [(op, attrs, rng_out, t, True) for op, attrs, rng_out in QLINEAR
              for t in (TensorProto.UINT8, TensorProto.INT8)]
    for op, attrs, out_range, dtype, _ in cases:
        signed = dtype == TensorProto.INT8
        for k in range(args.sets):
            name = f"{op}_{'s8' if signed else 'u8'}_{k}"
            d = args.out / name
            d.mkdir(exist_ok=True)
            xs = float(np.float32(np.exp(rng.uniform(np.log(0.004), np.log(0.08)))))
            xz = int(rng.integers(-20, 21)) + (0 if signed else 128)
            lo, hi = out_range or (-128 * xs * 0.3, 127 * xs)
            ys = float(np.float32((hi - lo) / 255 * rng.uniform(0.8, 1.2)))
            yz = int(np.clip(np.round(-128 - lo / ys), -128, 127)) + (0 if signed else 128)
            m = model(op, attrs, xs, xz, ys, yz, dtype)
            onnx.save(m, d / "model.onnx")
            q = np.arange(256).reshape(SHAPE) - (128 if signed else 0)  # every input value
            x = ((q - xz).astype(np.float32) * np.float32(xs)).astype(np.float32)
            np.save(d / "input.npy", x)
            try:
                sess = ort.InferenceSession(m.SerializeToString(),
                                            providers=["CPUExecutionProvider"])
            except Exception as e:  # noqa: BLE001 - an operator this ORT lacks: a failure
                wrong.append(f"{name}: ONNX Runtime cannot run it: {str(e).splitlines()[0][:80]}")
                continue
            theirs = sess.run(None, {"x": x})[0].astype(np.int64) - (0 if signed else 128)
            ref = subprocess.run([args.npugen, "reference", "--onnx", str(d / "model.onnx"),
                                  "--input", str(d / "input.npy"), "--out", str(d / "ref")],
                                 capture_output=True, text=True)
            if ref.returncode != 0:
                wrong.append(f"{name}: npugen reference exited {ref.returncode}: "
                             f"{ref.stderr.strip()[-300:]}")
                continue
            ours = np.load(d / "ref" / "output.npy").astype(np.int64)
            ours = ours.reshape(1, SHAPE[2], SHAPE[3], SHAPE[1]).transpose(0, 3, 1, 2)
            diff = np.abs(ours - theirs)
            status = "exact" if diff.max() == 0 else f"DIFFERS (max {diff.max()}, " \
                                                     f"{int((diff > 0).sum())} of 256)"
            if diff.max() != 0:
                wrong.append(f"{name}: {status}")
            npu = "-"
            if k == 0:
                npu, failure = npu_check(args.npugen, args.config, args.design,
                                         d / "model.onnx", d / "input.npy", d)
                if failure or npu != "bit-exact":
                    wrong.append(failure or f"{name}: the NPU: {npu}")
            rows.append(f"{name:28} vs ONNX Runtime {status:10} NPU {npu}")
    print("\n".join(rows))
    exact = sum(" exact " in r for r in rows)
    print(f"{len(rows)} models: {exact} equal to ONNX Runtime on all 256 inputs")
    if wrong:
        print("\n".join(wrong))
        sys.exit(1)
    if exact == 0:
        sys.exit("no model was compared")


if __name__ == "__main__":
    main()
