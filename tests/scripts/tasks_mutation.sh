# A broken task buffer must be caught: its region-overlap test misses an overlap of one
# word at a region's end, so a task may start before a producer it depends on finished.
# The co-simulation must fail with status 1, a mismatch report and a reproduce command.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
rm -rf "$dir"
"$npugen" generate "$config" -o "$dir" >/dev/null
rtl=$(ls "$dir"/rtl/*_task_buffer.sv)
pattern="{1'b0, b_base} < {1'b0, a_base} + {1'b0, a_words};"
grep -qF "$pattern" "$rtl" || fail "the overlap test to break is not in $rtl"
sed -i "s/{1'b0, b_base} < {1'b0, a_base} + {1'b0, a_words};/{1'b0, b_base} < {1'b0, a_base} + {1'b0, a_words} - 1'b1;/" "$rtl"
run_mutant "$dir" tasks 60000
grep -q -- '--block tasks .*--trace mismatch.fst' "$dir.out" || fail "no reproduce command for the block"
