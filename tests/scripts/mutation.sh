# The checker catches a real RTL fault: one adder of the tree loses an operand. The
# co-simulation must fail with status 1, name the lane, and print a reproduce command.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
"$npugen" generate "$config" -o "$dir" >/dev/null
top=$(manifest_field "$dir" top)
tree=$(ls "$dir"/rtl/*_adder_tree.sv)
# Level 1, node 1 adds lanes 2 and 3: drop its second operand, lane 3.
awk '/^  assign level1/ && ++n == 2 { sub(/ \+ .*;$/, ";"); mutated = 1 } { print }
     END { exit mutated ? 0 : 1 }' "$tree" >"$tree.new" || fail "the mutation did not apply"
mv "$tree.new" "$tree"
run_mutant "$dir"
grep -q 'lane 3: got = expected - its contribution' "$dir.out" || fail "lane 3 not named"
