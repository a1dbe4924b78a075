# The generated RTL compiles and elaborates in Icarus Verilog (-g2012) without a
# warning: a cross-check of the SystemVerilog subset against a second simulator.
source "$(dirname "$0")/common.sh"
dir=$1
filelist=$(manifest_field "$dir" filelist)
# Into a file of our own, never -o /dev/null: iverilog makes its output executable, and as
# root that turns /dev/null into mode 0755, which other users (munged) can then not open.
vvp=$(mktemp)
trap 'rm -f "$vvp"' EXIT
out=$(cd "$dir" && iverilog -g2012 -Wall -o "$vvp" -f "$filelist" 2>&1) || { echo "$out"; fail "iverilog failed"; }
# Icarus 11 compiles `unique case` as a plain case and says so: the one message accepted
# (the uniqueness is checked by Verilator's assertions and lint instead).
out=$(echo "$out" | grep -v 'vvp.tgt sorry: Case unique/unique0 qualities are ignored.' || true)
[ -z "$out" ] || { echo "$out"; fail "iverilog printed warnings"; }
echo "icarus: $(wc -l <"$dir/$filelist") file(s) compile cleanly"
