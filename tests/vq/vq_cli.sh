# npugen vq encode / decode: outputs named and shaped as documented, decode(encode(W)) is
# the codebook rows the indices name, the same seed gives byte-identical output, the
# error figures are consistent; and every kind of bad input exits 2, names the file and
# the problem, and writes nothing.
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 work=$2
here=$(dirname "$0")/../scripts
rm -rf "$work" && mkdir -p "$work"
mk() { python3 "$here/make_npy.py" "$@"; }

# fp16 from float weights: vectors of 4 along the last axis of a [64][3][8] tensor.
mk "$work/w.npy" gauss 64x3x8 5
"$npugen" vq encode --weights "$work/w.npy" --vector-length 4 --rows 16 --out "$work/enc" \
  | tee "$work/log"
for f in indices codebook; do [ -f "$work/enc/$f.npy" ] || fail "$f.npy missing"; done
"$npugen" vq decode --indices "$work/enc/indices.npy" --codebook "$work/enc/codebook.npy" \
  --out "$work/dec.npy"
python3 - "$work" <<'PY' || fail "outputs, round trip or figures"
import ast, json, struct, sys
work = sys.argv[1]
def load(path):
    data = open(path, "rb").read()
    n = int.from_bytes(data[8:10], "little")
    h = ast.literal_eval(data[10:10 + n].decode())
    code = {"|u1": "B", "<f2": "e", "<f4": "f", "<u2": "H", "<i4": "i"}[h["descr"]]
    count = 1
    for d in h["shape"]:
        count *= d
    return h["shape"], h["descr"], struct.unpack("<%d%s" % (count, code), data[10 + n:])
ws, _, w = load(f"{work}/w.npy")
ishape, idt, idx = load(f"{work}/enc/indices.npy")
cshape, cdt, cb = load(f"{work}/enc/codebook.npy")
dshape, ddt, dec = load(f"{work}/dec.npy")
assert ishape == (64, 3, 2) and idt == "|u1", (ishape, idt)
assert cshape == (16, 4) and cdt == "<f2", (cshape, cdt)
assert dshape == ws and ddt == "<f2", (dshape, ddt)
assert max(idx) < 16
# Weight (a, b, 4g + j) is codeword idx[a, b, g], element j.
for v, row in enumerate(idx):
    for j in range(4):
        assert dec[v * 4 + j] == cb[row * 4 + j], (v, j)
s = json.load(open(f"{work}/enc/stats.json"))
noise = sum((a - b) ** 2 for a, b in zip(w, dec))
assert abs(s["error"]["mse"] - noise / len(w)) < 1e-9, (s["error"]["mse"], noise / len(w))
assert s["bits_per_weight"]["indices_only"] == 1.0 and s["bits_per_weight"]["uncompressed"] == 16
assert s["codebook"]["format"] == "fp16" and s["grouping"]["axis"] == 2
PY
# The same seed: byte-identical; another axis and an integer format work too.
cp -r "$work/enc" "$work/first"
"$npugen" vq encode --weights "$work/w.npy" --vector-length 4 --rows 16 --out "$work/enc" >/dev/null
diff -r "$work/first" "$work/enc" || fail "a second run differs"
"$npugen" vq encode --weights "$work/w.npy" --vector-length 2 --rows 8 --axis 0 --format int4 \
  --out "$work/enc_int4" >/dev/null
"$npugen" vq decode --indices "$work/enc_int4/indices.npy" --axis 0 \
  --codebook "$work/enc_int4/codebook.npy" --format int4 --out "$work/dec_int4.npy" >/dev/null
python3 -c "
import ast; d = open('$work/dec_int4.npy', 'rb').read(); n = int.from_bytes(d[8:10], 'little')
h = ast.literal_eval(d[10:10 + n].decode()); assert h['shape'] == (64, 3, 8) and h['descr'] == '<i4', h
" || fail "int4 along axis 0"
"$npugen" vq encode --weights "$work/w.npy" --vector-length 8 --rows 4 --format bf16 \
  --out "$work/enc_bf16" >/dev/null
