#!/usr/bin/env python3
"""Writes a testbench that prints every constant of a register map's SystemVerilog package
(emit/register_map.hpp), and the lines it must print, from the map's JSON rendering:

    sv_package_check.py JSON PACKAGE DIR

DIR/regmap_tb.sv imports PACKAGE and $displays "<name> <value>" for each constant;
DIR/expected.txt holds the same lines with the values the JSON gives. Names follow the
renderer's rule (CamelCase of the UPPER_SNAKE names), computed here independently."""

import json
import os
import sys


def camel(name):
    return "".join(w[:1] + w[1:].lower() for w in name.split("_"))


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    json_path, package, out = sys.argv[1:]
    with open(json_path, encoding="utf-8") as f:
        model = json.load(f)
    constants = [("RegAddrBits", model["addr_bits"])]

    def register(stem, reg):
        constants.append((stem + "Offset", reg["offset"]))
        constants.append((stem + "Reset", reg["reset"]))
        for f in reg["fields"]:
            constants.append((stem + camel(f["name"]) + "Lsb", f["lsb"]))
            constants.append((stem + camel(f["name"]) + "Width", f["width"]))

    for r in model["registers"]:
        register(camel(r["name"]), r)
    for g in model["groups"]:
        stem = camel(g["name"])
        constants += [(stem + "Offset", g["offset"]), (stem + "Count", g["count"]),
                      (stem + "Stride", g["stride"])]
        for r in g["registers"]:
            register(stem + camel(r["name"]), r)

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "regmap_tb.sv"), "w", encoding="utf-8") as f:
        f.write("// Prints every constant of {}.\nmodule regmap_tb;\n".format(package))
        f.write("  import {}::*;\n  initial begin\n".format(package))
        for name, _ in constants:
            f.write('    $display("{} %0d", {});\n'.format(name, name))
        f.write("  end\nendmodule\n")
    with open(os.path.join(out, "expected.txt"), "w", encoding="utf-8") as f:
        for name, value in constants:
            f.write("{} {}\n".format(name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
