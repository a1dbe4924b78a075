# Bad command lines, refused before any work with exit status 2 and a message naming the
# option and the path or value, nothing written:
#   outputs   an output folder or file that is a file, a named pipe, /dev/null, the root
#             folder or "" (every command that writes), two outputs at one path;
#   traces    a waveform path that is a folder or in a folder that does not exist;
#   readers   a named pipe or a folder where a file is read (suites, results.json, merge
#             inputs, networks, .npy, task lists, descriptors): never waits on a pipe;
#   numbers   negative, octal, non-finite or zero values to numeric options;
#   suites    regress: a shard given twice to --merge, blocks npugen or the design lacks,
#             files that are no configuration, malformed --shard.
# Every command runs with PATH=/nonexistent: a check that came after the co-simulation's
# tool check would say "co-simulation needs" instead of naming the path, so the order is
# asserted without timing anything, and nothing is ever built. Every case runs; the count
# of failures per class is printed, and any failure fails the test.
#   bad_cli.sh NPUGEN ROOT
set -uo pipefail
npugen=$1 root=$2
configs=$root/configs digits=$root/networks/digits
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

python3 "$root/tests/scripts/make_npy.py" w.npy weights 8 100 8 0.6 1
printf 'tiers:\n  smoke:\n    - {configs: %s/tiny_1x1.yaml, blocks: [pe_array]}\n' \
  "$configs" >suite.yaml

declare -A failed total
class=""
# refuse WHAT EXPECT -- COMMAND...: exit status 2 within 20 s, EXPECT in its output, and no
# file named out* or design* left behind.
refuse() {
  local what=$1 expect=$2 rc=0
  shift 3
  total[$class]=$((${total[$class]:-0} + 1))
  rm -rf out* design* .out* .design* fifo folder file
  mkfifo fifo && mkdir folder && echo x >file
  timeout 20 env PATH=/nonexistent "$@" >log 2>&1 </dev/null || rc=$?
  local problem=""
  if [ "$rc" = 124 ]; then
    problem="still running after 20 s (blocked?)"
  elif [ "$rc" != 2 ]; then
    problem="exit status $rc, not 2"
  elif ! grep -qF -- "$expect" log; then
    problem="no '$expect' in the message"
  elif grep -q "co-simulation needs\|internal error" log; then
    problem="not refused before the tool check"
  elif compgen -G "out*" >/dev/null || compgen -G "design*" >/dev/null; then
    problem="wrote $(ls -d out* design* 2>/dev/null | head -1)"
  elif [ ! -p fifo ] || [ ! -d folder ] || [ "$(ls -A folder)" != "" ] || [ "$(cat file)" != x ]; then
    problem="replaced or wrote into the named pipe, the folder or the file"
  fi
  if [ -n "$problem" ]; then
    failed[$class]=$((${failed[$class]:-0} + 1))
    echo "FAIL [$class] $what: $problem"
    sed 's/^/    /' log | head -5
  fi
}

npu=$configs/npu_tiny.yaml
net=(--network "$digits/digits.yaml")
img=(--input "$digits/test_images.npy")

class=outputs
for o in file fifo /dev/null / ""; do
  q=${o:-"''"} e=${o:-empty}
  refuse "compile --out $q" "$e" -- "$npugen" compile "$npu" "${net[@]}" --out "$o"
  refuse "reference --out $q" "$e" -- "$npugen" reference "${net[@]}" "${img[@]}" --out "$o"
done
refuse "preprocess --out ''" "empty" -- "$npugen" preprocess "$configs/zs_default.yaml" \
  --weights w.npy --out ""
