# Verilator lint of every block's top of a generated design (or of one: TOP): -Wall, zero
# warnings, no waivers needed.
source "$(dirname "$0")/common.sh"
dir=$1
tops=${2:-$(block_tops "$dir")}
filelist=$(manifest_field "$dir" filelist)
for top in $tops; do
  out=$(cd "$dir" && verilator --lint-only -Wall -F "$filelist" --top-module "$top" 2>&1) \
    || fail "verilator lint of $top failed:\n$out"
  [ -z "$out" ] || fail "verilator lint of $top printed warnings:\n$out"
  echo "lint clean: $top"
done
