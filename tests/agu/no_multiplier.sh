# The synthesis script's "no multiplier" check is live: the generated address generator
# passes it, and the same RTL with one product written as `*` fails it with Yosys's
# assertion.
source "$(dirname "$0")/../scripts/common.sh"
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$dir" "$tmp/design"
rtl=$(ls "$tmp"/design/rtl/*_agu.sv | head -n 1)
script=$(cd "$tmp/design" && ls synth/*_agu.tcl | head -n 1)
python3 - "$rtl" <<'PY' || fail "the product to replace is not in $rtl"
import sys
path = sys.argv[1]
text = open(path).read()
old = "xstep_q <= times_small(in_ps_q, cfg_sx_q);"
if old not in text:
    sys.exit(1)
open(path, "w").write(text.replace(old, "xstep_q <= in_ps_q * ActAddrBits'(cfg_sx_q);"))
PY
log="$tmp/yosys.log"
if (cd / && yosys -q -l "$log" -c "$tmp/design/$script") >/dev/null 2>&1; then
  fail "a multiplier in the address generator passed its synthesis checks"
fi
grep -q 'Assertion failed: selection is not empty: t:\$mul' "$log" ||
  fail "yosys failed for another reason: $(tail -5 "$log")"
echo "no-multiplier check: a multiplier in the address generator fails it"
