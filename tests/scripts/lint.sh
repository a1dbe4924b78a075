# Verilator lint of a generated design (or of one block: TOP): -Wall, zero warnings, no
# waivers needed.
source "$(dirname "$0")/common.sh"
dir=$1
top=${2:-$(manifest_field "$dir" top)}
filelist=$(manifest_field "$dir" filelist)
out=$(cd "$dir" && verilator --lint-only -Wall -F "$filelist" --top-module "$top" 2>&1) \
  || fail "verilator lint failed:\n$out"
[ -z "$out" ] || fail "verilator lint printed warnings:\n$out"
echo "lint clean: $top"
