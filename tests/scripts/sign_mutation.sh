# The adder tree's sum is sign-extended from the bit below its top one: wrong only when the
# sum reaches its top bit, that is when every lane multiplies the most negative weight by
# the most negative activation at once. The stimulus has such all-lanes corner steps in
# every run, so every seed must catch it.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 block=${4:-pe_array}
rm -rf "$dir"
"$npugen" generate "$config" -o "$dir" >/dev/null
tile=$(ls "$dir"/rtl/*_pe_tile.sv)
python3 - "$tile" <<'PY' || fail "no sign fill to break in $tile"
import re, sys
path = sys.argv[1]
text = open(path).read()
new, n = re.subn(r"\{(\d+)\{sum\[(\d+)\]\}\}",
                 lambda m: "{%s{sum[%d]}}" % (m.group(1), int(m.group(2)) - 1), text, count=1)
assert n == 1
open(path, "w").write(new)
PY
for seed in 1 2 3; do run_mutant "$dir" "$block" 3000 "$seed"; done
echo "the wrong sign extension is caught with every seed"
