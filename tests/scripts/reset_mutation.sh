# An output that comes out of reset wrong is caught in reset: one register of BLOCK gets
# the wrong reset value (FROM replaced by TO in the first RTL file matching GLOB whose
# reset branch holds it). The co-simulation, which compares every output from the first
# cycle of reset, must fail with status 1 and say so.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 block=$4 glob=$5 from=$6 to=$7
rm -rf "$dir"
"$npugen" generate "$config" -o "$dir" >/dev/null
rtl=$(ls "$dir"/rtl/$glob | head -n 1)
grep -qF -- "$from" "$rtl" || fail "'$from' is not in $rtl"
python3 - "$rtl" "$from" "$to" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
open(path, "w").write(text.replace(old, new, 1))
PY
run_mutant "$dir" "$block" 200
# Reset is asynchronous: the wrong value shows as soon as reset is asserted, before any edge.
grep -q 'in reset after 0 edge(s)' "$dir.out" || fail "the wrong reset value was not reported in reset"
