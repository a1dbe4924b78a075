#!/usr/bin/env python3
"""A sweep of random small ONNX models (issue 16): float CNNs of one to four layers built with
onnx.helper (Conv with or without Relu, MaxPool, AveragePool, GlobalAveragePool, a residual Add,
Flatten and Gemm), calibrated on random inputs and quantized by ONNX Runtime's quantize_static (QDQ or
QOperator, uint8 or int8 activations, per-channel or per-tensor weights, drawn per model);
each through `npugen reference` and compared with ONNX Runtime on fresh inputs, and one in
ten also through `npugen run` on the default NPU (bit-exact against the reference). A test
tool, not part of the product.

Every model must import (npugen maps every operator and attribute drawn here). Its first
layer's tensor must be within 1 LSB of ONNX Runtime's (both see the same quantized input and
requantize the same accumulators, in float and in fixed point), and so must the output of a
model with one layer with weights; deeper, a 1 LSB difference in a layer's input can move the
next layer's output by more, so the end-to-end differences are reported, and an fc output's
top-1 index must be the same wherever ONNX Runtime's margin is above 8 LSB.

  random_graphs.py NPUGEN CONFIG DESIGN_DIR OUT_DIR [--models N] [--seed S]
"""
import argparse
import json
import subprocess
import warnings
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from npu_check import npu_check

warnings.filterwarnings("ignore")
import logging  # noqa: E402

logging.disable(logging.WARNING)
import onnxruntime as ort  # noqa: E402
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,  # noqa: E402
                                      quantize_static)


class Reader(CalibrationDataReader):
    def __init__(self, xs):
        self.it = iter([{"x": x} for x in xs])

    def get_next(self):
        return next(self.it, None)


