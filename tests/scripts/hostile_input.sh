# Input made to break npugen: .npy headers that lie (sizes, shapes, counts that overflow),
# named pipes and directories where files are expected, a configuration of a million
# unknown keys and one of ten-megabyte values. Every case ends in exit status 2 with a
# message naming the file and the problem, within a bounded time (no hang), and writes
# nothing.
source "$(dirname "$0")/common.sh"
npugen=$1 configs=$2 work=$3
here=$(dirname "$0")
rm -rf "$work" && mkdir -p "$work"
mk() { python3 "$here/make_npy.py" "$@"; }
zs=$configs/zs_default.yaml  # 8 x 8 zero-skipping array
tasks=$configs/tasks_tiny.yaml

# expect_bad NAME PATTERN OUT -- COMMAND...: status 2 within 60 s, NAME and PATTERN in the
# message, OUT (file or folder) not created.
expect_bad() {
  local name=$1 pattern=$2 out=$3 rc=0
  shift 4
  rm -rf "$out"
  timeout 60 "$@" >"$work/log" 2>&1 || rc=$?
  [ "$rc" != 124 ] || fail "$* hangs"
  [ "$rc" = 2 ] || fail "$*: status $rc, expected 2:\n$(cat "$work/log")"
  grep -qF -- "$name" "$work/log" || fail "$*: the message does not name $name:\n$(cat "$work/log")"
  grep -qi -- "$pattern" "$work/log" || fail "$*: no '$pattern' in:\n$(cat "$work/log")"
  [ ! -e "$out" ] || fail "$*: $out was written"
  cases=$((cases + 1))
}
cases=0

