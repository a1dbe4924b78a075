# npugen timing on the real tools (Yosys to Debian's OSU 0.18 um cells, OpenSTA on the
# bundle's SDC), on configs/post_odd_3.yaml: at 20 MHz both blocks meet the clock (exit 0)
# and the report's figures hang together; at 400 MHz the PE array misses it (exit 1);
# with timing.memory_macro_bits 256 the post unit's three table lanes are macros that
# OpenSTA times through the generated liberty stubs. Liberties that do not exist, do not
# parse, have no flip-flop or no driving cell, and an unknown block, exit 2.
#   timing.sh NPUGEN ROOT PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 root=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
[ -f "$lib" ] || fail "$lib is missing (README: setup installs qflow-tech-osu018)"

config() {  # config NAME CLOCK_MHZ [TIMING LINES...]
  local name=$1 clock=$2
  shift 2
  sed "s/^  name: post_odd_3$/  name: $name\n  clock_mhz: $clock/" "$root/configs/post_odd_3.yaml" \
    > "$work/$name.yaml"
  grep -q "clock_mhz: $clock" "$work/$name.yaml" || fail "the $name configuration was not made"
  if [ $# -gt 0 ]; then
    printf 'timing:\n' >> "$work/$name.yaml"
    printf '  %s\n' "$@" >> "$work/$name.yaml"
  fi
}

# 20 MHz: met.
config slow 20
"$npugen" timing "$work/slow.yaml" --block pe_array --block post -j 2 -o "$work/slow" \
  > "$work/slow.log" 2>&1 || fail "20 MHz: $(cat "$work/slow.log")"
"$python" - "$work/slow/timing.json" <<'PY' || fail "the 20 MHz report is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["met"] and r["period_ns"] == 50 and r["library"] == "osu018_stdcells", r
blocks = {b["block"]: b for b in r["blocks"]}
assert sorted(blocks) == ["pe_array", "post"], blocks
for name, b in blocks.items():
    assert b["status"] == "met", b
    s = b["setup"]
    assert s["slack_ns"] > 0 and b["wns_ns"] == 0 and b["tns_ns"] == 0, b
    # The slack is what the period leaves of the path: required - arrival.
    assert abs(s["required_ns"] - s["arrival_ns"] - s["slack_ns"]) < 0.002, s
    assert abs(b["fmax_mhz"] - 1000 / (50 - s["slack_ns"])) < 0.01, b
    assert s["cells"] > 1 and s["startpoint"] and s["endpoint"], s
    assert b["hold"]["slack_ns"] >= 0, b
    assert b["cells"] > 100 and b["flip_flops"] > 0 and b["area"] > 0 and b["macros"] == 0, b
# Three 32 x 32 multipliers are bigger than 30 8-bit ones, and slower.
assert blocks["post"]["cells"] > blocks["pe_array"]["cells"], blocks
assert blocks["post"]["fmax_mhz"] < blocks["pe_array"]["fmax_mhz"], blocks
PY
grep -q '^| post | met |' "$work/slow/timing.md" || fail "timing.md has no met post row"

# 400 MHz: the PE array's multiply, adder tree and accumulate miss 2.5 ns.
config fast 400
set +e
"$npugen" timing "$work/fast.yaml" --block pe_array -o "$work/fast" > "$work/fast.log" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || fail "400 MHz: exit status $rc, not 1: $(cat "$work/fast.log")"
"$python" - "$work/fast/timing.json" <<'PY' || fail "the 400 MHz report is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
b = r["blocks"][0]
assert not r["met"] and b["status"] == "violated", r
assert b["wns_ns"] < 0 and b["tns_ns"] <= b["wns_ns"] and b["setup_violations"] > 0, b
assert b["fmax_mhz"] < 400, b
PY

# Macros: the table lanes (7 groups of 70 bits, 490 bits each) at a limit of 256 bits.
config macros 20 "memory_macro_bits: 256" "memory_access_ns: 3.5"
"$npugen" timing "$work/macros.yaml" --block post -o "$work/macros" > "$work/macros.log" 2>&1 ||
  fail "macros: $(cat "$work/macros.log")"
grep -q 'cell (macros_macro_7x70)' "$work/macros/design/timing/macros_memories.lib" ||
  fail "the liberty stubs have no 7 x 70 macro"
"$python" - "$work/macros/timing.json" "$work/slow/timing.json" <<'PY' || fail "macros are wrong"
import json, sys
b = json.load(open(sys.argv[1]))["blocks"][0]
flops = {x["block"]: x for x in json.load(open(sys.argv[2]))["blocks"]}["post"]
assert b["status"] == "met" and b["macros"] == 3, b
# The table's 3 x 490 bits left the flip-flops.
assert flops["flip_flops"] - b["flip_flops"] >= 3 * 490, (flops["flip_flops"], b["flip_flops"])
PY

# Bad input: exit 2, naming the file and the problem.
expect_refusal() {  # expect_refusal WHAT PATTERN ARGS...
  local what=$1 pattern=$2
  shift 2
  set +e
  "$npugen" timing "$@" > "$work/bad.log" 2>&1
  local rc=$?
  set -e
  [ "$rc" = 2 ] || fail "$what: exit status $rc, not 2: $(cat "$work/bad.log")"
  grep -q -- "$pattern" "$work/bad.log" || fail "$what: no '$pattern' in: $(cat "$work/bad.log")"
}
expect_refusal "a missing liberty" "$work/none.lib" "$work/slow.yaml" --liberty "$work/none.lib" \
  -o "$work/bad1"
printf 'library (broken) {\n  cell (X) {\n' > "$work/broken.lib"
expect_refusal "a liberty that does not parse" "broken.lib: does not parse" "$work/slow.yaml" \
  --liberty "$work/broken.lib" -o "$work/bad2"
cat > "$work/noff.lib" <<'LIB'
library (noff) {
  time_unit : "1ns";
  capacitive_load_unit (1,pf);
  slew_upper_threshold_pct_rise : 80;
  slew_lower_threshold_pct_rise : 20;
  slew_upper_threshold_pct_fall : 80;
  slew_lower_threshold_pct_fall : 20;
  input_threshold_pct_rise : 50;
  input_threshold_pct_fall : 50;
  output_threshold_pct_rise : 50;
  output_threshold_pct_fall : 50;
  cell (BUFX2) {
    area : 1;
    pin (A) { direction : input; capacitance : 0.01; }
    pin (Y) { direction : output; function : "A"; }
  }
}
LIB
expect_refusal "a liberty without flip-flops" "noff.lib: has no flip-flop" "$work/slow.yaml" \
  --liberty "$work/noff.lib" -o "$work/bad3"
sed 's/cell (BUFX2)/cell (BUFQQ)/' "$lib" > "$work/nobuf.lib"
expect_refusal "a liberty without the driving cell" "nobuf.lib: has no cell BUFX2" \
  "$work/slow.yaml" --liberty "$work/nobuf.lib" -o "$work/bad4"
expect_refusal "an unknown block" "--block sequencer: .* generates no such block" \
  "$work/slow.yaml" --block sequencer -o "$work/bad5"
for d in bad1 bad2 bad3 bad4 bad5; do
  [ ! -e "$work/$d" ] || fail "a refused run wrote $work/$d"
done
echo "timing: met at 20 MHz, missed at 400 MHz, macros timed, 5 bad inputs refused"
