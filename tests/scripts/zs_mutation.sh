# The zero-skipping co-simulation catches a real RTL fault: one lane-mux input (the
# weight moved from the next row and the lane to the right) reads zero instead. The
# run must fail with status 1 and print a reproduce command.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
"$npugen" generate "$config" -o "$dir" >/dev/null
mux=$(ls "$dir"/rtl/*_lane_mux.sv)
last=$(grep -c "(sel_i == " "$mux")
grep -q "(sel_i == .*'d$((last - 1))) ? cand_i" "$mux" || fail "unexpected lane mux"
sed -i "/(sel_i == .*'d$((last - 1))) ? cand_i/d" "$mux"
run_mutant "$dir"
grep -q 'acc_o tile' "$dir.out" || fail "no accumulator named"
