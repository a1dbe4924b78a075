#!/usr/bin/env python3
"""The edge model zoo: float ONNX models of the architectures people deploy, at their
published shapes and with deterministic random weights (numpy default_rng), quantized by ONNX
Runtime's quantize_static, each through `npugen reference` (does npugen import it; when it
does, its output against ONNX Runtime's on fresh random inputs) and `npugen compile` (the
golden model's expected cycles). A test tool, not part of the product: it reports, it does
not judge (exit status 1 only when npugen crashes, not when it refuses a model).

Models (batch norm folded into the conv weights and biases, as exported models look after
folding; the batch dimension dynamic; `--width` scales the channels as each family's own
multiplier does, rounded to multiples of 8; `--size` is the input's height and width):

  resnet18, resnet50   torchvision's: 7x7/2 stem, 3x3/2 max pool, basic or bottleneck blocks
                       (stride in the 3x3) with 1x1 projection shortcuts, GlobalAveragePool,
                       Flatten, Gemm to 1000; input 224
  mlp                  a transformer-ish MLP on a flattened input, [N][3 x (size/4)^2] (a
                       ViT-B/16 patch at 64): MatMul + Add to d = 768 x width, Relu, to 4d,
                       Relu, back to d
  mobilenetv2          torchvision's: inverted residuals, depthwise 3x3 (group = C), ReLU6 as
                       Clip(0, 6), the last 1x1 conv to 1280 x max(1, width); input 224
  squeezenet1_1        torchvision's: fire modules (squeeze 1x1, expand 1x1 and 3x3, Concat),
                       max pools with ceil_mode 1, a 1x1 conv to 1000 and a global average pool
  efficientnet_lite0   EfficientNet-B0 without squeeze-excitation, ReLU6 and the stem (32) and
                       head (1280) fixed: depthwise 3x3 and 5x5; input 224
  yolov3_tiny          darknet's yolov3-tiny.cfg: 3x3 convs with LeakyRelu 0.1, 2x2 max pools
                       (the last of stride 1, padded right and bottom), a 1x1 branch Resized
                       x2 (nearest) and Concatenated with the stride-16 map, two heads of 255
                       channels: TWO graph outputs; input 256
  yolov3_tiny_heads    its backbone and both heads, the stride-16 head from the stride-16
                       map without the Resize and Concat path (whose concat at 256 x 256 is
                       not placed in the buffers on edge yet): TWO graph outputs; input 256

Each model is calibrated on 4 random inputs and quantized in the formats asked: qdq (QDQ,
int8 activations and weights) and qop (QOperator, uint8 activations, int8 weights), weights
per channel and of 7 bits (reduce_range, as in random_graphs.py: ONNX Runtime's u8 x s8
kernels are then exact on every CPU). Per model and format it prints one line: imported or
npugen's message (exit status 2: its first line); the max |difference| in LSB of npugen's
output (output.npy, int8 NHWC or [N][K]; with several outputs each output_<name>.npy, the
worst reported) from ONNX Runtime's output quantized back to npugen's int8 domain, the top-1
index agreement (a [N][K] output), the wall times of `npugen reference` (all the images) and
`npugen compile` (one image) and the compile report's expected_cycles; OUT_DIR/zoo.json has
it all (with each model's MACs, parameters and quantized operator types). Everything runs on one core: ONNX Runtime's sessions (the
calibrator's too) with one intra-op and one inter-op thread, BLAS and OpenMP with one.

  zoo.py NPUGEN CONFIG OUT_DIR [--models resnet18,mlp,...] [--width 0.25] [--size 64]
         [--formats qdq,qop] [--seed S] [--images N]
         [--run DESIGN_DIR] [--expect resnet18,...] [--max-lsb N]

--run also runs each compiled model's first image on the RTL (`npugen run`, the verilated
design in DESIGN_DIR): it must be bit-exact against the golden model and the reference
interpreter. --expect names models that must import, compile (and with --run, run) in every
format, within --max-lsb of ONNX Runtime and with its top-1 wherever ONNX Runtime's margin is
above 8 LSB: otherwise the exit status is 1 (CTest's zoo tests).
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy loads its BLAS

import argparse  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
import zlib  # noqa: E402
from collections import Counter, namedtuple  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)
import onnxruntime as ort  # noqa: E402
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,  # noqa: E402
                                      quantize_static)
from onnxruntime.quantization.shape_inference import quant_pre_process  # noqa: E402

CALIBRATION = 4  # random inputs to calibrate on
CLASSES = 1000
_SessionOptions = ort.SessionOptions


def one_thread_options():
    """SessionOptions of one thread. ONNX Runtime's calibrator makes its own session with
    onnxruntime.SessionOptions(), so that name is this function while the zoo runs."""
    o = _SessionOptions()
    o.intra_op_num_threads = 1
    o.inter_op_num_threads = 1
    o.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return o


ort.SessionOptions = one_thread_options


class Reader(CalibrationDataReader):
    def __init__(self, xs):
        self.it = iter([{"x": x} for x in xs])

    def get_next(self):
        return next(self.it, None)


T = namedtuple("T", "name c h w")  # a tensor being built: its name, shape ([N][c]: h, w None)


def shape(t):
    """A tensor's ONNX shape, the batch dynamic."""
    return ["N", t.c] + ([t.h, t.w] if t.h else [])


