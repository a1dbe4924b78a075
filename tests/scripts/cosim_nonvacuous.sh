# Co-simulation of one block of a design that its bench once ran without comparing anything
# (a load longer than the budget, stimulus the design refused): the check mode with seed 1
# and a second seed must pass having compared results (the JSON summary's compared count
# above 0). Coverage goals are not required: such designs are corners that keep some from
# showing. Same arguments as cosim.sh.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 block=$4
here=$(dirname "$0")
for seed in 1 987654321; do
  "$npugen" sim "$config" -o "$dir" --block "$block" --seed "$seed" \
    --summary "$dir.$block.$seed.json" | tee "$dir.$block.$seed.log"
  python3 "$here/summary.py" "$dir.$block.$seed.json"
  python3 - "$dir.$block.$seed.json" <<'PY' || fail "$block, seed $seed: nothing compared"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["compared"]["count"] > 0, s["compared"]
print(f"{s['compared']['what']}: {s['compared']['count']}")
PY
done
echo "cosim $block: two seeds compare results and pass"
