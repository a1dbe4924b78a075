# npugen explore on the real tools: the digits CNN over configs/npu_tiny.yaml with two lane
# counts. Each point's golden cycles equal npugen compile's for that configuration; Yosys's
# cells and flip-flops grow with the lanes; the Pareto front and the two picks agree with a
# brute force here; a second run takes every synthesis from the cache; shards fill the cache
# for the whole; JSON, CSV and SVG agree. Bad sweeps exit 2 and write nothing; a budget no
# point meets exits 1.
#   explore.sh NPUGEN ROOT PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 root=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cfg=$root/configs/npu_tiny.yaml net=$root/networks/digits/digits.yaml
sweep=(--sweep pe_array.lanes=2,4)
"$npugen" explore "$cfg" --network "$net" "${sweep[@]}" --jobs 2 --cache "$work/cache" \
  -o "$work/first" --html "$work/html" > "$work/first.log" || fail "explore: $(cat "$work/first.log")"
"$npugen" explore "$cfg" --network "$net" "${sweep[@]}" --jobs 2 --cache "$work/cache" \
  -o "$work/second" > "$work/second.log" || fail "the cached run: $(cat "$work/second.log")"
# The golden cycles through npugen compile, for the second point's configuration.
sed 's/^  lanes: 2$/  lanes: 4/' "$cfg" > "$work/lanes4.yaml"
grep -q '^  lanes: 4$' "$work/lanes4.yaml" || fail "the lanes=4 configuration was not made"
batch=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["points"][1]["batch"])' \
  "$work/first/explore.json")
"$npugen" compile "$work/lanes4.yaml" --network "$net" --batch "$batch" --out "$work/compiled" \
  > /dev/null || fail "npugen compile of lanes=4"
"$python" - "$work" <<'PY' || fail "the exploration is wrong"
import csv, json, sys, xml.etree.ElementTree as ET
work = sys.argv[1]
first = json.load(open(f"{work}/first/explore.json"))
second = json.load(open(f"{work}/second/explore.json"))
pts = first["points"]
assert [p["settings"]["pe_array.lanes"] for p in pts] == ["2", "4"], pts
assert all(p["status"] == "ok" and p["cells"] > 0 and p["ffs"] > 0 for p in pts), pts
assert not any(p["synth_cached"] for p in pts), "the first run found a cache"
assert pts[1]["cells"] > pts[0]["cells"] and pts[1]["ffs"] > pts[0]["ffs"], pts
assert pts[1]["cycles_per_image"] < pts[0]["cycles_per_image"], pts
compiled = json.load(open(f"{work}/compiled/report.json"))
assert compiled["expected_cycles"] == pts[1]["cycles"], (compiled["expected_cycles"], pts[1])
# The front by brute force: here neither point dominates the other.
def dominated(p, q):
    return (q["cycles_per_image"] <= p["cycles_per_image"] and q["cells"] <= p["cells"] and
            (q["cycles_per_image"] < p["cycles_per_image"] or q["cells"] < p["cells"]))
for p in pts:
    assert p["pareto"] == (not any(dominated(p, q) for q in pts if q is not p)), p
# The second run: the same numbers, every synthesis from the cache.
for a, b in zip(pts, second["points"]):
    assert b["synth_cached"] and b["synth_seconds"] == 0, b
    assert (a["cells"], a["ffs"], a["cycles"], a["manifest_hash"]) == \
           (b["cells"], b["ffs"], b["cycles"], b["manifest_hash"]), (a, b)
rows = list(csv.DictReader(open(f"{work}/first/explore.csv")))
assert [int(r["cells"]) for r in rows] == [p["cells"] for p in pts], rows
svg = ET.parse(f"{work}/first/pareto.svg").getroot()
circles = svg.findall(".//{http://www.w3.org/2000/svg}circle")
assert len(circles) == len(pts), len(circles)
assert "<svg" in open(f"{work}/html/index.html").read()
speed = [p["synth_seconds"] for p in pts]
print(f"lanes 2: {pts[0]['cycles_per_image']:.0f} cycles/image, {pts[0]['cells']} cells; "
      f"lanes 4: {pts[1]['cycles_per_image']:.0f}, {pts[1]['cells']} cells; Yosys "
      f"{speed[0]:.0f} s and {speed[1]:.0f} s, then both cached "
      f"(runs {first['seconds']:.1f} s and {second['seconds']:.2f} s)")
json.dump({"small": pts[0], "big": pts[1]}, open(f"{work}/points.json", "w"))
PY
# The picks, from the cache: the fastest within the small point's cells is the small point;
# the smallest reaching the big point's frame rate is the big point; a budget below both
# exits 1.
read -r small_cells big_fps <<<"$("$python" -c 'import json,sys; p=json.load(open(sys.argv[1]));
print(p["small"]["cells"], p["big"]["images_per_second"] * 0.999)' "$work/points.json")"
"$npugen" explore "$cfg" --network "$net" "${sweep[@]}" --cache "$work/cache" -o "$work/max" \
  --max-cells "$small_cells" > "$work/max.log" || fail "--max-cells: $(cat "$work/max.log")"
"$npugen" explore "$cfg" --network "$net" "${sweep[@]}" --cache "$work/cache" -o "$work/fps" \
  --min-fps "$big_fps" > "$work/fps.log" || fail "--min-fps: $(cat "$work/fps.log")"
"$python" - "$work" <<'PY' || fail "the picks are wrong"
import json, sys
work = sys.argv[1]
assert json.load(open(f"{work}/max/explore.json"))["chosen"] == 0
assert json.load(open(f"{work}/fps/explore.json"))["chosen"] == 1
PY
set +e
"$npugen" explore "$cfg" --network "$net" "${sweep[@]}" --cache "$work/cache" -o "$work/none" \
  --max-cells 10 > "$work/none.log" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "a budget no point meets: exit $status, not 1"
grep -q "no point meets max_cells 10" "$work/none.log" || fail "$(cat "$work/none.log")"
# Shards fill one cache; the whole then costs no synthesis.
for i in 1 2; do
  "$npugen" explore "$cfg" --network "$net" --sweep pe_array.tiles=2,3 --cache "$work/shared" \
    --shard "$i/2" --no-synth -o "$work/shard$i" > /dev/null || fail "shard $i/2"
done
"$python" - "$work" <<'PY' || fail "the shards are wrong"
import json, sys
work = sys.argv[1]
a = json.load(open(f"{work}/shard1/explore.json"))["points"]
b = json.load(open(f"{work}/shard2/explore.json"))["points"]
assert [p["status"] for p in a] == ["ok", "skipped"] and [p["status"] for p in b] == ["skipped", "ok"]
PY
# Bad input: exit 2, nothing written.
expect_refusal "$work/bad" "$work/bad1.log" "unknown key" -- \
  "$npugen" explore "$cfg" --network "$net" --sweep pe_array.lane=2,4 --no-synth -o "$work/bad"
expect_refusal "$work/bad" "$work/bad2.log" "--sweep pe_array.lanes: expected KEY=V1,V2,..." -- \
  "$npugen" explore "$cfg" --network "$net" --sweep pe_array.lanes --no-synth -o "$work/bad"
expect_refusal "$work/bad" "$work/bad3.log" "the network has no weights" -- \
  "$npugen" explore "$cfg" --network "$root/networks/small_cnn.yaml" --no-synth -o "$work/bad"
echo "picks: --max-cells $small_cells -> lanes 2, --min-fps $big_fps -> lanes 4; bad sweeps refused"
