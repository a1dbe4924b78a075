# --trace builds the traced variant and writes an FST waveform of the window asked for; a
# trace from cycle 0 shows the reset, and its clock period is the one design.clock_mhz says.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
fst="$dir.trace.fst"
rm -f "$fst"
"$npugen" sim "$config" -o "$dir" --cycles 300 --trace "$fst" --trace-from 100 \
  --summary "$dir.trace.json" | tee "$dir.trace.log"
python3 "$(dirname "$0")/summary.py" "$dir.trace.json"
[ -s "$fst" ] || fail "no waveform written"
head -c 1 "$fst" | od -An -tx1 | grep -q '00' || fail "not an FST file (no header block)"

# From cycle 0: read back with gtkwave's fst2vcd.
command -v fst2vcd >/dev/null || fail "fst2vcd (Debian gtkwave) is missing: run scripts/setup.sh"
fst0="$dir.trace0.fst"
rm -f "$fst0"
"$npugen" sim "$config" -o "$dir" --cycles 40 --trace "$fst0" --trace-from 0 \
  --summary "$dir.trace0.json" >"$dir.trace0.log" || fail "traced run from cycle 0 failed"
fst2vcd "$fst0" >"$dir.trace0.vcd" || fail "fst2vcd cannot read $fst0"
mhz=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['config']['design']['clock_mhz'])" \
  "$dir/config.resolved.json")
python3 "$(dirname "$0")/trace_check.py" "$dir.trace0.vcd" "$mhz" || fail "waveform check"
