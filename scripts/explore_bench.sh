#!/usr/bin/env bash
# npugen explore's speed (issue 17): points per minute with an empty synthesis cache and then
# with it full, in one run of this script (a ratio, as the machines are shared). The sweep is
# the digits CNN over configs/npu_tiny.yaml, PE arrays of 2 and 4 tiles and lanes (4 points);
# give other sweeps as arguments.
#
#   scripts/explore_bench.sh [NPUGEN] [--sweep KEY=V1,V2,...]...
#                          (default build/generator/npugen; --jobs is the cores)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${1:-$root/build/generator/npugen}
shift || true
sweeps=("$@")
[ ${#sweeps[@]} -gt 0 ] || sweeps=(--sweep pe_array.tiles=2,4 --sweep pe_array.lanes=2,4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # run NAME: one exploration against the cache; prints its points and seconds
  "$npugen" explore "$root/configs/npu_tiny.yaml" --network "$root/networks/digits/digits.yaml" \
    "${sweeps[@]}" --cache "$work/cache" -o "$work/$1" > "$work/$1.log"
  python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))
print(len(e["points"]), e["seconds"], sum(p["synth_cached"] for p in e["points"]))' \
    "$work/$1/explore.json"
}
read -r points cold cold_cached <<<"$(run cold)"
read -r _ warm warm_cached <<<"$(run warm)"
read -r _ golden _ <<<"$("$npugen" explore "$root/configs/npu_tiny.yaml" \
  --network "$root/networks/digits/digits.yaml" "${sweeps[@]}" --no-synth -o "$work/golden" \
  > /dev/null && python3 -c 'import json, sys
e = json.load(open(sys.argv[1])); print(len(e["points"]), e["seconds"], 0)' \
  "$work/golden/explore.json")"
python3 - "$points" "$cold" "$cold_cached" "$warm" "$warm_cached" "$golden" <<'PY'
import sys
n, cold, cc, warm, wc, golden = int(sys.argv[1]), *map(float, sys.argv[2:])
per_min = lambda s: 60 * n / s if s > 0 else float("inf")
print(f"{n} points; {int(cc)} then {int(wc)} syntheses from the cache")
print(f"| run | seconds | points per minute |\n| --- | ---: | ---: |")
print(f"| empty synthesis cache | {cold:.1f} | {per_min(cold):.2f} |")
print(f"| full synthesis cache | {warm:.2f} | {per_min(warm):.0f} |")
print(f"| golden cycles only (--no-synth) | {golden:.2f} | {per_min(golden):.0f} |")
print(f"cache speed-up: {cold / warm:.0f}x")
PY
