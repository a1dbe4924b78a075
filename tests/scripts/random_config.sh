# One random valid configuration (tests/tools/random_configs): what `npugen check` accepts
# must generate, lint clean (every block's top, Verilator -Wall), compile in Icarus, and
# pass the co-simulation of every block it enables. On failure the configuration is named,
# so that `npugen sim CONFIG` reproduces it. EXPECT, when given, is a line (a grep pattern)
# that some block's co-simulation must print.
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3 expect=${4:-}
here=$(dirname "$0")
trap 'echo "configuration: $config"' ERR

"$npugen" generate "$config" -o "$dir" >/dev/null
bash "$here/lint.sh" "$dir"
bash "$here/icarus_compile.sh" "$dir"
blocks=$(python3 -c "import json,sys; print(' '.join(b['block'] for b in json.load(open(sys.argv[1]))['blocks']))" \
  "$dir/manifest.json")
for block in $blocks; do
  "$npugen" sim "$config" -o "$dir" --block "$block" >"$dir.$block.log" 2>&1 \
    || { cat "$dir.$block.log"; fail "$config: co-simulation of $block failed"; }
  grep '^PASS' "$dir.$block.log" || fail "$config: no PASS line for $block"
  grep -E '^(coverage|limit):' "$dir.$block.log" || true
done
if [ -n "$expect" ]; then
  cat "$dir".*.log | grep -q -- "$expect" || fail "$config: no line '$expect'"
fi
