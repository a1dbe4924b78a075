# Yosys synthesis of a generated design's block with its own script (SCRIPT, default the
# first block's), run from another directory: the script finds the design folder itself.
# It fails on latches; hierarchical unless NPUGEN_FLATTEN=1 is set.
source "$(dirname "$0")/common.sh"
dir=$(cd "$1" && pwd)
script=${2:-$(manifest_field "$dir" synthesis_script)}
log=$(mktemp)
(cd / && yosys -q -l "$log" -c "$dir/$script") || { tail -30 "$log"; fail "yosys failed"; }
grep -q 'Number of cells' "$log" || fail "no statistics in the yosys log"
grep -Eq '^ +\$_?DLATCH' "$log" && fail "latch inferred"
tail -45 "$log"
rm -f "$log"
