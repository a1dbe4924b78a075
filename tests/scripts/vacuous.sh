# A co-simulation that compares none of the results its bench checks fails: BINARY (a
# built bench) run for CYCLES (too few for any result) must exit 1, its JSON summary saying
# "vacuous" and naming what it compared none of, and print VACUOUS.
#   vacuous.sh BINARY CYCLES
source "$(dirname "$0")/common.sh"
binary=$1 cycles=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rc=0
"$binary" --cycles "$cycles" --summary "$out/s.json" >"$out/log" 2>&1 || rc=$?
cat "$out/log"
[ "$rc" = 1 ] || fail "a run of $cycles cycles that compares nothing exited $rc, not 1"
grep -q "^VACUOUS: " "$out/log" || fail "no VACUOUS line"
python3 "$(dirname "$0")/summary.py" "$out/s.json" --status vacuous \
  --expect "nothing was compared in $cycles cycles" || fail "the summary does not say vacuous"
python3 - "$out/s.json" <<'PY' || fail "the summary does not count what was compared"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["compared"]["count"] == 0 and s["compared"]["what"], s["compared"]
PY
echo "a run that compares nothing fails"