def random_model(rng):
    """A float model and its input shape; the number of layers with weights."""
    n_img = int(rng.integers(1, 3))
    c, h, w = int(rng.integers(1, 9)), int(rng.integers(4, 11)), int(rng.integers(4, 11))
    shape = [n_img, c, h, w]
    nodes, inits = [], []
    t, weighted = "x", 0
    layers = int(rng.integers(1, 5))
    for i in range(layers):
        # The first layer has weights: ONNX Runtime leaves a pool on the float input in float.
        kind = rng.choice(["conv", "conv", "pool", "add", "fc", "gap"]) if i > 0 else "conv"
        if kind == "fc" and i != layers - 1:
            kind = "conv"
        if kind == "conv":
            k = int(rng.integers(1, 4))
            s = int(rng.integers(1, 3))
            p = int(rng.integers(0, k))
            if h + 2 * p < k or w + 2 * p < k:
                k, p = 1, 0
            oc = int(rng.integers(1, 13))
            inits += [numpy_helper.from_array(rng.normal(0, 0.5, (oc, c, k, k)).astype(np.float32), f"w{i}"),
                      numpy_helper.from_array(rng.normal(0, 0.2, (oc,)).astype(np.float32), f"b{i}")]
            nodes.append(helper.make_node("Conv", [t, f"w{i}", f"b{i}"], [f"c{i}"], name=f"conv{i}",
                                          kernel_shape=[k, k], strides=[s, s], pads=[p, p, p, p]))
            t = f"c{i}"
            c, h, w = oc, (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
            weighted += 1
            if rng.random() < 0.6:
                nodes.append(helper.make_node("Relu", [t], [f"r{i}"], name=f"relu{i}"))
                t = f"r{i}"
        elif kind == "pool":
            if h < 2 or w < 2:
                continue
            op = "MaxPool" if rng.random() < 0.5 else "AveragePool"
            nodes.append(helper.make_node(op, [t], [f"p{i}"], name=f"pool{i}", kernel_shape=[2, 2],
                                          strides=[2, 2]))
            t = f"p{i}"
            h, w = h // 2, w // 2
        elif kind == "gap":  # global average pooling
            nodes.append(helper.make_node("GlobalAveragePool", [t], [f"g{i}"], name=f"gap{i}"))
            t = f"g{i}"
            h = w = 1
        elif kind == "add":  # a residual: t + conv1x1(t)
            inits += [numpy_helper.from_array(rng.normal(0, 0.5, (c, c, 1, 1)).astype(np.float32), f"w{i}"),
                      numpy_helper.from_array(rng.normal(0, 0.2, (c,)).astype(np.float32), f"b{i}")]
            nodes += [helper.make_node("Conv", [t, f"w{i}", f"b{i}"], [f"c{i}"], name=f"conv{i}",
                                       kernel_shape=[1, 1]),
                      helper.make_node("Add", [t, f"c{i}"], [f"a{i}"], name=f"add{i}")]
            t = f"a{i}"
            weighted += 1
        else:  # fc
            k = int(rng.integers(2, 11))
            features = c * h * w
            if features > 256:
                continue
            inits += [numpy_helper.from_array(rng.normal(0, 0.3, (k, features)).astype(np.float32), f"w{i}"),
                      numpy_helper.from_array(rng.normal(0, 0.2, (k,)).astype(np.float32), f"b{i}")]
            nodes += [helper.make_node("Flatten", [t], [f"f{i}"], name=f"flatten{i}"),
                      helper.make_node("Gemm", [f"f{i}", f"w{i}", f"b{i}"], [f"g{i}"], name=f"fc{i}",
                                       transB=1)]
            t = f"g{i}"
            weighted += 1
    if not nodes:
        return None, None, 0
    nodes.append(helper.make_node("Identity", [t], ["y"], name="out"))
    graph = helper.make_graph(nodes, "random",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m, shape, weighted


def output_quant(model_path):
    """The quantized model's output scale, zero point and its uint8-ness."""
    m = onnx.load(model_path)
    inits = {t.name: t for t in m.graph.initializer}
    out = m.graph.output[0].name
    node = next(n for n in m.graph.node if out in n.output)
    while node.op_type == "Identity":
        node = next(n for n in m.graph.node if node.input[0] in n.output)
    assert node.op_type == "DequantizeLinear", node.op_type
    s = numpy_helper.to_array(inits[node.input[1]]).item()
    z = numpy_helper.to_array(inits[node.input[2]])
    return s, int(z.item()), z.dtype == np.uint8


def layer_tensors(info, path, x):
    """Per imported layer (onnx-info's table): its op and ONNX Runtime's tensor of the layer's
    last node (int8 NHWC), or None when the next layer ends at the same node (a pool that
    requantizes is a pool and a gain_bias)."""
    import re
    rows = [line for line in info.splitlines() if line[:1] == "l" and line.split()[0][1:].isdigit()]
    ops = [r.split()[1] for r in rows]
    lasts = [re.findall(r"node (\S+) \(", r)[-1] for r in rows]
    m = onnx.load(path)
    outputs = {n.name: n.output[0] for n in m.graph.node}
    names = [outputs[lasts[i]] if i + 1 == len(lasts) or lasts[i + 1] != lasts[i] else None
             for i in range(len(lasts))]
    typed = {v.name: v for v in onnx.shape_inference.infer_shapes(m).graph.value_info}
    inits = {t.name: t for t in m.graph.initializer}
    act = next(inits[n.input[2]].data_type for n in m.graph.node if n.op_type == "QuantizeLinear")
    have = {o.name for o in m.graph.output}
    wanted = [n for n in dict.fromkeys(names) if n and n not in have]
    m.graph.output.extend(typed.get(n) or helper.make_tensor_value_info(n, act, None)
                          for n in wanted)
    wanted = [n for n in dict.fromkeys(names) if n]
    got = dict(zip(wanted, ort.InferenceSession(m.SerializeToString(),
                                                providers=["CPUExecutionProvider"]).run(
                                                    wanted, {"x": x})))
    out = []
    for op, name in zip(ops, names):
        t = got.get(name) if name else None
        if t is not None and t.dtype.kind == "f":
            t = None  # the dequantized output: compared as the model's output
        if t is not None:
            t = t.astype(np.int64) - (128 if t.dtype == np.uint8 else 0)
            t = t.transpose(0, 2, 3, 1) if t.ndim == 4 else t
        out.append((op, t))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("npugen")
    p.add_argument("config")
    p.add_argument("design")
    p.add_argument("out", type=Path)
    p.add_argument("--models", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    rows, failures, made, per_op = [], [], 0, {}
    while made < a.models:
        model, shape, weighted = random_model(rng)
        if model is None:
            continue
        d = a.out / f"m{made:03d}"
        d.mkdir(exist_ok=True)
        onnx.save(model, d / "float.onnx")
        cal = [rng.normal(0, 1, shape).astype(np.float32) for _ in range(8)]
        fmt = QuantFormat.QDQ if rng.random() < 0.5 else QuantFormat.QOperator
        act = QuantType.QUInt8 if rng.random() < 0.5 else QuantType.QInt8
        per_channel = bool(rng.random() < 0.7)
        quantize_static(str(d / "float.onnx"), str(d / "q.onnx"), Reader(cal), quant_format=fmt,
                        per_channel=per_channel, activation_type=act, weight_type=QuantType.QInt8,
                        reduce_range=True)  # exact ONNX Runtime kernels without VNNI

        x = rng.normal(0, 1, shape).astype(np.float32)
        np.save(d / "input.npy", x)
        y = ort.InferenceSession(str(d / "q.onnx"), providers=["CPUExecutionProvider"]).run(
            None, {"x": x})[0]
        made += 1
        row = {"model": d.name, "format": "QDQ" if fmt == QuantFormat.QDQ else "QOperator",
               "uint8": act == QuantType.QUInt8, "per_channel": per_channel,
               "weighted_layers": weighted}
        ref = subprocess.run([a.npugen, "reference", "--onnx", str(d / "q.onnx"), "--input",
                              str(d / "input.npy"), "--out", str(d / "ref")],
                             capture_output=True, text=True)
        if ref.returncode != 0:
            failures.append(f"{d.name}: npugen reference exited {ref.returncode}: "
                            f"{ref.stderr.strip()[:300]}")
            row["result"] = "not imported"
            rows.append(row)
            continue
        scale, zp, u8 = output_quant(d / "q.onnx")
        q_ort = np.rint(y / np.float32(scale)).astype(np.int64) + zp - (128 if u8 else 0)
        ours = np.load(d / "ref" / "output.npy").astype(np.int64)
        if q_ort.ndim == 4:
            q_ort = q_ort.transpose(0, 2, 3, 1)
        ours = ours.reshape(q_ort.shape)
        diff = np.abs(ours - q_ort)
        row.update(equal=float(np.mean(diff == 0)), max_diff=int(diff.max()))
        # The imported layers that requantize (a pool whose output scale differs is a pool and
        # a gain_bias: it rounds twice).
        info = subprocess.run([a.npugen, "onnx-info", str(d / "q.onnx")], capture_output=True,
                              text=True, check=True).stdout
        ops = [line.split()[1] for line in info.splitlines() if line[:1] == "l" and
               line.split()[0][1:].isdigit()]
        requantizing = sum(op in ("conv", "fc", "add", "gain_bias", "reduce_sum") for op in ops)
        row["layers"] = ops
        if requantizing <= 1 and diff.max() > 1:
            failures.append(f"{d.name} ({row['format']}, one requantizing layer): max "
                            f"|difference| {diff.max()} LSB")
        if q_ort.ndim == 2 and q_ort.shape[1] > 1:  # the class where the margin is clear
            top = np.sort(q_ort, axis=1)
            clear = top[:, -1] - top[:, -2] > 8
            same = ours.argmax(axis=1) == q_ort.argmax(axis=1)
            if not same[clear].all():
                failures.append(f"{d.name}: the top-1 index differs where ONNX Runtime's margin "
                                f"is above 8 LSB")
        # Layer by layer against ONNX Runtime's tensors: the first layer (the same quantized
        # input on both sides) within 1 LSB; per operator, the layers whose every earlier
        # layer equals ONNX Runtime's (so their inputs are the same).
        clean = True
        for i, (op, t) in enumerate(layer_tensors(info, d / "q.onnx", x)):
            if t is None:
                continue
            mine = np.load(d / "ref" / "layers" / f"l{i}.npy").astype(np.int64).reshape(t.shape)
            dl = np.abs(mine - t)
            if i == 0:
                row.update(first_equal=float(np.mean(dl == 0)), first_max=int(dl.max()))
                if dl.max() > 1:
                    failures.append(f"{d.name}: the first layer is {dl.max()} LSB from ONNX "
                                    "Runtime's")
            if clean:
                st = per_op.setdefault(op, [0, 0, 0, 0])  # layers, elements, equal, max
                st[0] += 1
                st[1] += dl.size
                st[2] += int((dl == 0).sum())
                st[3] = max(st[3], int(dl.max()))
            clean = clean and dl.max() == 0
        if made % 10 == 1:  # a sample through the NPU
            row["npu"], failure = npu_check(a.npugen, a.config, a.design, d / "q.onnx",
                                            d / "input.npy", d)
            if failure:
                failures.append(failure)
        row["result"] = "compared"
        rows.append(row)
    (a.out / "sweep.json").write_text(json.dumps(rows, indent=1) + "\n")
    compared = [r for r in rows if r["result"] == "compared"]
    equal = np.mean([r["equal"] for r in compared]) if compared else 0
    hist = {k: sum(r["max_diff"] == k for r in compared) for k in range(0, 4)}
    npu = [r for r in rows if "npu" in r]
    for op, (layers, elements, same, most) in sorted(per_op.items()):
        print(f"{op:10} {layers:4} layers whose inputs equal ONNX Runtime's: {same / elements:.2%} "
              f"of {elements} values equal, max |difference| {most}")
    (a.out / "per_op.json").write_text(json.dumps(per_op, indent=1) + "\n")
    first = np.mean([r["first_equal"] for r in compared]) if compared else 0
    print(f"first layers: {first:.2%} equal to ONNX Runtime's on average, max |difference| "
          f"{max((r['first_max'] for r in compared), default=0)}")
    print(f"{len(rows)} random models ({sum(r['format'] == 'QDQ' for r in rows)} QDQ, "
          f"{sum(r['format'] == 'QOperator' for r in rows)} QOperator): {len(compared)} imported "
          f"and compared, {equal:.2%} of the outputs equal to ONNX Runtime's on average; max "
          f"|difference| 0: {hist[0]}, 1: {hist[1]}, 2: {hist[2]}, 3+: "
          f"{len(compared) - hist[0] - hist[1] - hist[2]} models; through the NPU "
          f"{sum(r['npu'] == 'bit-exact' for r in npu)} of {len(npu)} bit-exact")
    if failures:
        print("\n".join(failures))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
