#!/usr/bin/env python3
"""Checks a co-simulation waveform (VCD, converted from FST by gtkwave's fst2vcd): the
clock's period is 1000 / design.clock_mhz nanoseconds in the trace's own time unit, and the
reset is visible: rst_ni starts released, is asserted over at least one rising clock edge,
and is released again.

usage: trace_check.py WAVE.vcd CLOCK_MHZ
"""
import re
import sys

UNITS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0, "ps": 1e-3, "fs": 1e-6}


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main():
    path, clock_mhz = sys.argv[1], float(sys.argv[2])
    text = open(path, encoding="utf-8").read()
    m = re.search(r"\$timescale\s+(\d+)\s*([munpf]?s)\s+\$end", text)
    if not m:
        fail("no $timescale in the waveform")
    unit_ns = int(m.group(1)) * UNITS[m.group(2)]
    # The top's clock and reset (the first declaration of each name: the DUT's ports).
    ids = {}
    for ident, name in re.findall(r"\$var \w+ 1 (\S+) (clk_i|rst_ni) \$end", text):
        ids.setdefault(name, ident)
    if set(ids) != {"clk_i", "rst_ni"}:
        fail(f"clk_i and rst_ni not both in the trace (found {sorted(ids)})")
    body = text[text.index("$enddefinitions"):]
    time = 0
    changes = {"clk_i": [], "rst_ni": []}
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("#"):
            time = int(line[1:])
        elif len(line) >= 2 and line[0] in "01xz":
            for name, ident in ids.items():
                if line[1:] == ident:
                    changes[name].append((time, line[0]))
    rises = [t for t, v in changes["clk_i"] if v == "1"]
    if len(rises) < 3:
        fail(f"only {len(rises)} rising clock edges in the trace")
    periods = {b - a for a, b in zip(rises, rises[1:])}
    if len(periods) != 1:
        fail(f"the clock period varies: {sorted(periods)} time units")
    period_ns = periods.pop() * unit_ns
    want_ns = 1000.0 / clock_mhz
    if abs(period_ns - want_ns) > 1e-6 * want_ns + unit_ns:
        fail(f"clock period {period_ns:g} ns, design.clock_mhz {clock_mhz:g} says {want_ns:g} ns")
    reset = [v for _, v in changes["rst_ni"]]
    # Collapse repeats, then expect released, asserted, released.
    seq = [v for i, v in enumerate(reset) if i == 0 or reset[i - 1] != v]
    if seq[:3] != ["1", "0", "1"]:
        fail(f"rst_ni goes {' -> '.join(seq)}; expected 1 -> 0 -> 1 (power up, reset, run)")
    low = next(t for t, v in changes["rst_ni"] if v == "0")
    high = next(t for t, v in changes["rst_ni"] if v == "1" and t > low)
    edges = sum(1 for t in rises if low < t <= high)
    if edges < 1:
        fail("no rising clock edge while rst_ni is low")
    print(f"trace: clock period {period_ns:g} ns ({clock_mhz:g} MHz), timescale "
          f"{m.group(1)}{m.group(2)}, reset low for {edges} rising edge(s)")


if __name__ == "__main__":
    main()
