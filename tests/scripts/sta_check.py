"""Reads OpenSTA's log of `read_sdc` + `check_setup -verbose` on a synthesized block and its
netlist, and exits 1 with the reason when the SDC does not constrain the block whole:

    sta_check.py STA_LOG NETLIST

Every error and warning fails, except "unconstrained endpoints" that are output bits the
netlist drives with a constant, or copies of another output bit (a buffer reading the other
port's net): no timing path reaches them, so no SDC could constrain them."""
import re
import sys


def constant_bits(netlist):
    """Output bits assigned a constant: {"name[3]", "flag", ...}."""
    bits = set()
    assign = re.compile(r"^\s*assign\s+([\w$]+)(?:\[(\d+)(?::(\d+))?\])?\s*=\s*\d+'[hbd][0-9a-fA-FxXzZ_]+\s*;")
    for line in open(netlist):
        m = assign.match(line)
        if not m:
            continue
        name, hi, lo = m.group(1), m.group(2), m.group(3)
        if hi is None:
            bits.add(name)
        else:
            hi = int(hi)
            lo = hi if lo is None else int(lo)
            for b in range(min(lo, hi), max(lo, hi) + 1):
                bits.add(f"{name}[{b}]")
    return bits


def copied_bits(netlist):
    """Output bits driven by a buffer whose input is a constant or another output bit."""
    text = open(netlist).read()
    outputs = set(re.findall(r"^\s*output\s+(?:\[[^\]]+\]\s*)?(\w+)\s*;", text, re.M))
    bits = set()
    for a, y in re.findall(r"BUFX\d+\s+\S+\s*\(\s*\.A\(([^)]+)\),\s*\.Y\(([^)]+)\)\s*\);", text):
        source = a.strip()
        if re.fullmatch(r"\d+'[hbd][0-9a-fA-F]+", source) or source.split("[")[0] in outputs:
            bits.add(y.strip())
    return bits


def main():
    log, netlist = sys.argv[1], sys.argv[2]
    lines = open(log).read().splitlines()
    constants = constant_bits(netlist) | copied_bits(netlist)
    problems = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"^(Error|Warning)", line):
            listed = []
            j = i + 1
            while j < len(lines) and lines[j].startswith("  ") and lines[j].strip():
                listed.append(lines[j].strip())
                j += 1
            if "unconstrained endpoint" in line:  # "endpoint." when there is one
                others = [e for e in listed if e not in constants]
                if others:
                    problems.append(f"{line} (not constant outputs: {', '.join(others[:10])})")
            else:
                problems.append(line + (f": {', '.join(listed[:10])}" if listed else ""))
            i = j
        else:
            i += 1
    if problems:
        sys.exit("\n".join(problems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