for o in file fifo /dev/null /; do
  refuse "run --out $o" "$o" -- "$npugen" run "$npu" "${net[@]}" "${img[@]}" \
    --design design --out "$o"
  refuse "run --design $o" "$o" -- "$npugen" run "$npu" "${net[@]}" "${img[@]}" \
    --design "$o" --out out
  refuse "explore -o $o" "$o" -- "$npugen" explore "$npu" "${net[@]}" --no-synth \
    --sweep pe_array.lanes=2 -o "$o"
  refuse "explore --html $o" "$o" -- "$npugen" explore "$npu" "${net[@]}" --no-synth \
    --sweep pe_array.lanes=2 -o out --html "$o"
  refuse "generate -o $o" "$o" -- "$npugen" generate "$configs/tiny_1x1.yaml" -o "$o"
  refuse "sim -o $o" "$o" -- "$npugen" sim "$configs/tiny_1x1.yaml" -o "$o"
  refuse "bench -o $o" "$o" -- "$npugen" bench "$configs/tiny_1x1.yaml" -o "$o"
  refuse "regress -o $o" "$o" -- "$npugen" regress suite.yaml -o "$o"
  refuse "regress --html $o" "$o" -- "$npugen" regress suite.yaml -o out --html "$o"
  refuse "regress --slurm $o" "$o" -- "$npugen" regress suite.yaml --slurm "$o"
  refuse "preprocess --out $o" "$o" -- "$npugen" preprocess "$configs/zs_default.yaml" \
    --weights w.npy --out "$o"
  refuse "vq encode --out $o" "$o" -- "$npugen" vq encode --weights w.npy \
    --vector-length 2 --rows 4 --out "$o"
done
refuse "explore --cache file" "--cache file" -- "$npugen" explore "$npu" "${net[@]}" \
  --sweep pe_array.lanes=2 -o out --cache file
refuse "explore -o and --html at one path" "name one path" -- "$npugen" explore "$npu" \
  "${net[@]}" --no-synth --sweep pe_array.lanes=2 -o out --html out
refuse "regress -o and --html at one path" "name one path" -- "$npugen" regress suite.yaml \
  -o out --html out
# Files (never a named pipe or a device: /dev/null is left out, a rename over it would
# replace it): schedule's outputs, vq decode's.
for o in fifo folder missing/x.json; do
  refuse "schedule --out $o" "$o" -- "$npugen" schedule "$configs/tasks_default.yaml" \
    --tasks "$root/tasklists/seed_fig8.yaml" --out "$o"
  refuse "schedule --svg $o" "$o" -- "$npugen" schedule "$configs/tasks_default.yaml" \
    --tasks "$root/tasklists/seed_fig8.yaml" --out out.json --svg "$o"
  refuse "vq decode --out $o" "$o" -- "$npugen" vq decode --indices w.npy \
    --codebook w.npy --out "$o"
  refuse "sim --summary $o" "$o" -- "$npugen" sim "$configs/tiny_1x1.yaml" -o out \
    --summary "$o"
done
refuse "schedule --out and --svg at one path" "name one path" -- "$npugen" schedule \
  "$configs/tasks_default.yaml" --tasks "$root/tasklists/seed_fig8.yaml" --out out.x --svg out.x

class=traces
for t in folder /missing/t.fst fifo; do
  refuse "run --trace $t" "$t" -- "$npugen" run "$npu" "${net[@]}" "${img[@]}" \
    --design design --out out --trace "$t"
  refuse "sim --trace $t" "$t" -- "$npugen" sim "$configs/tiny_1x1.yaml" -o design \
    --trace "$t"
done

# A waveform inside the design folder the command generates is fine: these get as far as
# the co-simulation's tool check.
for cmd in "sim $configs/tiny_1x1.yaml -o design --trace design/t.fst" \
  "run $npu --network $digits/digits.yaml --input $digits/test_images.npy --design design --trace design/t.fst"; do
  total[$class]=$((${total[$class]:-0} + 1))
  rc=0
  # shellcheck disable=SC2086
  timeout 20 env PATH=/nonexistent "$npugen" $cmd >log 2>&1 </dev/null || rc=$?
  if [ "$rc" != 2 ] || ! grep -q "co-simulation needs" log; then
    failed[$class]=$((${failed[$class]:-0} + 1))
    echo "FAIL [$class] $cmd: refused before the tool check (status $rc)"
    sed 's/^/    /' log | head -5
  fi
done