# ---- .npy headers that lie, against every command that reads .npy files.
header() {  # NAME DICT [BYTES]
  mk "$work/$1.npy" header "$2" "${3:-0}"
}
header size "{'descr': '<i99999999999999999999', 'fortran_order': False, 'shape': (8, 1, 8), }" 64
header huge1 "{'descr': '<i8', 'fortran_order': False, 'shape': (2305843009213693952,), }"
header huge2 "{'descr': '|i1', 'fortran_order': False, 'shape': (288230376151711745, 64), }"
header junk "{'descr': '|i1', 'fortran_order': False, 'shape': (8x, 1, 8), }" 64
header negative "{'descr': '<i4', 'fortran_order': False, 'shape': (-1, -1), }"
header claims "{'descr': '|i1', 'fortran_order': False, 'shape': (8, 1099511627776, 8), }" 64
for f in size:unsupported huge1:"more than 2^63" huge2:"more than 2^63" junk:"junk after" \
  negative:negative claims:"truncated or corrupt"; do
  name=${f%%:*} pattern=${f#*:}
  expect_bad "$name.npy" "$pattern" "$work/out" -- \
    "$npugen" preprocess "$zs" --weights "$work/$name.npy" --out "$work/out"
  expect_bad "$name.npy" "$pattern" "$work/out" -- \
    "$npugen" vq encode --weights "$work/$name.npy" --vector-length 2 --rows 4 --out "$work/out"
done
# vq decode: indices and codebooks whose shapes have no data behind them.
mk "$work/cb.npy" raw "|i1" 4x2 1 2 3 4 5 6 7 8
mk "$work/ix.npy" raw "|u1" 2x2 0 1 2 3
header ix_neg "{'descr': '|u1', 'fortran_order': False, 'shape': (-1, -1), }"
header ix_huge "{'descr': '|u1', 'fortran_order': False, 'shape': (9223372036854775808, 2), }"
header cb_huge "{'descr': '|i1', 'fortran_order': False, 'shape': (4611686018427387904, 4), }"
header ix_wide "{'descr': '|u1', 'fortran_order': False, 'shape': (0, 4611686018427387904), }"
expect_bad ix_neg.npy negative "$work/w.npy" -- \
  "$npugen" vq decode --indices "$work/ix_neg.npy" --codebook "$work/cb.npy" --out "$work/w.npy"
expect_bad ix_huge.npy "more than 2^63" "$work/w.npy" -- \
  "$npugen" vq decode --indices "$work/ix_huge.npy" --codebook "$work/cb.npy" --out "$work/w.npy"
expect_bad cb_huge.npy "more than 2^63" "$work/w.npy" -- \
  "$npugen" vq decode --indices "$work/ix.npy" --codebook "$work/cb_huge.npy" --out "$work/w.npy"
expect_bad ix_wide.npy "more weights than a .npy file can hold" "$work/w.npy" -- \
  "$npugen" vq decode --indices "$work/ix_wide.npy" --codebook "$work/cb.npy" --out "$work/w.npy"

# ---- Named pipes and directories where a file is expected: refused at once, by name.
mkfifo "$work/pipe"
mkdir -p "$work/folder"
good_npy=$work/w8.npy
mk "$good_npy" weights 8 4 8 0.5 1
cat >"$work/list.yaml" <<'Y'
tasks:
  - {name: C1, op: conv, cycles: 10, writes: {base: 0, words: 8}}
Y
for bad in pipe folder; do
  what="named pipe"; [ "$bad" = folder ] && what="is a directory"
  p=$work/$bad
  expect_bad "$bad" "$what" "$work/out" -- "$npugen" check "$p"
  expect_bad "$bad" "$what" "$work/out" -- "$npugen" generate "$p" -o "$work/out"
  expect_bad "$bad" "$what" "$work/out" -- "$npugen" preprocess "$zs" --weights "$p" --out "$work/out"
  expect_bad "$bad" "$what" "$work/out" -- \
    "$npugen" vq encode --weights "$p" --vector-length 2 --rows 4 --out "$work/out"
  expect_bad "$bad" "$what" "$work/w.npy" -- \
    "$npugen" vq decode --indices "$p" --codebook "$work/cb.npy" --out "$work/w.npy"
  expect_bad "$bad" "$what" "$work/w.npy" -- \
    "$npugen" vq decode --indices "$work/ix.npy" --codebook "$p" --out "$work/w.npy"
  expect_bad "$bad" "$what" "$work/out.json" -- \
    "$npugen" schedule "$tasks" --tasks "$p" --out "$work/out.json"
  expect_bad "$bad" "$what" "$work/out.json" -- \
    "$npugen" schedule "$tasks" --network "$p" --out "$work/out.json"
  expect_bad "$bad" "$what" "$work/out" -- \
    "$npugen" sim "$tasks" --block tasks --descriptors "$p" -o "$work/out"
done

# ---- A million unknown keys: linear time, 50 messages and a count of the rest.
python3 - "$work/keys.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("pe_array: {tiles: 2, lanes: 2}\n")
    f.writelines(f"key{i}: 1\n" for i in range(1000000))
PY
expect_bad keys.yaml "999950 more error(s) not shown" "$work/out" -- \
  "$npugen" generate "$work/keys.yaml" -o "$work/out"
lines=$(wc -l <"$work/log")
[ "$lines" -le 52 ] || fail "a million unknown keys printed $lines lines"
grep -q "1000000 error(s) in" "$work/log" || fail "the total is not counted:\n$(tail -2 "$work/log")"

# ---- Ten-megabyte values are quoted by their start and length, not echoed back.
python3 - "$work/long.yaml" <<'PY'
import sys
big = 10 * 1024 * 1024
with open(sys.argv[1], "w") as f:
    f.write("design: {name: " + "a" * big + "-x, clock_mhz: " + "9" * big + "}\n")
    f.write("pe_array: {tiles: 2, lanes: 2}\nvq: {weight_format: " + "z" * big + "}\n")
PY
expect_bad long.yaml "(10485762 characters)" "$work/out" -- \
  "$npugen" generate "$work/long.yaml" -o "$work/out"
size=$(wc -c <"$work/log")
[ "$size" -lt 2000 ] || fail "ten-megabyte values made a $size-byte message"
grep -q "design.clock_mhz" "$work/log" && grep -q "vq.weight_format" "$work/log" \
  || fail "not every long value is reported:\n$(cat "$work/log")"

echo "hostile input: $cases cases, each exit 2 with the file and the problem named, nothing written"
