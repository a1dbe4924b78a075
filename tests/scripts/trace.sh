# --trace builds the traced variant and writes an FST waveform of the window asked for.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
fst="$dir.trace.fst"
rm -f "$fst"
"$npugen" sim "$config" -o "$dir" --cycles 300 --trace "$fst" --trace-from 100 \
  --summary "$dir.trace.json" | tee "$dir.trace.log"
python3 "$(dirname "$0")/summary.py" "$dir.trace.json"
[ -s "$fst" ] || fail "no waveform written"
head -c 1 "$fst" | od -An -tx1 | grep -q '00' || fail "not an FST file (no header block)"