class=readers
refuse "regress on a named pipe" "fifo: error: is a named pipe" -- "$npugen" regress fifo -o out
refuse "regress on a folder" "folder: error: is a directory" -- "$npugen" regress folder -o out
refuse "regress --rerun-failed on a named pipe" "--rerun-failed fifo: is a named pipe" -- \
  "$npugen" regress suite.yaml --rerun-failed fifo -o out
refuse "regress --rerun-failed on a folder" "--rerun-failed folder: is a directory" -- \
  "$npugen" regress suite.yaml --rerun-failed folder -o out
mkdir -p shard shard2/results.json && mkfifo shard/results.json
refuse "regress --merge of a named pipe" "is a named pipe" -- "$npugen" regress --merge shard \
  -o out
refuse "regress --merge of a folder" "is a directory" -- "$npugen" regress --merge shard2 -o out
refuse "compile --network on a named pipe" "is a named pipe" -- "$npugen" compile "$npu" --network fifo \
  --out out
refuse "reference --input on a named pipe" "is a named pipe" -- "$npugen" reference \
  "${net[@]}" --input fifo --out out
refuse "schedule --tasks on a named pipe" "is a named pipe" -- "$npugen" schedule \
  "$configs/tasks_default.yaml" --tasks fifo --out out.json
refuse "vq encode --weights on a named pipe" "is a named pipe" -- "$npugen" vq encode \
  --weights fifo --vector-length 2 --rows 4 --out out
refuse "explore --network on a named pipe" "is a named pipe" -- "$npugen" explore "$npu" \
  --network fifo --no-synth --sweep pe_array.lanes=2 -o out

class=numbers
refuse "sim --seed -1" "--seed" -- "$npugen" sim "$configs/tiny_1x1.yaml" -o design --seed -1
refuse "sim --cycles -5" "--cycles" -- "$npugen" sim "$configs/tiny_1x1.yaml" -o design \
  --cycles -5
refuse "sim --trace-from -1" "--trace-from" -- "$npugen" sim "$configs/tiny_1x1.yaml" \
  -o design --trace out.fst --trace-from -1
for v in -1 nan inf 0; do
  refuse "explore --min-fps $v --no-synth" "--min-fps" -- "$npugen" explore "$npu" \
    "${net[@]}" --no-synth --sweep pe_array.lanes=2 -o out --min-fps "$v"
done
refuse "explore --min-fps 5 --no-synth" "not with --no-synth" -- "$npugen" explore "$npu" \
  "${net[@]}" --no-synth --sweep pe_array.lanes=2 -o out --min-fps 5
refuse "explore --max-cells -1" "--max-cells" -- "$npugen" explore "$npu" "${net[@]}" \
  --sweep pe_array.lanes=2 -o out --max-cells -1
refuse "sim --seed 010 (octal)" "--seed" -- "$npugen" sim "$configs/tiny_1x1.yaml" \
  -o design --seed 010
refuse "run --seed -1" "--seed" -- "$npugen" run "$npu" "${net[@]}" "${img[@]}" \
  --design design --out out --seed -1
refuse "run --trace-from -1" "--trace-from" -- "$npugen" run "$npu" "${net[@]}" "${img[@]}" \
  --design design --out out --trace out.fst --trace-from -1
refuse "regress --timeout -1" "--timeout" -- "$npugen" regress suite.yaml -o out --timeout -1
refuse "regress --jobs -1" "--jobs" -- "$npugen" regress suite.yaml -o out --jobs -1
refuse "regress --random -1" "--random" -- "$npugen" regress --random -1 -o out
refuse "regress --seed -1" "--seed" -- "$npugen" regress --random 1 --seed -1 -o out
refuse "regress --shards -2" "--shards" -- "$npugen" regress suite.yaml --slurm out --shards -2
refuse "bench --cycles -1" "--cycles" -- "$npugen" bench "$configs/tiny_1x1.yaml" -o design \
  --cycles -1
refuse "vq encode --seed -1" "--seed" -- "$npugen" vq encode --weights w.npy \
  --vector-length 2 --rows 4 --out out --seed -1
