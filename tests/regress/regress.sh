# npugen regress (issue 17, first part): a suite's tier in a local pool of 2, each design
# generated and verilated once; results.json, junit.xml (read by junitparser, as CI systems
# read JUnit XML) and the summary; a tier with a failing job exits 1, its failure in the XML
# with the reproduce line, and --rerun-failed runs that job alone; bad suites exit 2 at their
# line and write nothing.
#   regress.sh NPUGEN SUITE PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 suite=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$npugen" regress "$suite" --jobs 2 -o "$work/smoke" > "$work/smoke.log" ||
  fail "the smoke tier failed: $(cat "$work/smoke.log")"
set +e
"$npugen" regress "$suite" --tier broken --jobs 2 -o "$work/broken" > "$work/broken.log" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "the broken tier exited $status, not 1"
"$npugen" regress "$suite" --tier broken --rerun-failed "$work/broken/results.json" \
  -o "$work/rerun" > "$work/rerun.log" 2>&1 && fail "the rerun of the failure passed"
"$python" - "$work" <<'PY' || fail "the reports are wrong"
import json, sys
from junitparser import JUnitXml
work = sys.argv[1]
smoke = json.load(open(f"{work}/smoke/results.json"))
assert smoke["jobs_at_once"] == 2, smoke
assert len(smoke["jobs"]) == 4 and all(j["status"] == "pass" for j in smoke["jobs"]), smoke
assert all(j["cycles"] == 3000 and j["config_hash"] for j in smoke["jobs"]), smoke
cases = [c for s in JUnitXml.fromfile(f"{work}/smoke/junit.xml") for c in s]
assert len(cases) == 4 and all(c.is_passed for c in cases), cases
broken = [c for s in JUnitXml.fromfile(f"{work}/broken/junit.xml") for c in s]
failed = [c for c in broken if not c.is_passed]
assert len(broken) == 2 and len(failed) == 1, broken
assert "reproduce: npugen run" in failed[0].result[0].text, failed[0].result[0].text
rerun = json.load(open(f"{work}/rerun/results.json"))
assert [(j["design"], j["kind"]) for j in rerun["jobs"]] == [("npu_tiny", "network")], rerun
print(f"smoke: 4 jobs pass in {smoke['wall_seconds']:.1f} s at 2 at once; broken: 1 of 2 "
      "fails, in the JUnit XML with its reproduce line; the rerun runs it alone")
PY
# Bad suites: an unknown key, a glob that matches nothing, a tier that does not exist.
printf 'tiers:\n  smoke:\n    - {configs: x.yaml, blockz: [pe_array]}\n' > "$work/unknown.yaml"
expect_refusal "$work/out" "$work/unknown.log" "unknown.yaml:3: error: unknown key 'blockz'" -- \
  "$npugen" regress "$work/unknown.yaml" -o "$work/out"
printf 'tiers:\n  smoke:\n    - {configs: "nothing_*.yaml", blocks: [pe_array]}\n' > "$work/glob.yaml"
expect_refusal "$work/out" "$work/glob.log" "glob.yaml:3: error: 'nothing_*.yaml' matches no configuration file" \
  -- "$npugen" regress "$work/glob.yaml" -o "$work/out"
expect_refusal "$work/out" "$work/tier.log" "no tier 'nightly' (the suite has smoke, broken, hang)" -- \
  "$npugen" regress "$suite" --tier nightly -o "$work/out"
expect_refusal "$work/out" "$work/shard.log" "--shard '5/4': expected i/n with 1 <= i <= n" -- \
  "$npugen" regress "$suite" --shard 5/4 -o "$work/out"
echo "bad suites refused at their line, a shard 5/4 refused"
# One random valid configuration (seed 3): generated, each enabled block linted and
# co-simulated; the drawn file kept in the work folder.
"$npugen" regress --random 1 --seed 3 --jobs 2 -o "$work/random" > "$work/random.log" ||
  fail "the random configuration failed: $(cat "$work/random.log")"
