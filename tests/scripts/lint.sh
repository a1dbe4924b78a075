# Verilator lint of every block of a generated design (or of the block whose top is TOP):
# -Wall, zero warnings, no waivers needed. Each block's own filelist is given with -F from
# another directory and no --top-module: the paths resolve from the filelist's folder and
# the filelist holds one top (no MULTITOP). Without TOP, the folder's README and register
# maps are checked too (design_docs.sh; Python $NPUGEN_PYTHON).
source "$(dirname "$0")/common.sh"
dir=$(cd "$1" && pwd)
only=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
cd /
paste <(block_field "$dir" top) <(block_field "$dir" filelist) | while read -r top filelist; do
  [ -z "$only" ] || [ "$only" = "$top" ] || continue
  out=$(verilator --lint-only -Wall -F "$dir/$filelist" 2>&1) \
    || fail "verilator lint of $top ($filelist) failed:\n$out"
  [ -z "$out" ] || fail "verilator lint of $top printed warnings:\n$out"
  echo "lint clean: $top"
done
[ -n "$only" ] || bash "$here/design_docs.sh" "$dir"
