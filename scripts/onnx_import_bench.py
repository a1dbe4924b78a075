#!/usr/bin/env python3
"""Import time of a deep ONNX model (issue 16's measure): a chain of LAYERS QOperator layers
(QLinearConv 3x3, 16 -> 16 channels on 16 x 16, every fourth followed by MaxPool 1x1 to vary
the operators), written with onnx.helper; `npugen onnx-info` and `npugen compile` on it,
timed (the best of REPEAT runs) against `npugen --version` (the process's own start).

  onnx_import_bench.py NPUGEN CONFIG [--layers 100] [--repeat 5]
"""
import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(layers):
    rng = np.random.default_rng(3)
    c = 16
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "s"),
             numpy_helper.from_array(np.array(0, np.int8), "z"),
             numpy_helper.from_array(np.full((c,), 0.01, np.float32), "w_s"),
             numpy_helper.from_array(np.zeros((c,), np.int8), "w_z")]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["t0"], name="quant")]
    t = "t0"
    for i in range(layers):
        w = f"w{i}"
        inits.append(numpy_helper.from_array(
            rng.integers(-8, 9, size=(c, c, 3, 3)).astype(np.int8), w))
        nodes.append(helper.make_node("QLinearConv", [t, "s", "z", w, "w_s", "w_z", "s", "z"],
                                      [f"c{i}"], name=f"conv{i}", kernel_shape=[3, 3],
                                      pads=[1, 1, 1, 1]))
        t = f"c{i}"
        if i % 4 == 3:
            nodes.append(helper.make_node("MaxPool", [t], [f"p{i}"], name=f"pool{i}",
                                          kernel_shape=[1, 1]))
            t = f"p{i}"
    nodes.append(helper.make_node("DequantizeLinear", [t, "s", "z"], ["y"], name="deq"))
    graph = helper.make_graph(
        nodes, "deep", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def best(cmd, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("npugen")
    p.add_argument("config")
    p.add_argument("--layers", type=int, default=100)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "deep.onnx"
        m = model(a.layers)
        onnx.save(m, path)
        layers = a.layers + a.layers // 4
        base = best([a.npugen, "--version"], a.repeat)
        info = best([a.npugen, "onnx-info", str(path)], a.repeat)
        comp = best([a.npugen, "compile", a.config, "--onnx", str(path), "--out",
                     str(Path(d) / "out")], 1)
        print(f"{layers} layers ({a.layers} QLinearConv, {a.layers // 4} MaxPool; "
              f"{path.stat().st_size} bytes): onnx-info {info * 1000:.1f} ms, npugen's start "
              f"{base * 1000:.1f} ms, so the import {max(info - base, 0) * 1000:.1f} ms "
              f"({max(info - base, 0) / layers * 1e6:.0f} us a layer); compile (with the golden "
              f"model's run of every layer) {comp:.2f} s")


if __name__ == "__main__":
    main()
