# npugen regress's timing jobs: a suite entry's `timing: [blocks]` runs npugen timing on each
# block at the design's clock (Yosys to Debian's OSU 0.18 um cells, OpenSTA). A 2 x 2 PE array
# at 20 MHz passes, the same at 400 MHz fails, each with its slack, fmax and critical path in
# results.json, the JUnit XML (read by junitparser) and the summary; the exit status is 1.
# A timing block the design does not generate, or none, exits 2 at the suite's line.
#   timing.sh NPUGEN PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 python=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/suite.yaml" <<'YAML'
tiers:
  clock:
    - configs:
        - {design: {name: slow, clock_mhz: 20}, pe_array: {tiles: 2, lanes: 2}}
        - {design: {name: fast, clock_mhz: 400}, pe_array: {tiles: 2, lanes: 2}}
      timing: [pe_array]
YAML
"$npugen" regress "$work/suite.yaml" --tier clock --list > "$work/list.log" ||
  fail "--list: $(cat "$work/list.log")"
grep -Eq "^timing +slow +pe_array +timing$" "$work/list.log" || fail "--list: $(cat "$work/list.log")"
set +e
"$npugen" regress "$work/suite.yaml" --tier clock --jobs 2 -o "$work/out" > "$work/run.log" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "exit status $status, not 1: $(cat "$work/run.log")"
"$python" - "$work" <<'PY' || fail "the reports are wrong: $(cat "$work/run.log")"
import json, re, sys
from junitparser import JUnitXml
work = sys.argv[1]
r = json.load(open(f"{work}/out/results.json"))
jobs = {j["design"]: j for j in r["jobs"]}
assert sorted(jobs) == ["fast", "slow"], r
for name, status, mhz in (("slow", "pass", 20), ("fast", "fail", 400)):
    j = jobs[name]
    assert j["kind"] == "timing" and j["block"] == "pe_array" and j["status"] == status, j
    m = re.match(r"setup slack (-?[\d.]+) ns at (\d+) MHz, fmax ([\d.]+) MHz; (\S+) -> (\S+)",
                 j["message"])
    assert m and int(m[2]) == mhz, j
    assert (float(m[1]) >= 0) == (status == "pass"), j
    t = json.load(open(j["details"]))
    assert t["blocks"][0]["block"] == "pe_array" and t["clock_mhz"] == mhz, t
    assert abs(t["blocks"][0]["fmax_mhz"] - float(m[3])) < 0.1, (t, j)
    assert j["reproduce"].startswith("npugen timing ") and "--block pe_array" in j["reproduce"], j
cases = {c.classname + "." + c.name: c for s in JUnitXml.fromfile(f"{work}/out/junit.xml") for c in s}
assert cases["slow.pe_array.timing"].is_passed, cases
assert not cases["fast.pe_array.timing"].is_passed, cases
summary = open(f"{work}/out/summary.txt").read()
assert "timing" in summary and "setup slack" in summary, summary
PY
# A timing block the design lacks, and an empty list: exit 2 at the line, nothing run.
printf 'tiers:\n  t:\n    - configs: {design: {name: a}, pe_array: {tiles: 2, lanes: 2}}\n      timing: [npu]\n' \
  > "$work/lacks.yaml"
printf 'tiers:\n  t:\n    - configs: {design: {name: a}, pe_array: {tiles: 2, lanes: 2}}\n      timing: []\n' \
  > "$work/empty.yaml"
for bad in lacks empty; do
  set +e
  "$npugen" regress "$work/$bad.yaml" --tier t -o "$work/$bad" > "$work/$bad.log" 2>&1
  status=$?
  set -e
  [ "$status" -eq 2 ] || fail "$bad: exit status $status, not 2: $(cat "$work/$bad.log")"
  grep -q "$bad.yaml:[45]: error: " "$work/$bad.log" || fail "$bad: $(cat "$work/$bad.log")"
  [ ! -e "$work/$bad" ] || fail "$bad: wrote $work/$bad"
done
