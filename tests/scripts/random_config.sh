# One random valid configuration (tests/tools/random_configs): what `npugen check` accepts
# must generate, lint clean (every block's top, Verilator -Wall), compile in Icarus, and
# pass the co-simulation of every block it enables (each run's JSON summary says pass). On
# failure the configuration is named, so that `npugen sim CONFIG` reproduces it. EXPECT,
# when given, is a regular expression some limit of some block's summary must match (a
# scenario the design cannot show).
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 expect=${4:-}
here=$(dirname "$0")
trap 'echo "configuration: $config"' ERR

"$npugen" generate "$config" -o "$dir" >/dev/null
bash "$here/lint.sh" "$dir"
bash "$here/icarus_compile.sh" "$dir"
blocks=$(python3 -c "import json,sys; print(' '.join(b['block'] for b in json.load(open(sys.argv[1]))['blocks']))" \
  "$dir/manifest.json")
found=
for block in $blocks; do
  "$npugen" sim "$config" -o "$dir" --block "$block" --summary "$dir.$block.json" \
    >"$dir.$block.log" 2>&1 || { cat "$dir.$block.log"; fail "$config: co-simulation of $block failed"; }
  python3 "$here/summary.py" "$dir.$block.json" || fail "$config: $block did not pass"
  echo "$block: $(python3 "$here/summary.py" "$dir.$block.json" --field limits)"
  if [ -n "$expect" ] && python3 "$here/summary.py" "$dir.$block.json" --limit "$expect" 2>/dev/null; then
    found=1
  fi
done
[ -z "$expect" ] || [ -n "$found" ] || fail "$config: no limit matching '$expect'"
