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
q_conv("concat_height", extra_nodes=[
    helper.make_node("QLinearConcat", ["y_s", "y_z", "yq", "y_s", "y_z", "yq", "y_s", "y_z"],
                     ["cat"], name="cat", domain="com.microsoft", axis=2)])
bad("concat_height", "node cat (QLinearConcat): it concatenates along axis 2: only the channels "
    "(axis 1) are mapped")
scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
q_conv("resize_linear", extra_inits=[scales], extra_nodes=[
    helper.make_node("Resize", ["yq", "", "scales"], ["up"], name="up", mode="linear")])
bad("resize_linear", "node up (Resize): its mode linear is not mapped (nearest only)")
q_conv("resize_ceil", extra_inits=[scales], extra_nodes=[
    helper.make_node("Resize", ["yq", "", "scales"], ["up"], name="up", mode="nearest",
                     coordinate_transformation_mode="asymmetric",
                     nearest_mode="round_prefer_ceil")])
bad("resize_ceil", "node up (Resize): with coordinate_transformation_mode asymmetric and "
    "nearest_mode round_prefer_ceil, output row 1 reads input row 1, not 0")
# A fractional scale whose output is still twice the input (6 x 2.1 = 12.6: 12 rows): ONNX
# Runtime maps with 2.1, so output row 2 reads input row 0.
q_conv("resize_fraction", extra_inits=[
    numpy_helper.from_array(np.array([1, 1, 2.1, 2.1], np.float32), "scales")], extra_nodes=[
    helper.make_node("Resize", ["yq", "", "scales"], ["up"], name="up", mode="nearest",
                     coordinate_transformation_mode="asymmetric", nearest_mode="floor")])
bad("resize_fraction", "output row 2 reads input row 0, not 1")
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



def qdq_matmul(name, axis):
    """A QDQ MatMul over [1][16] with int8 weights [16][8] whose per-channel scales run along
    `axis` (1: its output channels, as ONNX Runtime's quantizer writes them)."""
    k = 16 if axis == 0 else 8
    inits = [numpy_helper.from_array(np.array(0.02, np.float32), "s"),
             numpy_helper.from_array(np.array(0, np.int8), "z"),
             numpy_helper.from_array(np.ones((16, 8), np.int8), "w"),
             numpy_helper.from_array(np.full((k,), 0.01, np.float32), "w_s"),
             numpy_helper.from_array(np.zeros((k,), np.int8), "w_z")]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="quant"),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"], name="deq_x"),
             helper.make_node("DequantizeLinear", ["w", "w_s", "w_z"], ["wd"], name="deq_w",
                              axis=axis),
             helper.make_node("MatMul", ["xd", "wd"], ["yf"], name="mm"),
             helper.make_node("QuantizeLinear", ["yf", "s", "z"], ["yq"], name="quant_y"),
             helper.make_node("DequantizeLinear", ["yq", "s", "z"], ["y"], name="deq_y")]
    graph = helper.make_graph(nodes, name,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, out / f"{name}.onnx")


qdq_matmul("matmul_axis1", 1)  # imports (bad_input.sh checks)
qdq_matmul("matmul_axis0", 0)
bad("matmul_axis0", "node mm (MatMul): its weights' per-channel scales are along axis 0, not "
    "axis 1 (its output channels: [inputs][outputs])")

# Models that break ONNX's own rules (ONNX Runtime refuses each: checked below).
def edited(name, edit):
    """good.onnx changed by edit(model); saved as NAME.onnx and to be refused by ONNX Runtime."""
    m = onnx.load(out / "good.onnx")
    edit(m)
    onnx.save(m, out / f"{name}.onnx")
    ort_refuses.append(name)


def tensor(m, name):
    return next(t for t in m.graph.initializer if t.name == name)


ort_refuses = []
# An input nothing defines (QLinearConv's x_scale, an input npugen does not read).
edited("undefined_input", lambda m: m.graph.node[1].input.__setitem__(1, "nothing"))
bad("undefined_input", "node conv (QLinearConv): its input nothing is not an initializer, the "
    "graph's input or an earlier node's output")


def raw_wrong_size(m):  # raw_data of 5 bytes beside float_data of the right count
    t = tensor(m, "w_s")
    t.float_data.extend([0.01] * 8)
    t.raw_data = b"\0" * 5


edited("raw_data_size", raw_wrong_size)
bad("raw_data_size", "node conv (QLinearConv): tensor w_s has 5 bytes of raw_data, not 32 (8 "
    "elements of 4 bytes)")


def raw_too_long(m):  # a scalar's raw_data of 8 bytes
    tensor(m, "y_s").raw_data = b"\0" * 8


edited("raw_data_long", raw_too_long)
bad("raw_data_long", "tensor y_s has 8 bytes of raw_data, not 4 (1 element of 4 bytes)")


def typed_count(m):  # no raw_data, float_data of 9 values for 8 elements
    t = tensor(m, "w_s")
    t.ClearField("raw_data")
    t.float_data.extend([0.01] * 9)


edited("typed_data_count", typed_count)
bad("typed_data_count", "node conv (QLinearConv): tensor w_s holds 9 values for its 8 elements")


def huge_dims(m):  # dimensions whose product overflows 64 bits
    t = tensor(m, "w_s")
    del t.dims[:]
    t.dims.extend([1 << 32, 1 << 32, 1 << 32, 0])


