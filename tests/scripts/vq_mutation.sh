# A broken dequantizer must be caught: the vector-offset mask of every lookup loses its
# top bit, so vectors after the first of a row are read from the wrong weights. The
# co-simulation must fail with status 1, a mismatch report and a reproduce command.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
rm -rf "$dir"
"$npugen" generate "$config" -o "$dir" >/dev/null
rtl=$(ls "$dir"/rtl/*_vq_dequant.sv)
grep -q "'d3 >> vlen_q" "$rtl" || fail "the offset mask to break is not in $rtl"
sed -i "s/'d3 >> vlen_q/'d1 >> vlen_q/" "$rtl"
run_mutant "$dir" vq
grep -q 'RTL vs reference lookup' "$dir.out" || fail "the reference check did not fire"
grep -q -- '--block vq .*--trace mismatch.fst' "$dir.out" || fail "no reproduce command for the block"
