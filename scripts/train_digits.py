#!/usr/bin/env python3
"""Train and quantize a small int8 CNN for scikit-learn's 8x8 handwritten digits.

Not part of the product: it makes the files of networks/digits/ (the network YAML, its
int8 weights and the held-back test set with the expected int8 logits), a cross-check
for the reference interpreter. numpy and scikit-learn only; deterministic (same files
byte for byte on rerun, on one machine).

    /opt/npugen/venv/bin/python scripts/train_digits.py [--out networks/digits]

Network (NHWC): 8x8x1 -> conv1 3x3 SAME 8 + ReLU -> max_pool 2x2/2 -> conv2 3x3 SAME 16
+ ReLU -> max_pool 2x2/2 -> fc 64 -> 10 logits. Also the same network pruned (the smallest
75% of each layer's weights set to 0, the rest fine-tuned with the zeros held), for the
zero-skipping NPU: digits_pruned.yaml and its pruned_*.npy. Trained in float (im2col, manual
backprop, Adam), then post-training quantized the way TFLite int8 does it: per-channel
symmetric int8 weights, int32 bias, per-tensor asymmetric int8 activations calibrated
on the training set, (Q31 multiplier, shift) requantization with gemmlowp's rounding.
"""
import argparse
import os
import time
from itertools import product
from pathlib import Path

# One BLAS thread: the run is meant for one core and stays reproducible.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

SEED = 0
EPOCHS, BATCH, LR = 40, 32, 3e-3
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
CONVS = (("conv1", 1, 8), ("conv2", 8, 16))  # name, input channels, output channels


# ---------------------------------------------------------------- float layers
def im2col(x, pad_value=0):
    """[N,H,W,C] -> [N*H*W, 9*C] patches of a 3x3 stride-1 SAME conv, (kh, kw, c) order."""
    n, h, w, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=pad_value)
    cols = np.stack([xp[:, i:i + h, j:j + w, :] for i, j in product(range(3), range(3))],
                    axis=3)
    return cols.reshape(n * h * w, 9 * c)


def col2im(dcols, shape):
    """Adjoint of im2col: sums the patch gradients back onto [N,H,W,C]."""
    n, h, w, c = shape
    dcols = dcols.reshape(n, h, w, 9, c)
    dxp = np.zeros((n, h + 2, w + 2, c))
    for t, (i, j) in enumerate(product(range(3), range(3))):
        dxp[:, i:i + h, j:j + w, :] += dcols[:, :, :, t, :]
    return dxp[:, 1:h + 1, 1:w + 1, :]


def max_pool(x):
    """2x2 stride-2 VALID max pool of [N,H,W,C] (H and W even)."""
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def upsample(y):
    """Repeats every pixel of [N,H,W,C] 2x2 (the pool's adjoint, with a mask)."""
    return y.repeat(2, axis=1).repeat(2, axis=2)


def forward(p, x):
    """Float forward pass; returns the logits and what backward() needs."""
    n, cache = len(x), {}
    for name, _, k in CONVS:
        cols = im2col(x)
        a = np.maximum(cols @ p[name + "_w"].reshape(k, -1).T + p[name + "_b"], 0)
        a = a.reshape(x.shape[:3] + (k,))
        cache[name] = (cols, a)
        x = max_pool(a)
    cache["flat"] = x.reshape(n, -1)  # (h, w, c) order
    return cache["flat"] @ p["fc1_w"].T + p["fc1_b"], cache


