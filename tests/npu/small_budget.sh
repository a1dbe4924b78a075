# The NPU bench draws a random network the cycle budget runs (the golden model alone within
# half of it): a small budget still runs one, and a budget no network fits is refused with
# status 2 and the reason, not run into a failure.
#   small_budget.sh SIM   (a built NPU co-simulation: build-npu/sim)
source "$(dirname "$0")/../scripts/common.sh"
sim=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$sim" --seed 3 --cycles 3000 --summary "$work/small.json" > "$work/small.log" 2>&1 ||
  fail "a network within 3000 cycles: $(tail -5 "$work/small.log")"
python3 - "$work/small.json" <<'PY' || fail "the small budget's run: $(cat "$work/small.log")"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "pass" and s["cycles"] <= 3000, s
# Seed 3's first draws run longer than 1500 cycles on the golden model: drawn again.
assert s["counts"]["random networks too long for the cycle budget"] > 0, s["counts"]
PY
expect_refusal "$work/none.json" "$work/none.log" "no random network fits this design and its cycle budget" \
  "raise --cycles" -- "$sim" --seed 3 --cycles 30 --summary "$work/none.json"
echo "3000 cycles: $(grep -o '[0-9]* random networks too long for the cycle budget' "$work/small.log");" \
  "30 cycles: $(head -c 200 "$work/none.log")"
