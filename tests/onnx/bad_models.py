#!/usr/bin/env python3
"""ONNX models npugen must refuse (tests/onnx/bad_input.sh): each names the problem that
its message must name. Writes OUT_DIR/<name>.onnx and OUT_DIR/expected.txt (name, then the
text the error must hold, tab-separated)."""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
expected = []


def q_conv(name, extra_nodes=(), group=1, dilations=None, w_dtype=np.int8, opset=17,
           inputs=None, dims=(1, 4, 6, 6), w_value=1, extra_inits=()):
    """A QOperator conv net: QuantizeLinear, QLinearConv, DequantizeLinear."""
    c = dims[1]
    inits = [numpy_helper.from_array(np.array(0.02, np.float32), "x_s"),
             numpy_helper.from_array(np.array(0, np.int8), "x_z"),
             numpy_helper.from_array(np.full((8, c // group, 3, 3), w_value, w_dtype), "w"),
             numpy_helper.from_array(np.full((8,), 0.01, np.float32), "w_s"),
             numpy_helper.from_array(np.zeros((8,), w_dtype), "w_z"),
             numpy_helper.from_array(np.array(0.05, np.float32), "y_s"),
             numpy_helper.from_array(np.array(0, np.int8), "y_z")] + list(extra_inits)
    attrs = {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "group": group}
    if dilations:
        attrs["dilations"] = dilations
    nodes = [helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"], name="quant"),
             helper.make_node("QLinearConv", ["xq", "x_s", "x_z", "w", "w_s", "w_z", "y_s",
                                              "y_z"], ["yq"], name="conv", **attrs)]
    nodes += list(extra_nodes)
    last = nodes[-1].output[0]
    nodes.append(helper.make_node("DequantizeLinear", [last, "y_s", "y_z"], ["y"], name="deq"))
    graph_inputs = inputs or [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(dims))]
    graph = helper.make_graph(nodes, name, graph_inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.save(model, out / f"{name}.onnx")


def bad(name, text):
    expected.append(f"{name}\t{text}")


q_conv("good")  # the control: it imports
q_conv("group", group=2)
bad("group", "node conv (QLinearConv): group convolution is not mapped")
q_conv("dilation", dilations=[2, 2])
bad("dilation", "node conv (QLinearConv): dilation 2")
q_conv("opset", opset=7)
bad("opset", "opset 7 of the default domain; npugen maps opsets 10 to 25")
q_conv("softmax", extra_nodes=[helper.make_node("Softmax", ["yq"], ["sm"], name="soft")])
bad("softmax", "node soft (Softmax): this operator is not mapped")
q_conv("two_inputs", inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6, 6]),
                             helper.make_tensor_value_info("x2", TensorProto.FLOAT, [1, 4, 6, 6])])
bad("two_inputs", "the graph has 2 inputs besides its initializers")
q_conv("dynamic", inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "C", 6, 6])])
bad("dynamic", "dynamic dimension 1 (C) without a given size")
q_conv("uint8_weights", w_dtype=np.uint8, w_value=200)  # 200 - 0 is not int8
bad("uint8_weights", "its weights minus their zero point (200 - 0) do not fit int8")

# Float weights in the middle: a QDQ graph whose Conv takes float weights.
inits = [numpy_helper.from_array(np.array(0.02, np.float32), "s"),
         numpy_helper.from_array(np.array(0, np.int8), "z"),
         numpy_helper.from_array(np.ones((8, 4, 3, 3), np.float32), "wf")]
nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="quant"),
         helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"], name="deq_x"),
         helper.make_node("Conv", ["xd", "wf"], ["yf"], name="float_conv", pads=[1, 1, 1, 1]),
         helper.make_node("QuantizeLinear", ["yf", "s", "z"], ["yq"], name="quant_y"),
         helper.make_node("DequantizeLinear", ["yq", "s", "z"], ["y"], name="deq_y")]
graph = helper.make_graph(nodes, "float_weights",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
onnx.save(m, out / "float_weights.onnx")
bad("float_weights", "node float_conv (Conv): its weights are not the DequantizeLinear of int8")

# Corrupt and truncated files.
good = (out / "good.onnx").read_bytes()
(out / "truncated.onnx").write_bytes(good[: len(good) // 2])
bad("truncated", "is not an ONNX model (the protobuf does not parse")
(out / "garbage.onnx").write_bytes(b"\xff" * 64)
bad("garbage", "is not an ONNX model (the protobuf does not parse")
(out / "expected.txt").write_text("\n".join(expected) + "\n")
