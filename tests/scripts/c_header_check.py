#!/usr/bin/env python3
"""Writes a C89 translation unit that checks a register map's C header against its JSON
rendering (emit/register_map.hpp):

    c_header_check.py JSON HEADER > check.c

The unit includes HEADER twice (the include guard) and declares, for every macro the
header must define, an array type whose size is negative unless the macro has the value
the JSON gives and an unsigned type. gcc -std=c89 -pedantic -Werror -c check.c then fails
on a missing macro, a wrong value or a signed literal."""

import json
import sys


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        model = json.load(f)
    prefix = "{}_{}".format(model["design"], model["block"]).upper()
    checks = []  # (C expression, expected value)

    def add(expr, value):
        checks.append((expr, value))

    def register(name, reg, offset_expr, offset):
        add(offset_expr, offset)
        add("{}_{}_RESET".format(prefix, name), reg["reset"])
        for f in reg["fields"]:
            stem = "{}_{}_{}".format(prefix, name, f["name"])
            add(stem + "_LSB", f["lsb"])
            add(stem + "_WIDTH", f["width"])
            add(stem + "_MASK", ((1 << f["width"]) - 1) << f["lsb"])

    add(prefix + "_ADDR_BITS", model["addr_bits"])
    for r in model["registers"]:
        register(r["name"], r, "{}_{}_OFFSET".format(prefix, r["name"]), r["offset"])
    for g in model["groups"]:
        stem = "{}_{}".format(prefix, g["name"])
        add(stem + "_OFFSET", g["offset"])
        add(stem + "_COUNT", g["count"])
        add(stem + "_STRIDE", g["stride"])
        for i in range(g["count"]):
            for r in g["registers"]:
                name = "{}_{}".format(g["name"], r["name"])
                register(name, r, "{}_{}_OFFSET({}u)".format(prefix, name, i),
                         g["offset"] + i * g["stride"] + r["offset"])

    print("/* Checks {} against {}. */".format(sys.argv[2], sys.argv[1]))
    print('#include "{}"'.format(sys.argv[2]))
    print('#include "{}"'.format(sys.argv[2]))
    for n, (expr, value) in enumerate(checks):
        print("typedef char value_{}[({}) == 0x{:x}ul ? 1 : -1];".format(n, expr, value))
        print("typedef char unsigned_{}[({}) * 0 - 1 > 0 ? 1 : -1];".format(n, expr))
    return 0


if __name__ == "__main__":
    sys.exit(main())
