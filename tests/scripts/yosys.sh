# Yosys synthesis of a generated design with its own script, which fails on latches.
source "$(dirname "$0")/common.sh"
dir=$1
script=${2:-$(manifest_field "$dir" synthesis_script)}
log=$(mktemp)
(cd "$dir" && yosys -q -l "$log" -s "$script") || { tail -30 "$log"; fail "yosys failed"; }
grep -q 'Number of cells' "$log" || fail "no statistics in the yosys log"
grep -iq 'latch' <(grep -A40 'Number of cells' "$log" | grep -i 'DLATCH') && fail "latch inferred"
grep -A40 'Number of cells' "$log" | head -40
rm -f "$log"
