#!/usr/bin/env bash
# Fuzzing the readers of outside input with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer (clang; CMake preset "fuzz", folder build-fuzz):
#
#   scripts/fuzz.sh build                    configure and build the four targets
#   scripts/fuzz.sh run SECONDS [TARGET...]  run each target (default: all) for SECONDS
#   scripts/fuzz.sh replay TARGET BINARY     pass the target's seed corpus once through
#                                            BINARY (the target built with tests/fuzz/
#                                            replay_main.cpp: the suite's tier)
#
# Targets: config (YAML configurations), npy (.npy files), task_list (npugen schedule
# --tasks), network (npugen schedule --network). Each starts from its seed corpus (the
# repository's own files of that kind, tests/fuzz/corpus/) and keeps what it learns in
# build-fuzz/corpus/TARGET, so later runs go on from there. A crash, leak, sanitizer report,
# timeout or out-of-memory is saved under build-fuzz/artifacts/TARGET/ and fails the run
# (exit status 1) with the command that replays it. One line per target reports
# executions, their rate, the corpus and the crashes.
#
# The suite replays the seed corpora (replay); the campaigns are the nightly tier:
#   scripts/fuzz.sh build && scripts/fuzz.sh run 600      (ten minutes each)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=$root/build-fuzz
all_targets=(config npy task_list network onnx)

die() { echo "fuzz: $*" >&2; exit 2; }

seeds() {  # TARGET -> the seed corpus folders and files (and its saved crashes, once fixed)
  local saved=$root/tests/fuzz/corpus/$1
  case $1 in
    config) echo "$root/configs $root/tests/bad_configs" ;;
    npy) ;;
    task_list) echo "$root/tasklists" ;;
    network) echo "$root/networks" ;;
    onnx) ;;  # its seeds are the saved models in tests/fuzz/corpus/onnx
    *) die "unknown target '$1' (targets: ${all_targets[*]})" ;;
  esac
  [ -d "$saved" ] && echo "$saved"
  return 0
}

# A libFuzzer dictionary: the keys and words the target's own seed files use, and the
# YAML or .npy syntax around them (derived from the seeds, so it follows the schema).
dictionary() {  # TARGET FILE
  local target=$1 out=$2
  if [ "$target" = onnx ]; then  # protobuf field tags and the operators' names
    printf '%s\n' '"QLinearConv"' '"QuantizeLinear"' '"DequantizeLinear"' '"QGemm"' \
      '"com.microsoft"' '"MaxPool"' '"Conv"' '"Gemm"' '"Relu"' '"Flatten"' '"Reshape"' \
      '"kernel_shape"' '"pads"' '"strides"' '"\x08\x08"' '"\x12\x00"' '"\x3a"' >"$out"
    return
  fi
  if [ "$target" = npy ]; then
    printf '%s\n' '"\x93NUMPY"' '"\x01\x00"' '"\x02\x00"' "\"'descr'\"" "\"'fortran_order'\"" \
      "\"'shape'\"" '"True"' '"False"' "\"'<i4'\"" "\"'|i1'\"" "\"'>i2'\"" "\"'<u8'\"" \
      "\"'<f2'\"" "\"'<f8'\"" '"(0,)"' '"(1, 2, 3)"' '"{"' '"}"' '", "' '": "' >"$out"
    return
  fi
  {
    # shellcheck disable=SC2046
    grep -hoE '[A-Za-z_][A-Za-z0-9_]*:' $(find $(seeds "$target") -name '*.yaml') 2>/dev/null \
      | sort -u | sed 's/.*/"&"/'
    printf '%s\n' '"- "' '"{"' '"}"' '"["' '"]"' '", "' '"---"' '"&a "' '"*a"' '"!!str "' \
      '"true"' '"false"' '"null"' '"0x"' '"-1"' '"4294967296"' '"1e999"' '".nan"' '"~"'
  } >"$out"
}

build_targets() {
  command -v clang++-14 >/dev/null || die "clang++-14 is not installed (sudo apt-get install -y clang-14 libclang-rt-14-dev)"
  [ -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ] \
    || ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
    || die "libFuzzer is not installed (sudo apt-get install -y libclang-rt-14-dev)"
  # ccache keeps the sanitized objects of unchanged sources between runs.
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake --preset fuzz "${launcher[@]}" >/dev/null
  # The fuzz targets and what they link, not the rest of the tree (the generator's
  # emitters): the sanitized build is the longest step of the suite.
  cmake --build --preset fuzz --target "${all_targets[@]/#/fuzz_}"
}

run_target() {  # TARGET SECONDS
  local target=$1 seconds=$2 bin=$build/tests/fuzz/fuzz_$1
  [ -x "$bin" ] || die "$bin is missing: run 'scripts/fuzz.sh build' first"
  local corpus=$build/corpus/$target artifacts=$build/artifacts/$target log=$build/fuzz_$target.log
  mkdir -p "$corpus" "$artifacts"
  dictionary "$target" "$build/$target.dict"
  local max_len=16384
  [ "$target" = npy ] && max_len=4096
  local rc=0
  # shellcheck disable=SC2046
  "$bin" "$corpus" $(seeds "$target") -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len="$max_len" -dict="$build/$target.dict" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$log" 2>&1 || rc=$?
  local runs rate crashes
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  crashes=$(find "$artifacts" -type f | wc -l)
  printf 'fuzz_%s: %s s, %s executions (%s/s), corpus %s inputs, %s crash(es) saved in %s\n' \
    "$target" "$seconds" "${runs:-?}" "${rate:-?}" "$(find "$corpus" -type f | wc -l)" "$crashes" \
    "$artifacts"
  if [ "$rc" != 0 ]; then
    grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 >&2
    echo "fuzz_$target failed (status $rc); replay: $bin $artifacts/<file>; log: $log" >&2
    return 1
  fi
}

case ${1:-} in
  build) build_targets ;;
  run)
    [ $# -ge 2 ] || die "usage: scripts/fuzz.sh run SECONDS [TARGET...]"
    seconds=$2
    shift 2
    targets=("$@")
    [ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
    status=0
    for t in "${targets[@]}"; do seeds "$t" >/dev/null; run_target "$t" "$seconds" || status=1; done
    exit $status
    ;;
  replay)
    [ $# -eq 3 ] || die "usage: scripts/fuzz.sh replay TARGET BINARY"
    # shellcheck disable=SC2046
    exec "$3" $(seeds "$2")
    ;;
  *) die "usage: scripts/fuzz.sh build | run SECONDS [TARGET...] | replay TARGET BINARY" ;;
esac