def backward(p, cache, logits, labels):
    """Gradients of the mean softmax cross-entropy."""
    n = len(labels)
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    prob[np.arange(n), labels] -= 1
    d = prob / n
    g = {"fc1_w": d.T @ cache["flat"], "fc1_b": d.sum(axis=0)}
    d = (d @ p["fc1_w"]).reshape(n, 2, 2, 16)
    for name, _, k in reversed(CONVS):
        cols, a = cache[name]
        d = upsample(d) * (a == upsample(max_pool(a))) * (a > 0)  # pool (ties share), ReLU
        d = d.reshape(-1, k)
        g[name + "_w"] = (d.T @ cols).reshape(p[name + "_w"].shape)
        g[name + "_b"] = d.sum(axis=0)
        if name != "conv1":  # gradient w.r.t. the previous pool's output
            in_shape = a.shape[:3] + (cols.shape[1] // 9,)
            d = col2im(d @ p[name + "_w"].reshape(k, -1), in_shape)
    return g


def train(x, y, init=None, masks=None, epochs=EPOCHS, lr0=LR, seed=SEED):
    """Adam on mini-batches, He-initialised weights (or `init`), fixed seed. `masks`: weights
    held at 0 where the mask is 0 (pruned fine-tuning)."""
    rng = np.random.default_rng(seed)
    p = {}
    for name, c, k in CONVS:
        p[name + "_w"] = rng.normal(0, np.sqrt(2 / (9 * c)), (k, 3, 3, c))
        p[name + "_b"] = np.zeros(k)
    p["fc1_w"] = rng.normal(0, np.sqrt(1 / 64), (10, 64))
    p["fc1_b"] = np.zeros(10)
    if init is not None:
        p = {key: val.copy() for key, val in init.items()}
    masks = masks or {}
    for key, mask in masks.items():
        p[key] *= mask
    m = {key: np.zeros_like(v) for key, v in p.items()}
    v = {key: np.zeros_like(val) for key, val in p.items()}
    step = 0
    for epoch in range(epochs):
        lr = lr0 * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine decay
        order = rng.permutation(len(x))
        for start in range(0, len(x), BATCH):
            idx = order[start:start + BATCH]
            logits, cache = forward(p, x[idx])
            g = backward(p, cache, logits, y[idx])
            step += 1
            for key in p:
                m[key] = 0.9 * m[key] + 0.1 * g[key]
                v[key] = 0.999 * v[key] + 0.001 * g[key] ** 2
                m_hat, v_hat = m[key] / (1 - 0.9 ** step), v[key] / (1 - 0.999 ** step)
                p[key] -= lr * m_hat / (np.sqrt(v_hat) + 1e-8)
                if key in masks:
                    p[key] *= masks[key]
    return p


def prune_masks(p, sparsity):
    """Per layer, zero the `sparsity` fraction of its weights smallest in magnitude."""
    masks = {}
    for key in ("conv1_w", "conv2_w", "fc1_w"):
        w = np.abs(p[key]).ravel()
        cut = np.sort(w)[int(sparsity * len(w))]
        masks[key] = (np.abs(p[key]) >= cut).astype(np.float64)
    return masks


# ---------------------------------------------------------------- quantization
def round_half_away(x):
    """std::round (TfLiteRound): halves away from zero."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def activation_quant(lo, hi):
    """TFLite's asymmetric int8 (scale, zero point) for a calibrated [lo, hi]."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = float(np.float32((hi - lo) / 255.0)) if hi > lo else 1.0
    zp = -128 - lo / scale
    return scale, int(np.clip(round_half_away(zp), -128, 127))


def quantize_multiplier(real):
    """TFLite's QuantizeMultiplier: real = M * 2^(shift - 31), shift > 0 = left shift."""
    if real == 0.0:
        return 0, 0
    q, shift = np.frexp(real)
    q_fixed = int(round_half_away(q * (1 << 31)))
    if q_fixed == 1 << 31:
        q_fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return q_fixed, int(shift)


def quantize_layer(w, b, s_in, s_out):
    """Per-output-channel int8 weights, int32 bias and (multiplier, shift) arrays."""
    k = len(w)
    w_max = np.abs(w.reshape(k, -1)).max(axis=1)
    s_w = np.where(w_max > 0, w_max / 127, 1.0).astype(np.float32).astype(np.float64)
    wq = np.clip(round_half_away(w / s_w.reshape((k,) + (1,) * (w.ndim - 1))), -127, 127)
    bias_scale = (np.float32(s_in) * s_w.astype(np.float32)).astype(np.float64)
    bq = np.clip(round_half_away(b / bias_scale), INT32_MIN, INT32_MAX)
    ms = [quantize_multiplier(s_in * sw / s_out) for sw in s_w]
    return (wq.astype(np.int8), bq.astype(np.int32),
            np.array([m for m, _ in ms], np.int32), np.array([s for _, s in ms], np.int32))


# ------------------------------------------------- integer inference (TFLite reference)
def wrap32(x):
    return (x + (1 << 31)) % (1 << 32) - (1 << 31)


def srdhm(a, b):
    """gemmlowp SaturatingRoundingDoublingHighMul on int64 arrays holding int32."""
    ab = a * b
    s = ab + np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    high = np.where(s >= 0, s >> 31, -((-s) >> 31))  # divide by 2^31, toward zero
    return np.where((a == INT32_MIN) & (b == INT32_MIN), INT32_MAX, high)


def rdbpot(x, e):
    """gemmlowp RoundingDivideByPOT: x / 2^e rounded half away from zero."""
    mask = (np.int64(1) << e) - 1
    threshold = (mask >> 1) + (x < 0)
    return (x >> e) + ((x & mask) > threshold)


def requantize(acc, m, shift, zp, act_min):
    """clamp(MultiplyByQuantizedMultiplier(acc, M, shift) + zp, act_min, 127), per channel."""
    m, shift = m.astype(np.int64), shift.astype(np.int64)
    x = wrap32(acc << np.maximum(shift, 0))
    y = rdbpot(srdhm(x, m), np.maximum(-shift, 0)) + zp
    return np.clip(y, act_min, 127).astype(np.int8)


def int8_forward(q, x):
    """Integer inference of int8 NHWC images; returns int8 logits [N, 10]."""
    x = x.astype(np.int64)
    zp_in = q["input_zp"]
    for name, _, k in CONVS:
        cols = im2col(x, pad_value=zp_in) - zp_in  # padding reads the zero point
        acc = cols @ q[name + "_w"].reshape(k, -1).astype(np.int64).T + q[name + "_b"]
        zp = q[name + "_zp"]
        y = requantize(wrap32(acc), q[name + "_m"], q[name + "_s"], zp, act_min=zp)
        x = max_pool(y.reshape(x.shape[:3] + (k,)).astype(np.int64))
        zp_in = zp  # max pool keeps its input's quantization
    acc = (x.reshape(len(x), -1) - zp_in) @ q["fc1_w"].astype(np.int64).T + q["fc1_b"]
    return requantize(wrap32(acc), q["fc1_m"], q["fc1_s"], q["fc1_zp"], act_min=-128)


def quantize_network(p, x_cal):
    """Calibrates the activation ranges on x_cal and quantizes every layer."""
    _, cache = forward(p, x_cal)
    logits = cache["flat"] @ p["fc1_w"].T + p["fc1_b"]
    ranges = {name: (cache[name][1].min(), cache[name][1].max()) for name, _, _ in CONVS}
    ranges["fc1"] = (logits.min(), logits.max())
    q, s_in, info = {"input_zp": -128}, float(np.float32(1 / 255)), []
    for name in ("conv1", "conv2", "fc1"):
        s_out, zp = activation_quant(*ranges[name])
        q[name + "_w"], q[name + "_b"], q[name + "_m"], q[name + "_s"] = quantize_layer(
            p[name + "_w"], p[name + "_b"], s_in, s_out)
        q[name + "_zp"], q[name + "_scale"] = zp, s_out
        info.append(f"{name}: input scale {s_in:.6g}, output scale {s_out:.6g} zero point "
                    f"{zp} (range {ranges[name][0]:.4g}..{ranges[name][1]:.4g}), shift "
                    f"{q[name + '_s'].min()}..{q[name + '_s'].max()}")
        s_in = s_out
    return q, info


# ---------------------------------------------------------------- output files
def write_yaml(path, q, acc_float, acc_int8, n_test, prefix="", pruned=None):
    title = "The digits CNN pruned" if pruned is not None else "The digits CNN"
    lines = [
        f"# {title}: a small int8 network for scikit-learn's 8x8 handwritten digits",
        "# (sklearn.datasets.load_digits), trained in float and post-training quantized the",
        "# way TFLite int8 does it. Made by scripts/train_digits.py; do not edit by hand.",
    ]
    if pruned is not None:
        lines += [
            "# digits.yaml's network with the smallest 75% of each layer's weights set to 0 and",
            f"# the rest fine-tuned with the zeros held ({pruned:.1%} of the int8 weights are 0):",
            "# the zero-skipping NPU (configs/npu_zs.yaml) skips them.",
        ]
    lines += [
        f"# Accuracy on the {n_test} held-back test images (test_images.npy, test_labels.npy):",
        f"# float {acc_float:.2%}, int8 {acc_int8:.2%}.",
        f"# expected_logits{prefix and '_' + prefix.rstrip('_')}.npy: the script's integer "
        "inference of them (int8 [N][10]).",
        "# Input: real = pixel/16 in [0, 1], int8 scale 1/255, zero point -128, NHWC.",
        "# Requantization: TFLite's MultiplyByQuantizedMultiplier (Q31 multiplier, shift > 0",
        "# = left shift); max pools keep their input's scale and zero point. Paths are",
        "# relative to this file.",
        "input: {height: 8, width: 8, channels: 1, zero_point: -128}",
        "layers:",
    ]
    for i, (name, _, k) in enumerate(CONVS):
        lines += [
            f"  - name: {name}",
            "    op: conv", "    kernel: 3", "    stride: 1", "    padding: same",
            f"    channels: {k}",
            f"    weights: {prefix}{name}_w.npy      # int8 [K][KH][KW][C]",
            f"    bias: {prefix}{name}_b.npy         # int32 [K]",
            f"    output: {{multiplier: {prefix}{name}_m.npy, shift: {prefix}{name}_s.npy, "
            "zero_point: "
            f"{q[name + '_zp']}}}   # int32 [K] each; scale {q[name + '_scale']:.9g}",
            "    activation: relu",
            f"  - {{name: pool{i + 1}, op: max_pool, kernel: 2, stride: 2, padding: valid}}",
        ]
    lines += [
        "  - name: fc1", "    op: fc", "    channels: 10",
        f"    weights: {prefix}fc1_w.npy        # int8 [K][IN], IN in (h, w, c) order",
        f"    bias: {prefix}fc1_b.npy           # int32 [K]",
        f"    output: {{multiplier: {prefix}fc1_m.npy, shift: {prefix}fc1_s.npy, zero_point: "
        f"{q['fc1_zp']}}}   # int32 [K] each; scale {q['fc1_scale']:.9g}",
        "    activation: none",
    ]
    path.write_text("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent.parent / "networks" / "digits")
    args = parser.parse_args()
    start = time.perf_counter()

    digits = load_digits()
    pixels, labels = digits.images.astype(np.int64), digits.target.astype(np.int64)
    px_train, px_test, y_train, y_test = train_test_split(
        pixels, labels, test_size=0.2, random_state=0, stratify=labels)
    x_train = (px_train / 16.0)[..., None]  # NHWC float in [0, 1]
    x_test = (px_test / 16.0)[..., None]

    p = train(x_train, y_train)
    acc_float = np.mean(forward(p, x_test)[0].argmax(axis=1) == y_test)
    print(f"float test accuracy {acc_float:.2%} ({len(y_test)} images), "
          f"trained in {time.perf_counter() - start:.1f} s")

    q, info = quantize_network(p, x_train)
    print("\n".join(info))
    q_test = np.clip(round_half_away(px_test / 16 * 255) - 128, -128, 127)
    q_test = q_test.astype(np.int8)[..., None]
    logits = int8_forward(q, q_test)
    acc_int8 = np.mean(logits.argmax(axis=1) == y_test)  # ties: the lowest index
    print(f"int8 test accuracy {acc_int8:.2%}")

    args.out.mkdir(parents=True, exist_ok=True)
    for key in ("w", "b", "m", "s"):
        for name in ("conv1", "conv2", "fc1"):
            np.save(args.out / f"{name}_{key}.npy", q[f"{name}_{key}"])
    np.save(args.out / "test_images.npy", q_test)
    np.save(args.out / "test_labels.npy", y_test.astype(np.int32))
    np.save(args.out / "expected_logits.npy", logits)
    write_yaml(args.out / "digits.yaml", q, acc_float, acc_int8, len(y_test))
    # The float network, for the ONNX path's tests (scripts/digits_onnx.py builds the float
    # ONNX model from it, ONNX Runtime quantizes that): conv weights [K][KH][KW][C], fc
    # [10][64] over the input flattened in (h, w, c) order.
    for key, val in p.items():
        np.save(args.out / f"float_{key}.npy", val.astype(np.float32))

    # The same network pruned to 75% zeros and fine-tuned (the zero-skipping NPU's case).
    masks = prune_masks(p, 0.75)
    pp = train(x_train, y_train, init=p, masks=masks, epochs=60, lr0=2e-3, seed=SEED + 1)
    acc_pruned = np.mean(forward(pp, x_test)[0].argmax(axis=1) == y_test)
    qp, _ = quantize_network(pp, x_train)
    logits_p = int8_forward(qp, q_test)
    acc_pruned8 = np.mean(logits_p.argmax(axis=1) == y_test)
    zeros = sum(int((qp[n + "_w"] == 0).sum()) for n in ("conv1", "conv2", "fc1"))
    total = sum(qp[n + "_w"].size for n in ("conv1", "conv2", "fc1"))
    print(f"pruned: float {acc_pruned:.2%}, int8 {acc_pruned8:.2%}, {zeros / total:.1%} of the "
          "int8 weights 0")
    for key in ("w", "b", "m", "s"):
        for name in ("conv1", "conv2", "fc1"):
            np.save(args.out / f"pruned_{name}_{key}.npy", qp[f"{name}_{key}"])
    np.save(args.out / "expected_logits_pruned.npy", logits_p)
    write_yaml(args.out / "digits_pruned.yaml", qp, acc_pruned, acc_pruned8, len(y_test),
               prefix="pruned_", pruned=zeros / total)
    print(f"wrote {args.out} in {time.perf_counter() - start:.1f} s total")


if __name__ == "__main__":
    main()
