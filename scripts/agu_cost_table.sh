#!/usr/bin/env bash
# Hardware cost of the address generator (SPEC M5): Yosys cells and flip-flops for a few
# (tiles x lanes, maxima, activation words), both register groups included. Prints a
# Markdown table.
#
#   scripts/agu_cost_table.sh [NPUGEN]      (default build/generator/npugen)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${1:-$root/build/generator/npugen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# tiles lanes max_height/width max_channels max_batch max_kernel max_stride max_pad act_words
# mec_window (0: no MEC order)
settings=(
  "5 3 13 17 3 5 6 4 1000 0"
  "5 3 13 17 3 5 6 4 1000 23"
  "8 8 64 256 4 7 4 3 65536 0"
  "8 8 64 256 4 7 4 3 65536 392"
  "16 16 224 1024 8 11 4 5 1048576 0"
  "32 32 4096 65535 16 15 8 7 16777216 0"
)
echo "Address generator with its two register groups; Yosys $(yosys -V | awk '{print $2}'),"
echo "\`synth\` to generic gates (the design's synth script, NPUGEN_FLATTEN=1)."
echo
echo "| T x L | H, W max | C, K max | N max | kernel, stride, pad max | act words | MEC window | address bits (act, weight) | cells | flip-flops |"
echo "| --- | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: |"
i=0
for s in "${settings[@]}"; do
  read -r t l dim ch n k st p words win <<<"$s"
  cfg=$work/c$i.yaml
  cat >"$cfg" <<YAML
design: {name: cost$i, module_prefix: cost$i}
pe_array: {tiles: $t, lanes: $l}
agu: {enabled: true, max_height: $dim, max_width: $dim, max_channels: $ch, max_batch: $n,
      max_kernel: $k, max_stride: $st, max_pad: $p, act_words: $words, weight_rows: $words,
      mec_window: $win}
YAML
  "$npugen" generate "$cfg" -o "$work/d$i" >/dev/null
  bits=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['derived']['agu']; print(d['act_addr_bits'], d['weight_addr_bits'])" "$work/d$i/config.resolved.json" | tr ' ' ',')
  log=$work/y$i.log
  (cd / && NPUGEN_FLATTEN=1 yosys -q -l "$log" -c "$work/d$i/synth/cost${i}_agu.tcl") >/dev/null
  # The final stat only (the script's synth -run fine: prints one before it).
  stats=$(awk '/Printing statistics/ {s = ""} {s = s $0 "\n"} END {printf "%s", s}' "$log")
  cells=$(echo "$stats" | awk '/Number of cells/ {print $4; exit}')
  flops=$(echo "$stats" | awk '$1 ~ /DFF/ {s += $2} END {print s + 0}')
  echo "| $t x $l | $dim | $ch | $n | $k, $st, $p | $words | $win | $bits | $cells | $flops |"
  i=$((i + 1))
done
