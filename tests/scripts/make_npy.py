#!/usr/bin/env python3
"""Writes .npy files for the tests without NumPy (standard library only).

make_npy.py OUT KIND [ARGS]
  weights T C L SPARSITY SEED [DTYPE]   random sparse integer weights in [-128, 127]
  raw DTYPE SHAPE VALUE...              explicit values, SHAPE like 2x3x4 (row-major)
  float T C L                           float64 array (a wrong dtype)
  truncated T C L                       int8 header promising more data than present
  garbage                               not a .npy file
  gauss SHAPE SEED [DTYPE]              normal(0, 1) floats (default <f4), SHAPE like 64x8
  fortran T C L                         int8 array marked fortran_order True
  header DICT BYTES                     a version 1.0 header holding DICT as given (a Python
                                        dict literal, written verbatim) and BYTES zero bytes
                                        of data: for headers that lie
"""
import random
import struct
import sys

CODES = {"<f4": "f", "<f2": "e", "<i1": "b", "|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H", "<i4": "i", "<u4": "I",
         "<i8": "q", "<f8": "d"}


def with_header(header, data):
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


def npy(descr, shape, values, fortran=False):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False", dims)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    out = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()
    return out + struct.pack("<%d%s" % (len(values), CODES[descr]), *values)


def main():
    out, kind, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if kind == "weights":
        t, c, l = (int(a) for a in args[:3])
        sparsity, seed = float(args[3]), int(args[4])
        descr = args[5] if len(args) > 5 else "<i4"
        rng = random.Random(seed)
        values = []
        for _ in range(t * c * l):
            v = 0
            if rng.random() >= sparsity:
                while v == 0:
                    v = rng.randint(-128, 127) if "u" not in descr else rng.randint(1, 127)
            values.append(v)
        data = npy(descr, (t, c, l), values)
    elif kind == "raw":
        descr, shape = args[0], tuple(int(d) for d in args[1].split("x"))
        data = npy(descr, shape, [int(v) for v in args[2:]])
    elif kind == "float":
        t, c, l = (int(a) for a in args[:3])
        data = npy("<f8", (t, c, l), [1.0] * (t * c * l))
    elif kind == "truncated":
        t, c, l = (int(a) for a in args[:3])
        data = npy("|i1", (t, c, l), [1] * (t * c * l))[:-3]
    elif kind == "fortran":
        t, c, l = (int(a) for a in args[:3])
        data = npy("|i1", (t, c, l), [1] * (t * c * l), fortran=True)
    elif kind == "gauss":
        shape = tuple(int(d) for d in args[0].split("x"))
        rng = random.Random(int(args[1]))
        count = 1
        for d in shape:
            count *= d
        data = npy(args[2] if len(args) > 2 else "<f4", shape,
                   [rng.gauss(0, 1) for _ in range(count)])
    elif kind == "header":
        data = with_header(args[0], bytes(int(args[1])))
    elif kind == "garbage":
        data = b"this is not a numpy file\n"
    else:
        sys.exit("unknown kind " + kind)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