edited("dims_overflow", huge_dims)
bad("dims_overflow", "node conv (QLinearConv): tensor w_s has a dimension 4294967296")
# A name defined twice: by two nodes, by a node and an initializer, by a node and the graph's
# input, twice by one node.
edited("output_twice", lambda m: m.graph.node.insert(
    1, helper.make_node("Identity", ["x"], ["xq"], name="again")))
bad("output_twice", "node again (Identity): its output xq is already defined (by node quant "
    "(QuantizeLinear))")


def output_is_initializer(m):
    m.graph.node[1].output[0] = "w_z"
    m.graph.node[2].input[0] = "w_z"


edited("output_is_initializer", output_is_initializer)
bad("output_is_initializer", "node conv (QLinearConv): its output w_z is already defined (by an "
    "initializer)")


def output_is_input(m):
    m.graph.node[0].output[0] = "x"
    m.graph.node[1].input[0] = "x"


edited("output_is_input", output_is_input)
bad("output_is_input", "node quant (QuantizeLinear): its output x is already defined (by the "
    "graph's input)")
edited("output_twice_in_node", lambda m: m.graph.node[1].output.append("yq"))
bad("output_twice_in_node", "node conv (QLinearConv): its output yq is already defined (by this "
    "node)")



def conv_attribute(attribute, twice=False):
    def edit(m):
        conv = m.graph.node[1]
        if not twice:
            kept = [a for a in conv.attribute if a.name != attribute.name]
            del conv.attribute[:]
            conv.attribute.extend(kept)
        conv.attribute.append(attribute)
    return edit


# An attribute of another type than its operator's, or given twice.
edited("attribute_type", conv_attribute(helper.make_attribute("strides", 2)))
bad("attribute_type", "node conv (QLinearConv): its attribute strides is of type INT, not INTS")
edited("attribute_twice", conv_attribute(helper.make_attribute("pads", [0, 0, 0, 0]), True))
bad("attribute_twice", "node conv (QLinearConv): its attribute pads is given twice")
edited("attribute_unknown", conv_attribute(helper.make_attribute("bogus", 1)))
bad("attribute_unknown", "node conv (QLinearConv): it has an attribute bogus that QLinearConv "
    "does not define")



def conv_reads_scale(m):  # QLinearConv reads its input with 0.03, the tensor has 0.02
    m.graph.initializer.append(numpy_helper.from_array(np.array(0.03, np.float32), "x_s2"))
    m.graph.node[1].input[1] = "x_s2"


m = onnx.load(out / "good.onnx")
conv_reads_scale(m)
onnx.save(m, out / "input_scale.onnx")
bad("input_scale", "node conv (QLinearConv): its input xq is read with scale 0.03 and zero point "
    "0 (int8), not the tensor's 0.02 and 0 (int8)")

# com.microsoft's QLinearGlobalAveragePool reading NHWC (channels_last 1).
gap = helper.make_node("QLinearGlobalAveragePool", ["yq", "y_s", "y_z", "y_s", "y_z"], ["gq"],
                       name="gap", domain="com.microsoft", channels_last=1)
q_conv("channels_last", extra_nodes=[gap])
bad("channels_last", "node gap (QLinearGlobalAveragePool): channels_last 1 is not mapped")

# A QuantizeLinear without a zero point quantizes to uint8 (zero point 0): not a bad model, but
# npugen's output must be ONNX Runtime's (bad_input.sh compares them).
inits = [numpy_helper.from_array(np.array(0.1, np.float32), "s")]
nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["xq"], name="quant"),
         helper.make_node("MaxPool", ["xq"], ["p"], name="pool", kernel_shape=[2, 2]),
         helper.make_node("DequantizeLinear", ["p", "s"], ["y"], name="deq")]
graph = helper.make_graph(nodes, "no_zero_point",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
onnx.save(m, out / "no_zero_point.onnx")

# ONNX Runtime accepts the control and refuses every model above.
import onnxruntime as ort  # noqa: E402

ort.set_default_logger_severity(4)


def ort_accepts(name):
    try:
        ort.InferenceSession(str(out / f"{name}.onnx"), providers=["CPUExecutionProvider"]).run(
            None, {"x": np.zeros((1, 4, 6, 6), np.float32)})
        return True
    except Exception:  # noqa: BLE001 (any refusal)
        return False


if not ort_accepts("good"):
    sys.exit("bad_models.py: ONNX Runtime refuses the control model")
x = np.random.default_rng(1).normal(0, 3, (1, 4, 4, 4)).astype(np.float32)  # half negative
np.save(out / "no_zero_point_input.npy", x)
y = ort.InferenceSession(str(out / "no_zero_point.onnx"), providers=["CPUExecutionProvider"]).run(
    None, {"x": x})[0]
# ONNX Runtime's uint8 result, NHWC as npugen writes it (int8: the uint8 value - 128).
np.save(out / "no_zero_point_expected.npy",
        (np.rint(y / np.float32(0.1)).astype(np.int64) - 128).transpose(0, 2, 3, 1))
accepted = [name for name in ort_refuses if ort_accepts(name)]
if accepted:
    sys.exit(f"bad_models.py: ONNX Runtime accepts {', '.join(accepted)}")

# Corrupt and truncated files.
good = (out / "good.onnx").read_bytes()
(out / "truncated.onnx").write_bytes(good[: len(good) // 2])
bad("truncated", "is not an ONNX model (the protobuf does not parse")
(out / "garbage.onnx").write_bytes(b"\xff" * 64)
bad("garbage", "is not an ONNX model (the protobuf does not parse")
(out / "expected.txt").write_text("\n".join(expected) + "\n")
