# npugen schedule on the three example networks: the JSON report's figures are
# consistent (lower bound <= makespan <= serial, efficiency in [0, 1], hazard check
# passed), the SVG parses as XML, output is byte-identical on a second run, the seed's
# planar tasks P2 to P4 finish while C3 still runs, and the RTL runs the seed's list in
# exactly the makespan the golden model reports.
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 networks=$3 work=$4 design=$5
rm -rf "$work" && mkdir -p "$work"
for net in seed_example residual_block small_cnn; do
  "$npugen" schedule "$config" --network "$networks/$net.yaml" --out "$work/$net.json" \
    --svg "$work/$net.svg" --descriptors "$work/$net.bin" | tee "$work/$net.log"
  python3 - "$work/$net.json" "$work/$net.svg" <<'PY'
import json, sys, xml.etree.ElementTree as ET
r = json.load(open(sys.argv[1]))
lb, mk, se = r["lower_bound"]["value"], r["makespan"], r["serial_makespan"]
assert lb <= mk <= se, (lb, mk, se)
assert 0.0 <= r["overlap_efficiency"] <= 1.0, r["overlap_efficiency"]
assert r["hazard_check"] == "passed"
assert all(t["end"] - t["start"] == t["cycles"] for t in r["tasks"])
root = ET.parse(sys.argv[2]).getroot()
assert root.tag.endswith("svg") and len(root.findall("{http://www.w3.org/2000/svg}rect")) > len(r["tasks"])
print(f"{sys.argv[1]}: makespan {mk}, serial {se}, lower bound {lb}, efficiency {r['overlap_efficiency']:.3f}")
PY
  "$npugen" schedule "$config" --network "$networks/$net.yaml" --out "$work/$net.2.json" \
    --svg "$work/$net.2.svg" --quiet
  cmp "$work/$net.json" "$work/$net.2.json" || fail "$net: the JSON differs between runs"
  cmp "$work/$net.svg" "$work/$net.2.svg" || fail "$net: the SVG differs between runs"
done
python3 - "$work/seed_example.json" <<'PY'
import json, sys
t = {x["name"]: x for x in json.load(open(sys.argv[1]))["tasks"]}
c3_end = max(v["end"] for k, v in t.items() if k.startswith("C3"))
for p in ("P2", "P3", "P4"):
    assert t[p]["end"] < c3_end, (p, t[p], c3_end)
assert t["P5"]["start"] >= c3_end
print("seed example: P2, P3 and P4 finish while C3 runs; P5 waits for C3")
PY
want=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['makespan'])" "$work/seed_example.json")
"$npugen" sim "$config" -o "$design" --block tasks --descriptors "$work/seed_example.bin" \
  --summary "$work/seed_rtl.json" | tee "$work/seed_rtl.log"
python3 "$(dirname "$0")/../scripts/summary.py" "$work/seed_rtl.json" --count "makespan=$want"
got=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['counts']['makespan'])" \
  "$work/seed_rtl.json")
[ "$got" = "$want" ] || fail "the RTL's makespan of the seed example is $got, the golden model's $want"
echo "RTL: seed example in $want cycles, as the golden model schedules it"

# A hand-written task list (--tasks): P2 to P4 overlap C3; P5 overwrites C2's input region
# only after C2 finished (a write-after-read conflict the unit honours).
"$npugen" schedule "$config" --tasks "$networks/../tasklists/seed_fig8.yaml" \
  --out "$work/fig8.json" | tee "$work/fig8.log"
python3 - "$work/fig8.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in r["tasks"]}
assert t["P4"]["end"] < t["C3"]["end"] and t["P5"]["start"] >= t["C3"]["end"]
assert t["P5"]["start"] >= t["C2"]["end"]
assert r["lower_bound"]["value"] <= r["makespan"] < r["serial_makespan"]
print(f"fig8 task list: makespan {r['makespan']}, serial {r['serial_makespan']}, efficiency {r['overlap_efficiency']:.3f}")
PY