[ -f "$work/random.work/random/rand_3_0.yaml" ] || fail "the drawn configuration is not kept"
"$python" - "$work" <<'PY' || fail "the random run's report is wrong"
import json, sys
jobs = json.load(open(f"{sys.argv[1]}/random/results.json"))["jobs"]
lint = [j for j in jobs if j["lint"]]
sims = [j for j in jobs if not j["lint"]]
assert lint and len(lint) == len(sims), jobs
assert {j["block"] for j in lint} == {j["block"] for j in sims}
assert all(j["status"] == "pass" for j in jobs), jobs
print(f"random configuration rand_3_0: {len(sims)} blocks linted and co-simulated")
PY
# --random-scope: the small draws keep sim.cycles at 6000 or less and arrays at 64
# multipliers or less; full ones reach past both (listed only: nothing is built).
for scope in small full; do
  "$npugen" regress --random 40 --seed 9 --random-scope "$scope" --list -o "$work/scope_$scope" \
    > "$work/scope_$scope.log" || fail "--random-scope $scope --list failed"
done
"$python" - "$work" <<'PY' || fail "--random-scope does not set the draw's ranges"
import glob, re, sys
def sizes(scope):
    cycles, macs, files = [], [], 0
    for f in glob.glob(f"{sys.argv[1]}/scope_{scope}.work/random/*.yaml"):
        text = open(f).read()
        files += 1
        assert ("--random-scope full" in text) == (scope == "full"), f
        cycles += [int(c) for c in re.findall(r"^  cycles: (\d+)", text, re.M)]
        t = re.search(r"^  tiles: (\d+)", text, re.M)
        l = re.search(r"^  lanes: (\d+)", text, re.M)
        if t and l:
            macs.append(int(t.group(1)) * int(l.group(1)))
    assert files == 40 and cycles and macs, (scope, files)
    return max(cycles), max(macs)
small, full = sizes("small"), sizes("full")
assert small[0] <= 6000 and small[1] <= 64, small
assert full[0] > 6000 and full[1] > 64, full
print(f"--random-scope: small draws reach {small}, full ones {full} (cycles, multipliers)")
PY
# Two shards of the smoke tier and their merge: the same four jobs, each run once.
for i in 1 2; do
  "$npugen" regress "$suite" --shard "$i/2" --jobs 2 -o "$work/shard$i" > "$work/shard$i.log" ||
    fail "shard $i/2 failed: $(cat "$work/shard$i.log")"
done
"$npugen" regress --merge "$work/shard1" "$work/shard2" -o "$work/merged" > "$work/merged.log" ||
  fail "the merge failed: $(cat "$work/merged.log")"
"$python" - "$work" <<'PY' || fail "the shards do not add up to the tier"
import json, sys
work = sys.argv[1]
key = lambda j: (j["design"], j["block"], j["seed"])
shards = [json.load(open(f"{work}/shard{i}/results.json"))["jobs"] for i in (1, 2)]
merged = json.load(open(f"{work}/merged/results.json"))["jobs"]
smoke = json.load(open(f"{work}/smoke/results.json"))["jobs"]
assert len(shards[0]) == 2 and len(shards[1]) == 2, shards
assert not set(map(key, shards[0])) & set(map(key, shards[1]))
assert sorted(map(key, merged)) == sorted(map(key, smoke)), (merged, smoke)
print("shards 1/2 and 2/2: two jobs each, merged into the tier's four")
PY
# A job that hangs (three billion cycles, the model built by the smoke tier above) is killed
# at its timeout and reported as such.
set +e
"$npugen" regress "$suite" --tier hang --timeout 3 -o "$work/smoke" > "$work/hang.log" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "the hanging tier exited $status, not 1: $(cat "$work/hang.log")"
grep -q "timeout" "$work/smoke/summary.txt" || fail "not reported as a timeout: $(cat "$work/hang.log")"
# A job that crashes does not stop the others: the smoke tier again in its folder, with
# tiny_1x1's built co-simulation replaced by a program that dies of SIGSEGV.
fake=$work/smoke.work/designs/tiny_1x1/sim/build-pe_array/sim
[ -x "$fake" ] || fail "no built co-simulation at $fake"
printf '#!/bin/sh\nkill -SEGV $$\n' > "$fake"
set +e
"$npugen" regress "$suite" --jobs 2 -o "$work/smoke" > "$work/crash.log" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "the tier with a crash exited $status, not 1: $(cat "$work/crash.log")"
"$python" - "$work" <<'PY' || fail "the crash is not reported as one"
import json, sys
jobs = json.load(open(f"{sys.argv[1]}/smoke/results.json"))["jobs"]
status = {(j["design"], j["seed"]): j["status"] for j in jobs}
assert status == {("tiny_1x1", 1): "crash", ("tiny_1x1", 2): "crash",
                  ("wide_2x3", 1): "pass", ("wide_2x3", 2): "pass"}, status
print("a hanging job killed at its timeout; crashed jobs reported, the others passed")
PY
