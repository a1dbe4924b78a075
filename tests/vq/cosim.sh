# Co-simulation of a design's dequantizer (--block vq): RTL against the golden model and
# the plain reference lookup with two seeds (the second reusing the cached build), then a
# continuous stream that must deliver exactly P x m weights every cycle for every vector
# length, with no bubble.
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 dir=$3
"$npugen" sim "$config" -o "$dir" --block vq --cycles 30000 --seed 1 | tee "$dir.vq1.log"
grep -q '^PASS: .*block vq' "$dir.vq1.log" || fail "no PASS line"
grep -Eq 'looked up, [1-9][0-9]* raw, [1-9][0-9]* with an index error' "$dir.vq1.log" \
  || fail "the stimulus did not reach raw beats and index errors"
"$npugen" sim "$config" -o "$dir" --block vq --cycles 30000 --seed 424242 | tee "$dir.vq2.log"
grep -q '^PASS: .*seed 424242' "$dir.vq2.log" || fail "no PASS line for the second seed"
grep -q 'model up to date' "$dir.vq2.log" || fail "the unchanged design was rebuilt"

"$npugen" sim "$config" -o "$dir" --block vq --cycles 4000 --mode throughput | tee "$dir.vq3.log"
grep -q '^THROUGHPUT: .* 0 bubble(s)$' "$dir.vq3.log" || fail "bubbles in a continuous stream"
# Every vector length the design supports was streamed, each at exactly P x m weights a beat.
lengths=$(sed -n 's/^THROUGHPUT m=\([0-9]*\): .*/\1/p' "$dir.vq3.log" | wc -l)
min=$(sed -n 's/.*"min_vector_length": \([0-9]*\).*/\1/p' "$dir/config.resolved.json" | head -1)
max=$(sed -n 's/.*"row_weights": \([0-9]*\).*/\1/p' "$dir/config.resolved.json" | head -1)
want=0; for ((m = min; m <= max; m *= 2)); do want=$((want + 1)); done
[ "$lengths" = "$want" ] || fail "$lengths vector length(s) streamed, the design supports $want"
while read -r line; do
  per_beat=$(echo "$line" | sed -n 's/.* \([0-9.]*\) weights\/beat (P x m = \([0-9]*\))/\1 \2/p')
  set -- $per_beat
  awk -v a="$1" -v b="$2" 'BEGIN { exit !(a == b) }' || fail "not P x m: $line"
done < <(grep '^THROUGHPUT m=' "$dir.vq3.log")
echo "throughput: exactly P x m weights per cycle for all $want vector length(s), no bubble"
