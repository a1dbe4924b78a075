# One mutation of a generated design that its co-simulation must catch: in the first RTL
# file of DIR matching GLOB (a GLOB with a folder, such as sw/*_driver.c, is relative to
# DIR instead of DIR/rtl), the OCCURRENCE-th match (1-based; -1: the last) of the
# Python regular expression FROM is replaced by TO; BLOCK's co-simulation is then built
# and run for CYCLES with each seed of SEEDS (comma-separated; empty: the configuration's)
# and must fail with status 1; its JSON summary must say mismatch or assertion, with a
# reproduce command, and hold EXPECT (a fixed string; empty: nothing more) in a mismatch,
# the fired assertion's message or the report (run_mutant, summary.py --expect).
#
#   mutate.sh NPUGEN CONFIG DIR BLOCK GLOB FROM TO OCCURRENCE EXPECT CYCLES SEEDS
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 block=$4 glob=$5 from=$6 to=$7 occurrence=$8 expect=$9
cycles=${10} seeds=${11:-}
rm -rf "$dir"
"$npugen" generate "$config" -o "$dir" >/dev/null
case $glob in
  */*) rtl=$(ls "$dir"/$glob 2>/dev/null | head -n 1) ;;
  *) rtl=$(ls "$dir"/rtl/$glob 2>/dev/null | head -n 1) ;;
esac
[ -n "$rtl" ] || fail "no file matches $glob in $dir (or $dir/rtl)"
python3 - "$rtl" "$from" "$to" "$occurrence" <<'PY' || fail "the mutation did not apply to $rtl"
import re, sys
path, pattern, replacement, occurrence = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
text = open(path).read()
matches = list(re.finditer(pattern, text, re.MULTILINE))
if not matches:
    sys.exit(f"'{pattern}' does not occur in {path}")
m = matches[occurrence - 1 if occurrence > 0 else occurrence]
new = text[:m.start()] + m.expand(replacement) + text[m.end():]
if new == text:
    sys.exit(f"replacing '{pattern}' changes nothing in {path}")
text = new
open(path, "w").write(text)
PY
for seed in ${seeds//,/ }; do
  run_mutant "$dir" "$block" "$cycles" "$seed" "$expect"
done
if [ -z "$seeds" ]; then
  run_mutant "$dir" "$block" "$cycles" "" "$expect"
fi
echo "mutation of $(basename "$rtl") caught"
