# npugen preprocess: the output folder (names, shapes, contract, determinism) and every
# kind of bad weight file (exit 2, a message naming the file and the problem, nothing
# written).
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 configs=$2 work=$3
here=$(dirname "$0")/../scripts
rm -rf "$work" && mkdir -p "$work"
cfg=$configs/zs_default.yaml  # 8 tiles x 8 lanes, int8, max_rows 256
mk() { python3 "$here/make_npy.py" "$@"; }

# A good tensor: every array named as documented, with [S][T][L] / [S][T] / [S] shapes.
mk "$work/w.npy" weights 8 100 8 0.6 1
"$npugen" preprocess "$cfg" --weights "$work/w.npy" --out "$work/out" | tee "$work/log"
grep -q 'contract checked' "$work/log" || fail "no contract line"
for f in weights sel_cycle sel_lane tile_offset dest_tile base_cycle control; do
  [ -f "$work/out/$f.npy" ] || fail "$f.npy missing"
done
steps=$(python3 -c "import json; print(json.load(open('$work/out/stats.json'))['steps'])")
python3 - "$work/out" "$steps" <<'PY' || fail "output shapes or stats"
import ast, json, sys
out, steps = sys.argv[1], int(sys.argv[2])
def shape(name):
    data = open(f"{out}/{name}.npy", "rb").read()
    n = int.from_bytes(data[8:10], "little")
    return ast.literal_eval(data[10:10 + n].decode())["shape"]
assert shape("weights") == (steps, 8, 8), shape("weights")
assert shape("sel_cycle") == (steps, 8, 8) and shape("sel_lane") == (steps, 8, 8)
assert shape("tile_offset") == (steps, 8) and shape("dest_tile") == (steps, 8)
assert shape("base_cycle") == (steps,)
s = json.load(open(f"{out}/stats.json"))
assert s["dense_cycles"] == 100 and 0 < s["steps"] <= 100
assert s["lower_bound"]["value"] <= s["steps"]
assert s["cycles_removed"]["intra_tile"] + s["cycles_removed"]["inter_tile"] == 100 - s["steps"]
assert sum(s["histograms"]["lane_select"].values()) == s["nonzeros"]
PY
# Same input, byte-identical output (and no rewrite).
cp -r "$work/out" "$work/first"
"$npugen" preprocess "$cfg" --weights "$work/w.npy" --out "$work/out" >/dev/null
diff -r "$work/first" "$work/out" || fail "a second run differs"
# An all-zero tensor: no steps; the control stream still has one (flush) step.
mk "$work/zero.npy" weights 8 10 8 1.0 1
"$npugen" preprocess "$cfg" --weights "$work/zero.npy" --out "$work/zero" >/dev/null
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["steps"] != 0)' \
  "$work/zero/stats.json" || fail "all-zero tensor should take 0 steps"

# Bad inputs: status 2, the file and the problem named, the output folder not created.
expect_bad() {  # FILE PATTERN [CONFIG]
  local file=$1 pattern=$2 config=${3:-$cfg} rc=0
  rm -rf "$work/bad"
  "$npugen" preprocess "$config" --weights "$file" --out "$work/bad" >"$work/bad.log" 2>&1 || rc=$?
  cat "$work/bad.log"
  [ "$rc" = 2 ] || fail "$file: status $rc, expected 2"
  name=$(basename "$file"); [ "$config" = "$cfg" ] || name=$(basename "$config"); grep -q -- "$name" "$work/bad.log" || fail "$file: message does not name the file"
  grep -qi -- "$pattern" "$work/bad.log" || fail "$file: message lacks '$pattern'"
  [ ! -e "$work/bad" ] || fail "$file: output written"
}
mk "$work/float.npy" float 8 4 8;            expect_bad "$work/float.npy" "floating point"
mk "$work/rank2.npy" raw "<i4" 8x8 $(seq 1 64); expect_bad "$work/rank2.npy" "rank 2"
mk "$work/tiles.npy" weights 7 4 8 0.5 1;     expect_bad "$work/tiles.npy" "does not fit"
mk "$work/lanes.npy" weights 8 4 9 0.5 1;     expect_bad "$work/lanes.npy" "does not fit"
mk "$work/long.npy" weights 8 300 8 0.5 1;    expect_bad "$work/long.npy" "(zs.max_rows)"
mk "$work/range.npy" raw "<i4" 8x1x8 $(seq 1 63) 128; expect_bad "$work/range.npy" "W\[7\]\[0\]\[7\] = 128 is outside"
mk "$work/trunc.npy" truncated 8 4 8;         expect_bad "$work/trunc.npy" "truncated or corrupt"
mk "$work/garbage.npy" garbage;               expect_bad "$work/garbage.npy" "not a .npy file"
mk "$work/fortran.npy" fortran 8 4 8;         expect_bad "$work/fortran.npy" "Fortran order"
expect_bad "$work/missing.npy" "no such file"
expect_bad "$work/w.npy" "enabled is false" "$configs/default.yaml"
echo "preprocess: good output and 11 bad inputs checked"
