# Two generated designs whose module prefixes follow their names lint together: every block
# of both, in one Verilator run per top of the first, with -Wall (no module defined twice).
source "$(dirname "$0")/common.sh"
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd)
lists=()
for dir in "$a" "$b"; do
  for f in $(block_field "$dir" filelist); do lists+=(-F "$dir/$f"); done
done
for top in $(block_field "$a" top); do
  out=$(cd / && verilator --lint-only -Wall "${lists[@]}" --top-module "$top" 2>&1) \
    || fail "$(basename "$a") and $(basename "$b") do not lint together (top $top):\n$out"
  [ -z "$out" ] || fail "lint of $top beside $(basename "$b") printed warnings:\n$out"
  echo "lint together: $top beside every block of $(basename "$b")"
done
