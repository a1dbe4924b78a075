# Bad task lists and networks for npugen schedule: each exits with status 2, names the
# file, the line and the task (or layer) and the problem, and writes nothing.
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 tiny=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

# expect FILE KIND WANT-LINE TEXT [CONFIG]: status 2, "FILE:LINE" and TEXT on stderr, no output.
expect() {
  local file=$1 kind=$2 line=$3 text=$4 cfg=${5:-$config} rc=0
  "$npugen" schedule "$cfg" "--$kind" "$file" --out "$work/out.json" --svg "$work/out.svg" \
    --descriptors "$work/out.bin" >"$work/stdout" 2>"$work/stderr" || rc=$?
  cat "$work/stderr"
  [ "$rc" = 2 ] || fail "$file: status $rc, not 2"
  grep -qF "$file:$line" "$work/stderr" || fail "$file: line $line not named"
  grep -qF -- "$text" "$work/stderr" || fail "$file: '$text' not in the message"
  grep -q 'nothing was written' "$work/stderr" || fail "$file: no 'nothing was written'"
  for f in out.json out.svg out.bin; do [ ! -e "$work/$f" ] || fail "$file: $f was written"; done
}

cat >"$work/missing.yaml" <<'Y'
tasks:
  - {name: C1, op: conv, cycles: 10, writes: {base: 0, words: 8}}
  - {name: P1, op: pool, cycles: 5, reads: [{task: C9}], writes: {base: 8, words: 8}}
Y
expect "$work/missing.yaml" tasks 3 "task P1 reads the output of C9, which is not a task in this list"

cat >"$work/later.yaml" <<'Y'
tasks:
  - {name: C1, op: conv, cycles: 10, reads: [{task: P1}], writes: {base: 0, words: 8}}
  - {name: P1, op: pool, cycles: 5, writes: {base: 8, words: 8}}
Y
expect "$work/later.yaml" tasks 2 "task C1 reads the output of P1, which comes later in the list"

cat >"$work/cycle.yaml" <<'Y'
tasks:
  - {name: A, op: conv, cycles: 10, reads: [{task: B}], writes: {base: 0, words: 8}}
  - {name: B, op: pool, cycles: 5, reads: [{task: A}], writes: {base: 8, words: 8}}
Y
expect "$work/cycle.yaml" tasks 2 "task A: dependency cycle A -> B -> A"

cat >"$work/engine.yaml" <<'Y'
tasks:
  - {name: C1, op: conv, cycles: 10, writes: {base: 0, words: 8}}
  - {name: S1, op: softmax, cycles: 5, writes: {base: 8, words: 8}}
Y
expect "$work/engine.yaml" tasks 3 "task S1: unknown engine operation 'softmax'"

cat >"$work/outside.yaml" <<'Y'
tasks:
  - {name: C1, op: conv, cycles: 10, writes: {base: 0, words: 8}}
  - {name: P1, op: pool, cycles: 5, reads: [{task: C1}], writes: {base: 1020, words: 8}}
Y
expect "$work/outside.yaml" tasks 3 "task P1: its output [1020, 1028) lies outside the data buffer of 1024 words" "$tiny"

cat >"$work/cycles.yaml" <<'Y'
tasks:
  - {name: C1, op: conv, cycles: 5000, writes: {base: 0, words: 8}}
Y
expect "$work/cycles.yaml" tasks 2 "task C1: 5000 cycles do not fit the 12-bit cycle register" "$tiny"

python3 - "$work/big.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("tasks:\n")
    for i in range(400):
        f.write(f"  - {{name: T{i}, op: pool, cycles: 3, writes: {{base: {i % 100}, words: 4}}}}\n")
PY
expect "$work/big.yaml" tasks 2:3 "the 400 tasks' descriptors take 5600 words; the task manager addresses 4096" "$tiny"

cat >"$work/no_tasks.yaml" <<'Y'
# a list without its tasks key
task:
  - {name: C1, op: conv, cycles: 10, writes: {base: 0, words: 8}}
Y
expect "$work/no_tasks.yaml" tasks 1 "tasks: required key is missing"

cat >"$work/dup.yaml" <<'Y'
tasks:
  - {name: C1, op: conv, cycles: 10, writes: {base: 0, words: 8}}
  - {name: C1, op: pool, cycles: 5, writes: {base: 8, words: 8}}
Y
expect "$work/dup.yaml" tasks 3 "task name C1 is used twice"

cat >"$work/net_input.yaml" <<'Y'
input: {height: 8, width: 8, channels: 4}
layers:
  - {name: c1, op: conv, channels: 8}
  - {name: a1, op: add, inputs: [c1, c7]}
Y
expect "$work/net_input.yaml" network 4 "layer a1 reads c7, which is not an earlier layer"

cat >"$work/net_shape.yaml" <<'Y'
input: {height: 8, width: 8, channels: 4}
layers:
  - {name: c1, op: conv, channels: 8}
  - {name: a1, op: add, inputs: [c1, input]}
Y
expect "$work/net_shape.yaml" network 4 "layer a1 adds a 8x8x8 tensor to a 8x8x4 one"

cat >"$work/net_big.yaml" <<'Y'
input: {height: 16, width: 16, channels: 4}
layers:
  - {name: c1, op: conv, channels: 8}
Y
expect "$work/net_big.yaml" network 3 "layer c1: its 2048 words do not fit the data buffer (1024 words" "$tiny"

cat >"$work/net_no_layers.yaml" <<'Y'
# a network that forgot its layers

input: {height: 8, width: 8, channels: 4}
Y
expect "$work/net_no_layers.yaml" network 3:1 "layers: required key is missing: a list of layers must follow the input (line 3)"

python3 - "$work/net_memory.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("input: {height: 4, width: 4, channels: 1}\nlayers:\n")
    f.writelines(f"  - {{name: a{i}, op: activation}}\n" for i in range(400))
PY
expect "$work/net_memory.yaml" network 3:3 "layers: the 400 tasks' descriptors take 7200 words; the task manager addresses 4096 (tasks.memory_words)" "$tiny"

# A configuration without the task unit, and a missing file.
rc=0
"$npugen" schedule "$(dirname "$config")/dense_8x8.yaml" --tasks "$work/dup.yaml" 2>"$work/stderr" || rc=$?
[ "$rc" = 2 ] && grep -q 'tasks.enabled: false' "$work/stderr" || fail "disabled task unit accepted"
rc=0
"$npugen" schedule "$config" --tasks "$work/none.yaml" 2>"$work/stderr" || rc=$?
[ "$rc" = 2 ] && grep -q 'none.yaml: error: no such file' "$work/stderr" || fail "missing file: $(cat "$work/stderr")"
echo "all bad inputs rejected with status 2, nothing written"
