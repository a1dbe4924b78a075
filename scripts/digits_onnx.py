#!/usr/bin/env python3
"""The digits CNN as ONNX models, for npugen's ONNX tests (issue 16): the float network of
networks/digits (scripts/train_digits.py's float_*.npy) as a float ONNX model, NCHW, and that
model quantized by ONNX Runtime's static quantization in both formats (QDQ and QOperator),
calibrated on the training split; then ONNX Runtime's outputs on the test images. A test
tool, not part of the product (npugen reads ONNX in C++).

  digits_onnx.py OUT_DIR [--activations int8|uint8]

Writes OUT_DIR/digits_float.onnx, digits_qdq.onnx, digits_qop.onnx, input.npy (the test
images, float32 [N][1][8][8]), ort_qdq.npy and ort_qop.npy (ONNX Runtime's logits, float32
[N][10]), labels.npy.
"""
import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)
import onnxruntime as ort
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

DIGITS = Path(__file__).resolve().parent.parent / "networks" / "digits"


def float_model(batch="N"):
    p = {k: np.load(DIGITS / f"float_{k}.npy") for k in
         ("conv1_w", "conv1_b", "conv2_w", "conv2_b", "fc1_w", "fc1_b")}
    inits = []
    nodes = []
    x = "input"
    for i, name in enumerate(("conv1", "conv2")):
        w = p[name + "_w"].transpose(0, 3, 1, 2)  # [K][KH][KW][C] -> [K][C][KH][KW]
        inits += [numpy_helper.from_array(w.astype(np.float32), name + "_w"),
                  numpy_helper.from_array(p[name + "_b"].astype(np.float32), name + "_b")]
        nodes += [
            helper.make_node("Conv", [x, name + "_w", name + "_b"], [name], name=name,
                             kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            helper.make_node("Relu", [name], [name + "_relu"], name=name + "_relu"),
            helper.make_node("MaxPool", [name + "_relu"], [f"pool{i + 1}"], name=f"pool{i + 1}",
                             kernel_shape=[2, 2], strides=[2, 2]),
        ]
        x = f"pool{i + 1}"
    # fc1 reads the pooled 2 x 2 x 16 in (h, w, c) order; ONNX's Flatten of NCHW is (c, h, w).
    w = p["fc1_w"].reshape(10, 2, 2, 16).transpose(0, 3, 1, 2).reshape(10, 64)
    inits += [numpy_helper.from_array(w.astype(np.float32), "fc1_w"),
              numpy_helper.from_array(p["fc1_b"].astype(np.float32), "fc1_b")]
    nodes += [helper.make_node("Flatten", [x], ["flat"], name="flatten", axis=1),
              helper.make_node("Gemm", ["flat", "fc1_w", "fc1_b"], ["logits"], name="fc1",
                               transB=1)]
    graph = helper.make_graph(
        nodes, "digits",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [batch, 1, 8, 8])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="npugen scripts/digits_onnx.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


class Reader(CalibrationDataReader):
    def __init__(self, x):
        self.batches = iter([{"input": x[i:i + 1]} for i in range(len(x))])

    def get_next(self):
        return next(self.batches, None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--activations", choices=("int8", "uint8"), default="uint8")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    digits = load_digits()
    pixels, labels = digits.images.astype(np.int64), digits.target.astype(np.int64)
    px_train, px_test, _, y_test = train_test_split(
        pixels, labels, test_size=0.2, random_state=0, stratify=labels)
    x_train = (px_train / 16.0).astype(np.float32)[:, None]
    x_test = (px_test / 16.0).astype(np.float32)[:, None]
    onnx.save(float_model(), args.out / "digits_float.onnx")
    act = QuantType.QUInt8 if args.activations == "uint8" else QuantType.QInt8
    for fmt, tag in ((QuantFormat.QDQ, "qdq"), (QuantFormat.QOperator, "qop")):
        path = args.out / f"digits_{tag}.onnx"
        quantize_static(str(args.out / "digits_float.onnx"), str(path), Reader(x_train[:300]),
                        quant_format=fmt, per_channel=True, activation_type=act,
                        weight_type=QuantType.QInt8,
                        # 7-bit weights: ONNX Runtime's u8 x s8 kernels on x86-64 without
                        # VNNI add product pairs in 16 bits with saturation; with 7-bit weights
                        # they cannot saturate, so its output is the exact int8 result
                        # everywhere (the reference the tests compare with)
                        reduce_range=True)
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        y = session.run(None, {"input": x_test})[0]
        np.save(args.out / f"ort_{tag}.npy", y.astype(np.float32))
        acc = float(np.mean(y.argmax(axis=1) == y_test))
        print(f"{tag}: ONNX Runtime {acc:.2%} on {len(y_test)} test images")
    np.save(args.out / "input.npy", x_test)
    np.save(args.out / "labels.npy", y_test.astype(np.int32))


if __name__ == "__main__":
    main()