"$npugen" vq decode --indices "$work/enc_bf16/indices.npy" --format bf16 \
  --codebook "$work/enc_bf16/codebook.npy" --out "$work/dec_bf16.npy" >/dev/null || fail "bf16"

# Bad input: exit 2, the file (or option) and the problem named, nothing written.
mk "$work/odd.npy" gauss 5x6 1
mk "$work/garbage.npy" garbage
mk "$work/truncated.npy" truncated 2 3 4
mk "$work/cb_rank3.npy" raw "|i1" 2x2x2 1 2 3 4 5 6 7 8
mk "$work/cb_float64.npy" raw "<f8" 16x4 $(seq 1 64)
mk "$work/idx_big.npy" raw "|u1" 3 0 1 16
mk "$work/idx_float.npy" float 1 1 3
mk "$work/cb_int8_range.npy" raw "|i1" 2x2 1 2 3 100
expect_bad() {  # WHAT PATTERN COMMAND...
  local what=$1 pattern=$2 rc=0
  shift 2
  rm -rf "$work/bad_out" "$work/bad.npy"
  "$@" >"$work/bad.log" 2>&1 || rc=$?
  [ "$rc" = 2 ] || { cat "$work/bad.log"; fail "$what: status $rc, expected 2"; }
  grep -q -- "$pattern" "$work/bad.log" || { cat "$work/bad.log"; fail "$what: no '$pattern'"; }
  [ ! -e "$work/bad_out" ] && [ ! -e "$work/bad.npy" ] || fail "$what: something was written"
  echo "rejected ($what): $(head -n 1 "$work/bad.log")"
}
enc() { "$npugen" vq encode --out "$work/bad_out" "$@"; }
dec() { "$npugen" vq decode --out "$work/bad.npy" "$@"; }
expect_bad "m not a power of two" "vector-length 3: m must be a power of two" \
  enc --weights "$work/w.npy" --vector-length 3 --rows 16
expect_bad "m larger than a row" "vector-length 64" enc --weights "$work/w.npy" --vector-length 64 --rows 16
expect_bad "N not a power of two" "rows 100: N must be a power of two" \
  enc --weights "$work/w.npy" --vector-length 2 --rows 100
expect_bad "count not divisible" "odd.npy: axis 1 has 6 weights, not divisible by the vector length 4" \
  enc --weights "$work/odd.npy" --vector-length 4 --rows 4
expect_bad "axis out of range" "axis 3 does not exist" \
  enc --weights "$work/w.npy" --vector-length 2 --rows 4 --axis 3
expect_bad "not a .npy file" "garbage.npy: not a .npy file" \
  enc --weights "$work/garbage.npy" --vector-length 2 --rows 4
expect_bad "truncated file" "truncated.npy: the data holds" \
  enc --weights "$work/truncated.npy" --vector-length 2 --rows 4
expect_bad "missing file" "nothere.npy: no such file" \
  enc --weights "$work/nothere.npy" --vector-length 2 --rows 4
expect_bad "unknown format" "format fp8" enc --weights "$work/w.npy" --vector-length 2 --rows 4 --format fp8
expect_bad "codebook rank" "cb_rank3.npy: has rank 3" \
  dec --indices "$work/enc/indices.npy" --codebook "$work/cb_rank3.npy"
expect_bad "codebook dtype" "cb_float64.npy: has dtype '<f8'" \
  dec --indices "$work/enc/indices.npy" --codebook "$work/cb_float64.npy"
expect_bad "codebook value outside the format" "element \[1\]\[1\] = 100 is outside the int4 range" \
  dec --indices "$work/enc/indices.npy" --codebook "$work/cb_int8_range.npy" --format int4
expect_bad "index beyond the table" "idx_big.npy: element 2 = 16 is beyond the codebook's 16 rows" \
  dec --indices "$work/idx_big.npy" --codebook "$work/enc/codebook.npy"
expect_bad "indices dtype" "idx_float.npy: dtype '<f8' is floating point" \
  dec --indices "$work/idx_float.npy" --codebook "$work/enc/codebook.npy"
echo "vq encode/decode: outputs, round trip, determinism and 14 bad inputs checked"
