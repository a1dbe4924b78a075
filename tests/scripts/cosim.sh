# Co-simulation of one block of a design (RTL under Verilator against the golden model)
# with two seeds; the second run must reuse the cached verilated build.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 block=$4
"$npugen" sim "$config" -o "$dir" --block "$block" --cycles 20000 --seed 1 | tee "$dir.cosim1.log"
grep -q '^PASS: ' "$dir.cosim1.log" || fail "no PASS line"
"$npugen" sim "$config" -o "$dir" --block "$block" --cycles 20000 --seed 987654321 | tee "$dir.cosim2.log"
grep -q '^PASS: .*seed 987654321' "$dir.cosim2.log" || fail "no PASS line for the second seed"
grep -q 'model up to date' "$dir.cosim2.log" || fail "the unchanged design was rebuilt"
