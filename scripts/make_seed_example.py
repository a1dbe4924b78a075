#!/usr/bin/env python3
"""Writes networks/seed_example_int8: seed 001's example network (networks/seed_example.yaml:
C1, P1, C2, the long C3 in three parts, the planar P2 to P4 on C2's output while C3 runs,
P5 adding C3's and P4's results, C4) scaled to a 16 x 16 x 8 input so that it fits the
default NPU's buffers, with int8 weights drawn at random (numpy, a fixed seed) and one
power-of-two requantization per layer chosen to keep activations in range. It shows the
task unit overlapping planar and neural layers with real engines (docs/npu.md). Not part
of the product; rerunning it writes the same bytes.

    python3 scripts/make_seed_example.py [OUT_DIR]
"""
import pathlib
import sys

import numpy as np

OUT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                   pathlib.Path(__file__).resolve().parent.parent / "networks" / "seed_example_int8")
rng = np.random.default_rng(1)
H, W, C = 16, 16, 8

# (name, kernel, input channels, output channels, requantization shift): the shift puts the
# accumulator's spread (about 74 x 4.9 x sqrt(KH KW C) for uniform inputs and weights in
# [-8, 8]) near 40 with a multiplier of 0.5.
CONVS = [("C1", 3, 8, 16, -6), ("C2", 3, 16, 16, -7), ("C3_0", 3, 16, 32, -7),
         ("C3_1", 3, 32, 32, -7), ("C3_2", 1, 32, 16, -5), ("C4", 3, 16, 32, -7)]
HALF = 1 << 30  # 0.5 in Q31


def save(name, array):
    np.save(OUT / name, array, allow_pickle=False)


OUT.mkdir(parents=True, exist_ok=True)
shifts = {}
for name, k, cin, cout, shift in CONVS:
    save(f"{name}_w.npy", rng.integers(-8, 9, size=(cout, k, k, cin), dtype=np.int8))
    save(f"{name}_b.npy", rng.integers(-512, 513, size=(cout,), dtype=np.int32))
    shifts[name] = shift
save("input.npy", rng.integers(-128, 128, size=(2, H, W, C), dtype=np.int8))


def conv(name, k, cout, extra=""):
    return (f"  - {{name: {name}, op: conv, kernel: {k}, channels: {cout}, weights: {name}_w.npy, "
            f"bias: {name}_b.npy, output: {{multiplier: {HALF}, shift: {shifts[name]}, "
            f"zero_point: 0}}{extra}}}\n")


text = (
    "# Seed 001's example network (networks/seed_example.yaml, figures 7 and 8) scaled to a\n"
    "# 16 x 16 x 8 input with random int8 weights: made by scripts/make_seed_example.py, do not\n"
    "# edit by hand. P2 to P4 work on C2's output while the long C3 (three convolutions) runs;\n"
    "# P5 adds C3's and P4's results; C4 follows. input.npy holds two images.\n"
    "input: {height: 16, width: 16, channels: 8, zero_point: 0}\n"
    "layers:\n"
    + conv("C1", 3, 16)
    + "  - {name: P1, op: max_pool, kernel: 2, stride: 2, padding: valid}\n"
    + conv("C2", 3, 16)
    + conv("C3_0", 3, 32)
    + conv("C3_1", 3, 32)
    + conv("C3_2", 1, 16)
    + "  - {name: P2, op: max_pool, kernel: 3, stride: 1, padding: same, inputs: [C2]}\n"
    + "  - {name: P3, op: activation, clamp: [-64, 100]}\n"
    + "  - {name: P4, op: avg_pool, kernel: 3, stride: 1, padding: same}\n"
    + f"  - {{name: P5, op: add, inputs: [C3_2, P4], left_shift: 20, input_multipliers: [{HALF}, {HALF}],\n"
    + f"     input_shifts: [0, 0], output: {{multiplier: {HALF}, shift: -18, zero_point: 0}}}}\n"
    + conv("C4", 3, 32)
)
(OUT / "seed_example.yaml").write_text(text)
print(f"wrote {OUT}")
