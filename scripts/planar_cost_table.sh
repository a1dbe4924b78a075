#!/usr/bin/env bash
# Hardware cost of the planar engine (issue 14): Yosys cells and flip-flops for a few
# (words per cycle, largest window), both register groups, the queues, the line buffer (as
# flip-flops: Yosys maps no RAM here) and the gain table included. Pooling-only engines
# show what W and the window cost; the last rows add every operation (add, gain_bias and
# the reductions bring 3 x W x L 32 x 32 multipliers, minutes of Yosys each). The design's
# script runs Yosys's synth without its SAT-based resource sharing (-noshare), which runs
# out of memory on wide engines. Prints a Markdown table.
#
#   scripts/planar_cost_table.sh [NPUGEN]      (default build/generator/npugen)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${1:-$root/build/generator/npugen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# lanes words max_window max_stride max_pad max_height/width max_channels modes
settings=(
  "8 1 2 2 1 16 32 [max_pool,avg_pool]"
  "8 1 3 2 1 16 32 [max_pool,avg_pool]"
  "8 1 5 2 2 16 32 [max_pool,avg_pool]"
  "8 1 7 2 3 16 32 [max_pool,avg_pool]"
  "8 2 3 2 1 16 32 [max_pool,avg_pool]"
  "8 4 3 2 1 16 32 [max_pool,avg_pool]"
  "8 1 3 2 1 16 32 [activation]"
  "8 1 3 2 1 16 32 [max_pool,avg_pool,add,gain_bias,reduce_sum,reduce_max,activation]"
  "8 2 3 2 1 16 32 [max_pool,avg_pool,add,gain_bias,reduce_sum,reduce_max,activation]"
)
echo "Planar engine with its two register groups, line buffer and gain table; inputs up to"
echo "16 x 16 x 32; Yosys $(yosys -V | awk '{print $2}'), \`synth\` to generic gates (the"
echo "design's synth script, NPUGEN_FLATTEN=1)."
echo
echo "| L | W | window, stride, pad max | modes | line buffer (banks x entries) | cells | flip-flops | seconds |"
echo "| ---: | ---: | --- | --- | --- | ---: | ---: | ---: |"
i=0
for s in "${settings[@]}"; do
  read -r l w k st p dim ch modes <<<"$s"
  cfg=$work/c$i.yaml
  cat >"$cfg" <<YAML
design: {name: cost$i, module_prefix: cost$i}
pe_array: {tiles: $l, lanes: $l}
planar: {enabled: true, words_per_cycle: $w, max_window: $k, max_stride: $st, max_pad: $p,
         max_height: $dim, max_width: $dim, max_channels: $ch, max_batch: 1, act_words: 65536,
         modes: $modes}
YAML
  "$npugen" generate "$cfg" -o "$work/d$i" >/dev/null
  lb=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['derived']['planar']; print(d['line_buffer_banks'], 'x', d['line_buffer_depth'])" "$work/d$i/config.resolved.json")
  log=$work/y$i.log
  start=$(date +%s)
  # At most 8 GB and 30 minutes a design (Yosys's memory grows fast with the lanes).
  if ! (ulimit -v 8000000 && cd / && NPUGEN_FLATTEN=1 timeout 1800 \
        yosys -q -l "$log" -c "$work/d$i/synth/cost${i}_planar.tcl") >/dev/null 2>&1; then
    echo "| $l | $w | $k, $st, $p | $modes | $lb | (Yosys failed: 8 GB or 30 min) | | |"
    i=$((i + 1))
    continue
  fi
  seconds=$(($(date +%s) - start))
  stats=$(awk '/Printing statistics/ {s = ""} {s = s $0 "\n"} END {printf "%s", s}' "$log")
  cells=$(echo "$stats" | awk '/Number of cells/ {print $4; exit}')
  flops=$(echo "$stats" | awk '$1 ~ /DFF/ {s += $2} END {print s + 0}')
  shown=$(echo "$modes" | tr -d '[]' | sed 's/,/, /g')
  [ "$modes" = "[max_pool,avg_pool,add,gain_bias,reduce_sum,reduce_max,activation]" ] && shown="all seven"
  echo "| $l | $w | $k, $st, $p | $shown | $lb | $cells | $flops | $seconds |"
  i=$((i + 1))
done