def divisible(v, divisor=8):
    """torchvision's _make_divisible: v rounded to a multiple of divisor, not below 90 % of v."""
    r = max(divisor, int(v + divisor / 2) // divisor * divisor)
    return r + divisor if r < 0.9 * v else r


class Net:
    """A float model being built with onnx.helper: its nodes, initializers, MACs and
    parameters; the weights drawn from rng (He-normal, the batch norm folded into them)."""

    def __init__(self, rng, c, h=None, w=None):
        self.rng, self.nodes, self.inits = rng, [], []
        self.macs = self.params = self.count = 0
        self.input = T("x", c, h, w)

    def _name(self, kind):
        self.count += 1
        return f"{kind}{self.count}"

    def const(self, value, kind):
        name = self._name(kind)
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(self, op, inputs, kind, **attrs):
        name = self._name(kind)
        self.nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def conv(self, t, cout, k, stride=1, pad=None, group=1, act=None, gain=1.0):
        """Conv (+ act): pad k // 2 unless given (an int, or [top, left, bottom, right])."""
        pads = [k // 2] * 4 if pad is None else [pad] * 4 if isinstance(pad, int) else pad
        fan_in = t.c // group * k * k
        w = self.rng.normal(0, gain * np.sqrt(2 / fan_in), (cout, t.c // group, k, k))
        b = self.rng.normal(0, 0.1, cout)
        attrs = {"group": group} if group != 1 else {}
        y = self.node("Conv", [t.name, self.const(w.astype(np.float32), "w"),
                               self.const(b.astype(np.float32), "b")], "conv",
                      kernel_shape=[k, k], strides=[stride, stride], pads=pads, **attrs)
        h = (t.h + pads[0] + pads[2] - k) // stride + 1
        w_ = (t.w + pads[1] + pads[3] - k) // stride + 1
        self.macs += cout * h * w_ * fan_in
        self.params += w.size + b.size
        return self.act(T(y, cout, h, w_), act)

    def act(self, t, act):
        if act == "relu":
            return t._replace(name=self.node("Relu", [t.name], "relu"))
        if act == "relu6":
            lo = self.const(np.array(0, np.float32), "lo")
            hi = self.const(np.array(6, np.float32), "hi")
            return t._replace(name=self.node("Clip", [t.name, lo, hi], "relu6_"))
        if act == "leaky":
            return t._replace(name=self.node("LeakyRelu", [t.name], "leaky", alpha=0.1))
        assert act is None, act
        return t

    def max_pool(self, t, k, stride, pad=0, ceil=False):
        pads = [pad] * 4 if isinstance(pad, int) else pad
        attrs = {"ceil_mode": 1} if ceil else {}
        y = self.node("MaxPool", [t.name], "pool", kernel_shape=[k, k], strides=[stride, stride],
                      pads=pads, **attrs)

        def out(n, lo, hi):
            span = n + lo + hi - k
            o = (span + (stride - 1 if ceil else 0)) // stride + 1
            return o - 1 if ceil and (o - 1) * stride >= n + lo else o  # starts in the input
        return T(y, t.c, out(t.h, pads[0], pads[2]), out(t.w, pads[1], pads[3]))

    def add(self, a, b):
        return a._replace(name=self.node("Add", [a.name, b.name], "add"))

    def concat(self, ts):
        return T(self.node("Concat", [t.name for t in ts], "concat", axis=1),
                 sum(t.c for t in ts), ts[0].h, ts[0].w)

    def upsample(self, t):
        """Resize x2, nearest (as PyTorch's nn.Upsample exports it)."""
        scales = self.const(np.array([1, 1, 2, 2], np.float32), "scales")
        y = self.node("Resize", [t.name, "", scales], "resize", mode="nearest",
                      coordinate_transformation_mode="asymmetric", nearest_mode="floor")
        return T(y, t.c, 2 * t.h, 2 * t.w)

    def flatten(self, t):
        return T(self.node("Flatten", [t.name], "flatten"), t.c * t.h * t.w, None, None)

    def matmul(self, t, k, act=None):
        """MatMul by a [features][k] matrix and Add of a bias (+ act): an fc as exported."""
        w = self.rng.normal(0, np.sqrt(2 / t.c), (t.c, k)).astype(np.float32)
        b = self.rng.normal(0, 0.1, k).astype(np.float32)
        y = self.node("MatMul", [t.name, self.const(w, "w")], "matmul")
        y = self.node("Add", [y, self.const(b, "b")], "bias")
        self.macs += t.c * k
        self.params += w.size + b.size
        return self.act(T(y, k, None, None), act)

    def classifier(self, t, classes=CLASSES):
        """GlobalAveragePool, Flatten and Gemm to the classes."""
        t = T(self.node("GlobalAveragePool", [t.name], "gap"), t.c, 1, 1)
        t = self.flatten(t)
        w = self.rng.normal(0, np.sqrt(1 / t.c), (classes, t.c)).astype(np.float32)
        b = self.rng.normal(0, 0.1, classes).astype(np.float32)
        self.macs += t.c * classes
        self.params += w.size + b.size
        return T(self.node("Gemm", [t.name, self.const(w, "w"), self.const(b, "b")], "fc",
                           transB=1), classes, None, None)

    def model(self, outputs):
        """The model, its graph outputs named y (y1, y2, ... for several)."""
        names = ["y"] if len(outputs) == 1 else [f"y{i + 1}" for i in range(len(outputs))]
        rename = {t.name: n for t, n in zip(outputs, names)}
        for n in self.nodes:
            n.output[:] = [rename.get(o, o) for o in n.output]
            n.input[:] = [rename.get(i, i) for i in n.input]
        x = self.input
        graph = helper.make_graph(
            self.nodes, "zoo",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape(x))],
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape(t))
             for t, n in zip(outputs, names)],
            self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m


def resnet(net, width, blocks, bottleneck):
    t = net.conv(net.input, divisible(64 * width), 7, 2, 3, act="relu")
    t = net.max_pool(t, 3, 2, 1)
    for stage, (n, planes) in enumerate(zip(blocks, (64, 128, 256, 512))):
        planes = divisible(planes * width)
        out = planes * 4 if bottleneck else planes
        for i in range(n):
            s = 2 if stage > 0 and i == 0 else 1
            if bottleneck:
                y = net.conv(t, planes, 1, act="relu")
                y = net.conv(y, planes, 3, s, act="relu")
                y = net.conv(y, out, 1, gain=0.5)
            else:
                y = net.conv(t, planes, 3, s, act="relu")
                y = net.conv(y, planes, 3, gain=0.5)
            shortcut = net.conv(t, out, 1, s) if s != 1 or t.c != out else t
            t = net.act(net.add(y, shortcut), "relu")
    return [net.classifier(t)]


def inverted_residual(net, t, out, k, stride, expand):
    """MobileNetV2's block (EfficientNet-Lite's MBConv): 1x1 expansion (unless 1), depthwise
    k x k, 1x1 projection without activation, the residual when the shape stays."""
    y = net.conv(t, int(round(t.c * expand)), 1, act="relu6") if expand != 1 else t
    y = net.conv(y, y.c, k, stride, group=y.c, act="relu6")
    residual = stride == 1 and t.c == out
    y = net.conv(y, out, 1, gain=0.5 if residual else 1.0)
    return net.add(t, y) if residual else y


def mobilenetv2(net, width):
    t = net.conv(net.input, divisible(32 * width), 3, 2, act="relu6")
    for expand, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                            (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            t = inverted_residual(net, t, divisible(c * width), 3, s if i == 0 else 1, expand)
    t = net.conv(t, divisible(1280 * max(1.0, width)), 1, act="relu6")
    return [net.classifier(t)]


def efficientnet_lite0(net, width):
    t = net.conv(net.input, 32, 3, 2, act="relu6")  # the stem and head are fixed in Lite
    for expand, k, s, c, n in [(1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 5, 2, 40, 2),
                               (6, 3, 2, 80, 3), (6, 5, 1, 112, 3), (6, 5, 2, 192, 4),
                               (6, 3, 1, 320, 1)]:
        for i in range(n):
            t = inverted_residual(net, t, divisible(c * width), k, s if i == 0 else 1, expand)
    t = net.conv(t, 1280, 1, act="relu6")
    return [net.classifier(t)]


def squeezenet1_1(net, width):
    def fire(t, squeeze, expand):
        s = net.conv(t, divisible(squeeze * width), 1, act="relu")
        return net.concat([net.conv(s, divisible(expand * width), 1, act="relu"),
                           net.conv(s, divisible(expand * width), 3, act="relu")])

    t = net.conv(net.input, divisible(64 * width), 3, 2, 0, act="relu")
    t = net.max_pool(t, 3, 2, ceil=True)
    t = fire(fire(t, 16, 64), 16, 64)
    t = net.max_pool(t, 3, 2, ceil=True)
    t = fire(fire(t, 32, 128), 32, 128)
    t = net.max_pool(t, 3, 2, ceil=True)
    for squeeze, expand in [(48, 192), (48, 192), (64, 256), (64, 256)]:
        t = fire(t, squeeze, expand)
    t = net.conv(t, CLASSES, 1, act="relu")
    t = T(net.node("GlobalAveragePool", [t.name], "gap"), t.c, 1, 1)
    return [net.flatten(t)]


def yolo_backbone(net, width):
    """YOLOv3-tiny's first layers: four 3x3 convs and 2x2 pools, the stride-16 map (route)
    and after its pool the 512-channel conv; -> (that conv's output, route)."""
    t = net.input
    for c in (16, 32, 64, 128):
        t = net.max_pool(net.conv(t, divisible(c * width), 3, act="leaky"), 2, 2)
    route = net.conv(t, divisible(256 * width), 3, act="leaky")
    return net.conv(net.max_pool(route, 2, 2), divisible(512 * width), 3, act="leaky"), route


def yolov3_tiny(net, width):
    t, route = yolo_backbone(net, width)
    t = net.max_pool(t, 2, 1, [0, 0, 1, 1])
    t = net.conv(t, divisible(1024 * width), 3, act="leaky")
    branch = net.conv(t, divisible(256 * width), 1, act="leaky")
    t = net.conv(branch, divisible(512 * width), 3, act="leaky")
    y1 = net.conv(t, 255, 1)  # 3 anchors x (80 classes + 5)
    t = net.upsample(net.conv(branch, divisible(128 * width), 1, act="leaky"))
    t = net.conv(net.concat([t, route]), divisible(256 * width), 3, act="leaky")
    return [y1, net.conv(t, 255, 1)]


def yolov3_tiny_heads(net, width):
    """YOLOv3-tiny's backbone and its two detection heads (strides 32 and 16), the second
    taken from the stride-16 feature map without the upsample-and-concat path (at 256 x 256
    on edge that concat's output does not fit beside the tensors in use, and a concat into
    system memory is not mapped yet): a two-output detector that runs there today."""
    t, route = yolo_backbone(net, width)
    t = net.conv(t, divisible(256 * width), 1, act="leaky")
    y1 = net.conv(net.conv(t, divisible(512 * width), 3, act="leaky"), 255, 1)
    t = net.conv(route, divisible(256 * width), 3, act="leaky")
    return [y1, net.conv(t, 255, 1)]


def mlp(net, width):
    d = divisible(768 * width)
    t = net.matmul(net.input, d, act="relu")
    t = net.matmul(t, 4 * d, act="relu")
    return [net.matmul(t, d)]


MODELS = {  # builder, input size published
    "resnet18": (lambda n, w: resnet(n, w, (2, 2, 2, 2), False), 224),
    "resnet50": (lambda n, w: resnet(n, w, (3, 4, 6, 3), True), 224),
    "mlp": (mlp, 224),
    "mobilenetv2": (mobilenetv2, 224),
    "squeezenet1_1": (squeezenet1_1, 224),
    "efficientnet_lite0": (efficientnet_lite0, 224),
    "yolov3_tiny": (yolov3_tiny, 256),
    "yolov3_tiny_heads": (yolov3_tiny_heads, 256),
}
FORMATS = {  # quant format, activation type
    "qdq": (QuantFormat.QDQ, QuantType.QInt8),
    "qop": (QuantFormat.QOperator, QuantType.QUInt8),
}


def build(name, width, size, seed):
    """The float model, its input shape [c][h][w], MACs and parameters. The weights are drawn
    from a generator of the seed and the model's name, whatever else runs."""
    builder, published = MODELS[name]
    size = size or published
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    net = Net(rng, 3 * (size // 4) ** 2) if name == "mlp" else Net(rng, 3, size, size)
    model = net.model(builder(net, width))
    return model, tuple(shape(net.input)[1:]), net.macs, net.params, rng


def output_quant(model, index):
    """The quantization of the graph's output `index` (the DequantizeLinear that makes it):
    scale, zero point, uint8-ness; None when ONNX Runtime left it in float."""
    inits = {t.name: t for t in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}
    node = producer.get(model.graph.output[index].name)
    while node is not None and node.op_type == "Identity":
        node = producer.get(node.input[0])
    if node is None or node.op_type != "DequantizeLinear":
        return None
    s = numpy_helper.to_array(inits[node.input[1]])
    if s.size != 1:
        return None
    z = (numpy_helper.to_array(inits[node.input[2]]) if len(node.input) > 2 and node.input[2]
         else np.zeros((), np.int8))
    return float(s.item()), int(z.item()), z.dtype == np.uint8


def first_line(proc):
    """The first line of npugen's message, without its "FILE: error: " prefix."""
    lines = (proc.stderr.strip() or proc.stdout.strip() or "(no message)").splitlines()
    return lines[0].split("error: ", 1)[-1]


def npugen(cmd, failures, what):
    """Run npugen; -> (process, seconds). Exit status 0 or 2 is a result, any other a
    failure (a crash)."""
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if proc.returncode not in (0, 2):
        failures.append(f"{what}: {' '.join(cmd)} exited {proc.returncode}: "
                        f"{(proc.stdout + proc.stderr)[-500:]}")
    return proc, seconds


def compare(q_model, y, ours_path, index=0):
    """npugen's output against ONNX Runtime's output `index` y (dequantized), in npugen's int8
    domain: max |difference|, equal fraction, top-1 agreement (a [N][K] output)."""
    quant = output_quant(q_model, index)
    if quant is None:
        return {"compare": "ONNX Runtime's output is not a DequantizeLinear"}
    scale, zp, u8 = quant
    q_ort = np.rint(y / np.float32(scale)).astype(np.int64) + zp - (128 if u8 else 0)
    if q_ort.ndim == 4:
        q_ort = q_ort.transpose(0, 2, 3, 1)
    ours = np.load(ours_path).astype(np.int64)
    if ours.size != q_ort.size:
        return {"compare": f"npugen's output has shape {list(ours.shape)}, ONNX Runtime's "
                           f"{list(q_ort.shape)}"}
    ours = ours.reshape(q_ort.shape)
    diff = np.abs(ours - q_ort)
    r = {"max_lsb": int(diff.max()), "equal": float(np.mean(diff == 0))}
    if q_ort.ndim == 2 and q_ort.shape[1] > 1:
        r["top1"] = int(np.sum(ours.argmax(axis=1) == q_ort.argmax(axis=1)))
        top = np.sort(q_ort, axis=1)
        r["ort_margin_min"] = int((top[:, -1] - top[:, -2]).min())
    return r


PRE_PROCESSED = {"mlp"}  # models quantized after quant_pre_process


def run_format(a, name, fmt, d, float_path, cal, x, failures):
    """One model in one format: quantize, ONNX Runtime, npugen reference and compile."""
    quant_format, act = FORMATS[fmt]
    q_path = d / f"{name}_{fmt}.onnx"  # (named for npugen regress's jobs)
    start = time.monotonic()
    if name in PRE_PROCESSED:
        # ONNX Runtime's recommended pre-processing: its optimizer fuses each MatMul and the
        # Add of its bias into a Gemm, whose bias is then quantized as int32 with the
        # product's scale (quantized on its own, the Add is not mapped yet).
        pre = d / "pre_processed.onnx"
        quant_pre_process(str(float_path), str(pre), skip_symbolic_shape=True)
        float_path = pre
    quantize_static(str(float_path), str(q_path), Reader(cal), quant_format=quant_format,
                    per_channel=True, activation_type=act, weight_type=QuantType.QInt8,
                    reduce_range=True)  # exact ONNX Runtime kernels without VNNI
    row = {"model": name, "format": fmt, "quantize_s": round(time.monotonic() - start, 2)}
    q_model = onnx.load(q_path)
    row["ops"] = dict(sorted(Counter(n.op_type for n in q_model.graph.node).items()))
    sess = ort.InferenceSession(str(q_path), one_thread_options(),
                                providers=["CPUExecutionProvider"])
    ys = sess.run(None, {"x": x})
    ref, seconds = npugen([a.npugen, "reference", "--onnx", str(q_path), "--input",
                           str(d / "input.npy"), "--out", str(d / f"{fmt}_ref")],
                          failures, f"{name} {fmt}")
    row["reference_s"] = round(seconds, 2)
    if ref.returncode != 0:
        row["imported"] = False
        row["message"] = first_line(ref)
        if ref.returncode != 2:
            row["message"] = f"npugen reference FAILED (exit {ref.returncode}): {row['message']}"
        return row
    row["imported"] = True
    if len(ys) == 1:
        row.update(compare(q_model, ys[0], d / f"{fmt}_ref" / "output.npy"))
    else:  # each output against npugen's output_<name>.npy; the row has the worst
        row["outputs"] = len(ys)
        parts = [compare(q_model, y, d / f"{fmt}_ref" / f"output_{o.name}.npy", k)
                 for k, (y, o) in enumerate(zip(ys, q_model.graph.output))]
        bad = [p for p in parts if "max_lsb" not in p]
        if bad:
            row.update(bad[0])
        else:
            row["max_lsb"] = max(p["max_lsb"] for p in parts)
            row["equal"] = float(np.mean([p["equal"] for p in parts]))
    comp, seconds = npugen([a.npugen, "compile", a.config, "--onnx", str(q_path), "--out",
                            str(d / f"{fmt}_compiled")], failures, f"{name} {fmt}")
    row["compile_s"] = round(seconds, 2)
    if comp.returncode == 0:
        report = json.loads((d / f"{fmt}_compiled" / "report.json").read_text())
        row["cycles"] = int(report["expected_cycles"])
        row["macs_1"] = sum(int(layer.get("macs", 0)) for layer in report["layers"])
        if a.run:
            np.save(d / "input1.npy", x[:1])
            run, seconds = npugen([a.npugen, "run", a.config, "--onnx", str(q_path), "--input",
                                   str(d / "input1.npy"), "--design", str(a.run), "--out",
                                   str(d / f"{fmt}_run")], failures, f"{name} {fmt} run")
            row["run_s"] = round(seconds, 2)
            row["rtl_exact"] = run.returncode == 0 and (
                "every layer equals the golden model and the reference interpreter" in run.stdout)
            if not row["rtl_exact"]:
                row["run_message"] = (run.stdout + run.stderr)[-400:]
    else:
        row["compile_message"] = first_line(comp)
        if comp.returncode != 2:
            row["compile_message"] = f"FAILED (exit {comp.returncode}): {row['compile_message']}"
    return row


def line(r):
    head = f"{r['model']:19}{r['format']:4} "
    if not r["imported"]:
        return head + f"not imported ({r['reference_s']:.2f} s): {r['message']}"
    if "max_lsb" in r:
        got = f"max {r['max_lsb']} LSB, {r['equal']:.2%} equal"
        if "top1" in r:
            got += f", top-1 {r['top1']}/{r['images']}"
    else:
        got = r["compare"]
    got += f"; reference {r['reference_s']:.2f} s, compile {r['compile_s']:.2f} s: "
    if "cycles" in r:
        got += f"{r['cycles']:,} cycles"
        if "rtl_exact" in r:
            got += (f"; RTL {'bit-exact' if r['rtl_exact'] else 'NOT bit-exact'} "
                    f"({r['run_s']:.1f} s)")
        return head + "imported: " + got
    return head + "imported: " + got + f"refused: {r['compile_message']}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("npugen")
    p.add_argument("config")
    p.add_argument("out", type=Path)
    p.add_argument("--models", default=",".join(MODELS),
                   help="comma-separated, of " + ", ".join(MODELS))
    p.add_argument("--width", type=float, default=1.0, help="width multiplier")
    p.add_argument("--size", type=int, default=None,
                   help="input height and width (default: each model's published)")
    p.add_argument("--formats", default="qdq,qop", help="comma-separated: qdq, qop")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--images", type=int, default=4, help="fresh inputs to compare on")
    p.add_argument("--run", type=Path, default=None,
                   help="design folder: run each compiled model's first image on the RTL")
    p.add_argument("--expect", default="",
                   help="comma-separated models that must import, compile and (--run) run")
    p.add_argument("--max-lsb", type=int, default=1,
                   help="the most an expected model's output may differ from ONNX Runtime's")
    a = p.parse_args()
    names = [m for m in a.models.split(",") if m]
    formats = [f for f in a.formats.split(",") if f]
    for bad in [m for m in names if m not in MODELS] + [f for f in formats if f not in FORMATS]:
        p.error(f"unknown model or format: {bad}")
    a.out.mkdir(parents=True, exist_ok=True)
    rows, failures = [], []
    for name in names:
        model, shape, macs, params, rng = build(name, a.width, a.size, a.seed)
        d = a.out / name
        d.mkdir(exist_ok=True)
        onnx.save(model, d / "float.onnx")
        cal = [rng.normal(0, 1, (1, *shape)).astype(np.float32) for _ in range(CALIBRATION)]
        x = rng.normal(0, 1, (a.images, *shape)).astype(np.float32)
        np.save(d / "input.npy", x)
        for fmt in formats:
            row = run_format(a, name, fmt, d, d / "float.onnx", cal, x, failures)
            row.update(width=a.width, input=list(shape), images=a.images, macs=macs,
                       params=params)
            rows.append(row)
            print(line(row), flush=True)
    summary = {"npugen": a.npugen, "config": a.config, "width": a.width, "size": a.size,
               "seed": a.seed, "images": a.images, "formats": formats, "models": rows}
    (a.out / "zoo.json").write_text(json.dumps(summary, indent=1) + "\n")
    expected = [m for m in a.expect.split(",") if m]
    for r in rows:
        if r["model"] not in expected:
            continue
        what = f"{r['model']} {r['format']}"
        if not r["imported"] or "cycles" not in r:
            failures.append(f"{what}: not imported or not compiled: "
                            f"{r.get('message', r.get('compile_message', r.get('compare')))}")
        elif r.get("max_lsb", a.max_lsb + 1) > a.max_lsb:
            failures.append(f"{what}: {r.get('max_lsb')} LSB from ONNX Runtime, above "
                            f"{a.max_lsb}")
        elif "top1" in r and r["top1"] != r["images"] and r.get("ort_margin_min", 0) > 8:
            failures.append(f"{what}: top-1 {r['top1']}/{r['images']} with ONNX Runtime's "
                            f"margin above 8 LSB")
        elif a.run and not r.get("rtl_exact"):
            failures.append(f"{what}: the RTL run is not bit-exact: {r.get('run_message')}")
    if failures:
        print("\n".join(failures))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
