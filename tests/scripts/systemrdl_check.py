#!/usr/bin/env python3
"""Elaborates a register map's SystemRDL rendering with systemrdl-compiler and compares it
with the map's JSON rendering (emit/register_map.hpp):

    systemrdl_check.py RDL JSON

Every register instance (groups unrolled) must sit at the same absolute byte address in
both, every field must have the same bit range, software access (rw, ro, w1c), hardware
access and reset value, and neither may hold a register or field the other lacks. A
compiler warning counts as a failure. Exit status 0 when they agree, 1 with one line per
difference, 2 when the RDL does not compile."""

import json
import sys

from systemrdl import RDLCompileError, RDLCompiler
from systemrdl.messages import MessagePrinter, Severity
from systemrdl.node import RegNode
from systemrdl.rdltypes import AccessType, OnWriteType


class CountingPrinter(MessagePrinter):
    """Prints the compiler's messages and counts its warnings."""

    def __init__(self):
        super().__init__()
        self.warnings = 0

    def print_message(self, severity, text, src_ref):
        if severity == Severity.WARNING:
            self.warnings += 1
        super().print_message(severity, text, src_ref)


def expected_registers(model):
    """path -> (absolute byte address, {field name: properties}) from the JSON."""

    def fields(reg):
        out = {}
        for f in reg["fields"]:
            hw = "r"
            if f["hw_updates"]:
                hw = "w" if f["access"] == "ro" else "rw"
            out[f["name"]] = {"lsb": f["lsb"], "msb": f["lsb"] + f["width"] - 1,
                              "access": f["access"], "hw": hw, "reset": f["reset"]}
        return out

    regs = {}
    for r in model["registers"]:
        regs[r["name"]] = (r["offset"], fields(r))
    for g in model["groups"]:
        for i in range(g["count"]):
            for r in g["registers"]:
                path = "{}[{}].{}".format(g["name"], i, r["name"])
                regs[path] = (g["offset"] + i * g["stride"] + r["offset"], fields(r))
    return regs


def sw_access(field):
    """rw, ro or w1c, as the JSON names them; anything else as RDL says it."""
    sw = field.get_property("sw")
    onwrite = field.get_property("onwrite")
    if sw == AccessType.r and onwrite is None:
        return "ro"
    if sw == AccessType.rw and onwrite is None:
        return "rw"
    if sw == AccessType.rw and onwrite == OnWriteType.woclr:
        return "w1c"
    return "sw={} onwrite={}".format(sw.name, onwrite.name if onwrite else None)


def hw_access(field):
    hw = field.get_property("hw")
    return {AccessType.r: "r", AccessType.w: "w", AccessType.rw: "rw"}.get(hw, hw.name)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    rdl_path, json_path = sys.argv[1], sys.argv[2]
    with open(json_path, encoding="utf-8") as f:
        model = json.load(f)
    printer = CountingPrinter()
    rdlc = RDLCompiler(message_printer=printer)
    try:
        rdlc.compile_file(rdl_path)
        root = rdlc.elaborate()
    except RDLCompileError:
        print("FAIL: {} does not compile".format(rdl_path), file=sys.stderr)
        return 2
    top = root.top
    problems = []
    if printer.warnings:
        problems.append("{} compiler warning(s)".format(printer.warnings))
    name = "{}_{}".format(model["design"], model["block"])
    if top.inst_name != name:
        problems.append("addrmap {} instead of {}".format(top.inst_name, name))

    expected = expected_registers(model)
    seen = set()
    for node in top.descendants(unroll=True):
        if not isinstance(node, RegNode):
            continue
        path = node.get_path()[len(top.inst_name) + 1:]
        seen.add(path)
        if path not in expected:
            problems.append("{}: in the RDL, not in the JSON".format(path))
            continue
        address, fields = expected[path]
        if node.absolute_address != address:
            problems.append("{}: address 0x{:x} in the RDL, 0x{:x} in the JSON".format(
                path, node.absolute_address, address))
        if node.get_property("regwidth") != 32:
            problems.append("{}: {} bits wide".format(path, node.get_property("regwidth")))
        rdl_fields = {f.inst_name: f for f in node.fields()}
        for fname in sorted(set(fields) - set(rdl_fields)):
            problems.append("{}.{}: in the JSON, not in the RDL".format(path, fname))
        for fname, f in rdl_fields.items():
            if fname not in fields:
                problems.append("{}.{}: in the RDL, not in the JSON".format(path, fname))
                continue
            want = fields[fname]
            got = {"lsb": f.lsb, "msb": f.msb, "access": sw_access(f), "hw": hw_access(f),
                   "reset": f.get_property("reset")}
            for key in ("lsb", "msb", "access", "hw", "reset"):
                if got[key] != want[key]:
                    problems.append("{}.{}: {} {} in the RDL, {} in the JSON".format(
                        path, fname, key, got[key], want[key]))
    for path in sorted(set(expected) - seen):
        problems.append("{}: in the JSON, not in the RDL".format(path))
    addresses = {a["path"]: a["offset"] for a in model["addresses"]}
    if addresses != {p: a for p, (a, _) in expected.items()}:
        problems.append("the JSON's address list disagrees with its registers and groups")

    for p in problems:
        print("FAIL: {}: {}".format(rdl_path, p), file=sys.stderr)
    if problems:
        return 1
    print("{}: {} register instance(s) agree with {}".format(rdl_path, len(seen), json_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