refuse "vq encode --rows -4" "--rows" -- "$npugen" vq encode --weights w.npy \
  --vector-length 2 --rows -4 --out out
refuse "explore --jobs -1" "--jobs" -- "$npugen" explore "$npu" "${net[@]}" --no-synth \
  --sweep pe_array.lanes=2 -o out --jobs -1

class=suites
npugen_suite() { printf 'tiers:\n  smoke:\n%s\n' "$1" >"$2"; }
mkdir -p shard1
cat >shard1/results.json <<'EOF'
{"suite": "suite", "tier": "smoke", "jobs_at_once": 1, "wall_seconds": 1, "jobs": [
 {"kind": "sim", "config": "c.yaml", "config_hash": "", "design": "c", "block": "pe_array",
  "seed": 1, "lint": false, "status": "pass", "cycles": 1, "seconds": 1, "message": "",
  "reproduce": "", "log": "", "details": ""}]}
EOF
echo "npugen regress output" >shard1/.npugen-regress
cp -r shard1 shard1copy
refuse "regress --merge D D" "--merge shard1: given twice" -- "$npugen" regress --merge shard1 shard1 -o out
refuse "regress --merge of one run in two folders" "is also in" -- "$npugen" regress \
  --merge shard1 shard1copy -o out
npugen_suite "    - {configs: $configs/tiny_1x1.yaml, blocks: [gpu]}" gpu.yaml
refuse "blocks: [gpu]" "gpu.yaml:3: error: no block 'gpu'" -- "$npugen" regress gpu.yaml --list
npugen_suite "    - {configs: $configs/tiny_1x1.yaml, blocks: [pe_array, vq]}" lacks.yaml
refuse "a block the design lacks" "lacks.yaml:3: error: design tiny_1x1 does not generate vq" \
  -- "$npugen" regress lacks.yaml --list
npugen_suite "    - configs: $configs/tiny_1x1.yaml
      networks: [{network: $digits/digits.yaml, input: $digits/test_images.npy}]" nonpu.yaml
refuse "a network on a design without the NPU" "nonpu.yaml:4: error: design tiny_1x1 does not" \
  -- "$npugen" regress nonpu.yaml --list
npugen_suite "    - {configs: /etc/passwd, blocks: [pe_array]}" passwd.yaml
refuse "configs: /etc/passwd" "passwd.yaml:3: error: '/etc/passwd' matches no configuration" \
  -- "$npugen" regress passwd.yaml --list
npugen_suite '    - {configs: "/*", blocks: [pe_array]}' root.yaml
refuse 'configs: "/*"' "root.yaml:3: error: '/*' matches no configuration" -- \
  "$npugen" regress root.yaml --list
printf 'design: {name: bad}\npe_array: {rows: 0}\n' >bad.yaml
npugen_suite "    - {configs: bad.yaml, blocks: [pe_array]}" invalid.yaml
refuse "an invalid configuration" "invalid.yaml:3: error:" -- "$npugen" regress invalid.yaml \
  --list
refuse "--shard ''" "--shard" -- "$npugen" regress suite.yaml --list --shard ''
refuse "--shard ' 1 / 2 '" "--shard ' 1 / 2 '" -- "$npugen" regress suite.yaml --list \
  --shard ' 1 / 2 '
refuse "explore --shard ''" "--shard" -- "$npugen" explore "$npu" "${net[@]}" --no-synth \
  --sweep pe_array.lanes=2 -o out --shard ''

# A good suite still lists, and a good shard still parses.
timeout 20 "$npugen" regress suite.yaml --list --shard 1/1 >log 2>&1 ||
  { echo "FAIL: a good suite is refused: $(cat log)"; failed[suites]=$((${failed[suites]:-0} + 1)); }

status=0
for c in outputs traces readers numbers suites; do
  echo "$c: ${failed[$c]:-0} of ${total[$c]:-0} cases fail"
  [ "${failed[$c]:-0}" = 0 ] || status=1
done
exit $status
