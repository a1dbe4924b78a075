# Bad input: exit status 2, a message naming the file and line, nothing written, for every
# configuration in TESTS/bad_configs and TESTS/<block>/bad_configs.
source "$(dirname "$0")/common.sh"
npugen=$1 tests=$2 configs=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$tests"/bad_configs/*.yaml "$tests"/*/bad_configs/*.yaml; do
  rc=0
  "$npugen" generate "$f" -o "$tmp/out" 2>"$tmp/err" >/dev/null || rc=$?
  [ "$rc" = 2 ] || fail "$f: exit status $rc, expected 2"
  [ ! -e "$tmp/out" ] || fail "$f: output written"
  line=$(sed -n 's/^# expect: \([0-9]*\) .*/\1/p' "$f" | head -n 1)
  grep -q "^$f:$line:" "$tmp/err" || fail "$f: no message naming $f:$line:\n$(cat "$tmp/err")"
  rc=0
  "$npugen" check "$f" 2>/dev/null >/dev/null || rc=$?
  [ "$rc" = 2 ] || fail "check $f: exit status $rc, expected 2"
done

rc=0; "$npugen" generate "$tmp/none.yaml" -o "$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "none.yaml: error: no such file" "$tmp/err" || fail "missing file"
rc=0; "$npugen" check "$tmp" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "is a directory" "$tmp/err" || fail "directory as config"
rc=0; "$npugen" generate --no-such-option 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "unknown option: exit status $rc"

# An existing folder that is not npugen output is refused and left alone.
mkdir -p "$tmp/precious" && echo keep >"$tmp/precious/notes.txt"
rc=0; "$npugen" generate "$configs/tiny_1x1.yaml" -o "$tmp/precious" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "refusing to replace it" "$tmp/err" || fail "foreign folder replaced"
[ "$(cat "$tmp/precious/notes.txt")" = keep ] || fail "foreign folder touched"

# A missing tool is named, with the command that installs it, before any work.
rc=0
env PATH=/nonexistent "$npugen" sim "$configs/tiny_1x1.yaml" -o "$tmp/sim" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "missing tools: exit status $rc"
grep -q "apt-get install -y verilator make g++" "$tmp/err" || fail "no install command:\n$(cat "$tmp/err")"
[ ! -e "$tmp/sim" ] || fail "sim wrote output although tools are missing"

# --help works everywhere.
for cmd in "" check schema generate verify sim bench; do
  "$npugen" $cmd --help >/dev/null || fail "npugen $cmd --help"
done
echo "bad input handled"
