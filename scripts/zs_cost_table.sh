#!/usr/bin/env bash
# Hardware cost of zero skipping: Yosys cell and flip-flop counts of the zero-skipping
# PE array for several (h, d, H, D) settings against the dense array of the same T x L
# (our version of seed 000's figure 4F). Each design is synthesized by its own synth
# script, flattened (NPUGEN_FLATTEN=1): synth/<design>_zs.tcl for the zero-skipping array,
# synth/<design>_pe_array.tcl for the dense one. Prints a Markdown table.
#
#   scripts/zs_cost_table.sh [TILES] [LANES] [NPUGEN]      (default 4 8 build/generator/npugen)
set -euo pipefail
tiles=${1:-4} lanes=${2:-8}
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${3:-$root/build/generator/npugen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name | zs enabled | h d | H D
settings=(
  "dense|false|0 0|0 0"
  "zs, levels off|true|0 0|0 0"
  "h=1|true|1 0|0 0"
  "h=1 d=1|true|1 1|0 0"
  "h=2 d=2|true|2 2|0 0"
  "H=1|true|0 0|1 0"
  "D=1|true|0 0|0 1"
  "H=1 D=1|true|0 0|1 1"
  "h=1 d=1 H=1 D=1|true|1 1|1 1"
  "h=2 d=2 H=2 D=2|true|2 2|2 2"
)
echo "PE array ${tiles} x ${lanes}, int8 weights and activations, 32-bit accumulators, one"
echo "adder-tree register; Yosys $(yosys -V | awk '{print $2}') \`synth -flatten\`, generic cells."
echo
echo "| setting | cells | flip-flops | cells / dense | flip-flops / dense |"
echo "| --- | ---: | ---: | ---: | ---: |"
dense_cells=0 dense_flops=0
i=0
for s in "${settings[@]}"; do
  IFS='|' read -r name enabled intra inter <<<"$s"
  read -r h d <<<"$intra"
  read -r bh bd <<<"$inter"
  e0=true e1=true
  [ "$h$d" = 00 ] && e0=false
  [ "$bh$bd" = 00 ] && e1=false
  R=1
  cfg=$work/c$i.yaml
  cat >"$cfg" <<YAML
design: {name: cost$i, module_prefix: cost$i}
pe_array:
  tiles: $tiles
  lanes: $lanes
  adder_tree: {pipeline_stages: 1}
zs:
  enabled: $enabled
  levels:
    - {enabled: $e0, lookahead: $h, lookaside: $d}
    - {enabled: $e1, lookahead: $bh, lookaside: $bd}
  act_rows_per_cycle: $R
  max_rows: 1024
  step_buffer_depth: 2
YAML
  block=pe_array
  [ "$enabled" = true ] && block=zs
  "$npugen" generate "$cfg" -o "$work/d$i" >/dev/null
  (cd "$work/d$i" && NPUGEN_FLATTEN=1 yosys -q -l "$work/y$i.log" -c "synth/cost${i}_$block.tcl" >/dev/null)
  # The final stat only (the script's synth -run fine: prints one before it).
  stats=$(awk '/Printing statistics/ {s = ""} {s = s $0 "\n"} END {printf "%s", s}' "$work/y$i.log")
  cells=$(awk '/Number of cells/ {n=$4} END {print n}' <<<"$stats")
  flops=$(awk '$1 ~ /DFF/ {n += $2} END {print n+0}' <<<"$stats")
  if [ "$i" = 0 ]; then dense_cells=$cells dense_flops=$flops; fi
  awk -v n="$name" -v c="$cells" -v f="$flops" -v dc="$dense_cells" -v df="$dense_flops" \
    'BEGIN { printf "| %s | %s | %s | %.2f | %.2f |\n", n, c, f, c / dc, f / df }'
  i=$((i + 1))
done
