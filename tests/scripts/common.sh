# Helpers shared by the test scripts.
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }

# Value of a top-level string field of a design folder's manifest.json.
manifest_field() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
    "$1/manifest.json" "$2"
}

# The top module of every block of a design folder, one per line.
block_tops() {
  python3 -c 'import json, sys; print("\n".join(b["top"] for b in json.load(open(sys.argv[1]))["blocks"]))' \
    "$1/manifest.json"
}

# A field of every block of a design folder's manifest.json, one block a line.
block_field() {
  python3 -c 'import json, sys; print("\n".join(b[sys.argv[2]] for b in json.load(open(sys.argv[1]))["blocks"]))' \
    "$1/manifest.json" "$2"
}

# Builds a mutated design folder's co-simulation of BLOCK (default the PE array) and runs
# it for CYCLES (default 5000) with SEED (default the configuration's); it must fail with
# status 1, and its JSON summary (DIR.summary.json) must say mismatch or assertion, with a
# command reproducing it, and, when EXPECT is given, hold that text in a mismatch, the
# assertion's message or the report. Its output is left in DIR.out.
run_mutant() {
  local dir=$1 block=${2:-pe_array} cycles=${3:-5000} seed=${4:-} expect=${5:-} rc=0
  local seed_args=() expect_args=()
  [ -z "$seed" ] || seed_args=(--seed "$seed")
  [ -z "$expect" ] || expect_args=(--expect "$expect")
  make -s -C "$dir/sim" BLOCK="$block" >"$dir.build.log" 2>&1 \
    || { tail -20 "$dir.build.log"; fail "build"; }
  rm -f "$dir.summary.json"
  "$dir/sim/build-$block/sim" --cycles "$cycles" "${seed_args[@]}" \
    --summary "$dir.summary.json" >"$dir.out" 2>&1 || rc=$?
  cat "$dir.out"
  [ "$rc" = 1 ] || fail "the broken design passed (status $rc)"
  python3 "$(dirname "${BASH_SOURCE[0]}")/summary.py" "$dir.summary.json" --status failed \
    "${expect_args[@]}" || fail "the summary does not report the failure as expected"
}

# A command that must refuse its input: exit status 2, each fixed string before the `--` in
# its output, and the folder OUT not written.
#   expect_refusal OUT LOG STRING... -- COMMAND ARGS...
expect_refusal() {
  local out=$1 log=$2 rc=0
  shift 2
  local want=()
  while [ "$1" != "--" ]; do want+=("$1"); shift; done
  shift
  "$@" >"$log" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || fail "the refused run exited $rc, not 2: $(tail -5 "$log")"
  local w
  for w in "${want[@]}"; do
    grep -qF -- "$w" "$log" || fail "the refusal lacks '$w': $(cat "$log")"
  done
  [ ! -e "$out" ] || fail "the refused run wrote $out"
}
