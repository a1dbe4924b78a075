"""Checks a co-simulation's JSON summary (tb/common/summary.hpp):

    summary.py FILE [--status pass|mismatch|assertion|failed] [--goals] [--limit REGEX]
               [--count NAME=MIN]... [--expect TEXT] [--field KEY]

--status: the run's status (default pass); failed: mismatch or assertion, with a command
reproducing it that names the block and a waveform; --goals: every coverage goal the
design can show was met; --limit: some limit line matches REGEX; --count: a count is at
least MIN; --expect: TEXT (a fixed string) occurs in a recorded mismatch, in the fired
assertion's message or in the report lines; --field KEY: print that top-level field (as
JSON) and nothing else. Exits 1 with the reason on the first check that fails."""
import argparse
import json
import re
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--status", default="pass")
    p.add_argument("--goals", action="store_true")
    p.add_argument("--limit")
    p.add_argument("--count", action="append", default=[])
    p.add_argument("--expect")
    p.add_argument("--field")
    a = p.parse_args()
    s = json.load(open(a.file))
    if a.field:
        print(json.dumps(s[a.field]))
        return 0
    where = f"{a.file} ({s['design']}, block {s['block']}, seed {s['seed']}, mode {s['mode']})"
    failed = a.status == "failed" and s["status"] in ("mismatch", "assertion")
    if s["status"] != a.status and not failed:
        first = s["mismatches"][0]["what"] if s["mismatches"] else ""
        sys.exit(f"{where}: status {s['status']}, expected {a.status} {first}")
    if failed and not (f"--block {s['block']} " in s["reproduce"] and "--trace " in s["reproduce"]):
        sys.exit(f"{where}: no command reproducing the failure with a waveform: '{s['reproduce']}'")
    if a.expect is not None:
        said = [m["what"] for m in s["mismatches"]] + [s["assertion"]] + s["report"]
        if not any(a.expect in line for line in said):
            sys.exit(f"{where}: '{a.expect}' is in no mismatch, assertion or report line: {said}")
    if a.goals and s["unmet_goals"]:
        sys.exit(f"{where}: coverage goals not met: {', '.join(s['unmet_goals'])}")
    if a.limit and not any(re.search(a.limit, line) for line in s["limits"]):
        sys.exit(f"{where}: no limit matching '{a.limit}' in {s['limits']}")
    for c in a.count:
        name, least = c.rsplit("=", 1)
        if s["counts"].get(name, -1) < int(least):
            sys.exit(f"{where}: count '{name}' is {s['counts'].get(name)}, expected >= {least}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
