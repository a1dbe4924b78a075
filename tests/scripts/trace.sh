# --trace builds the traced variant and writes an FST waveform of the window asked for.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
fst="$dir.trace.fst"
rm -f "$fst"
"$npugen" sim "$config" -o "$dir" --cycles 300 --trace "$fst" --trace-from 100 | tee "$dir.trace.log"
grep -q '^PASS: ' "$dir.trace.log" || fail "no PASS"
[ -s "$fst" ] || fail "no waveform written"
head -c 1 "$fst" | od -An -tx1 | grep -q '00' || fail "not an FST file (no header block)"
