# Co-simulation of one block of a design (RTL under Verilator against the golden model):
# every mode of the block's bench (the manifest lists them) with seed 1, then the check mode
# with a second seed, which must reuse the cached verilated build. Each run's JSON summary
# must say pass with every coverage goal the design can show met.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 block=$4
here=$(dirname "$0")
modes=$(python3 -c 'import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    if b["block"] == sys.argv[2]: print(" ".join(b["bench"]["modes"]))' "$dir/manifest.json" "$block")
[ -n "$modes" ] || fail "block $block is not in $dir/manifest.json"
for mode in $modes; do
  "$npugen" sim "$config" -o "$dir" --block "$block" --mode "$mode" --seed 1 \
    --summary "$dir.$block.$mode.json" | tee "$dir.$block.$mode.log"
  python3 "$here/summary.py" "$dir.$block.$mode.json" --goals
done
binary="$dir/sim/build-$block/sim"
before=$(stat -c %Y.%s "$binary")
"$npugen" sim "$config" -o "$dir" --block "$block" --seed 987654321 \
  --summary "$dir.$block.seed2.json" | tee "$dir.$block.seed2.log"
python3 "$here/summary.py" "$dir.$block.seed2.json" --goals
[ "$(stat -c %Y.%s "$binary")" = "$before" ] || fail "the unchanged design's model was rebuilt"
echo "cosim $block: modes $modes and a second seed pass"
