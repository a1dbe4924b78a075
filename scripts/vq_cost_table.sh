#!/usr/bin/env bash
# Hardware cost of the dequantizer (SPEC M3): Yosys resources for several (N, M, P), int8
# weights, min vector length 1, with the codebook copies as inferred memories (ram; their
# bits counted apart, since a RAM macro holds them) and as registers (flops). Each design
# is synthesized by its own synth/<design>_vq.tcl, flattened (NPUGEN_FLATTEN=1). Prints a
# Markdown table.
#
#   scripts/vq_cost_table.sh [NPUGEN]      (default build/generator/npugen)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${1:-$root/build/generator/npugen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# N M P memory
settings=(
  "16 4 1 ram" "16 4 1 flops"
  "256 4 1 ram" "256 4 4 ram" "256 8 4 ram" "256 16 4 ram"
  "4096 4 4 ram" "64 4 4 flops"
)
echo "Dequantizer, int8 weights, vector lengths 1 to M; Yosys $(yosys -V | awk '{print $2}'),"
echo "\`synth -flatten\` to generic gates; with \`ram\` the memories are kept as \`\$mem_v2\` (after"
echo "\`-run begin:fine\`, the rest mapped by \`techmap\` and \`abc -fast\`)."
echo
echo "| N | M | P | memory | memories (bits each) | logic cells | flip-flops |"
echo "| ---: | ---: | ---: | --- | --- | ---: | ---: |"
i=0
for s in "${settings[@]}"; do
  read -r n m p mem <<<"$s"
  cfg=$work/c$i.yaml
  cat >"$cfg" <<YAML
design: {name: cost$i, module_prefix: cost$i}
pe_array: {tiles: 1, lanes: 1, accumulator: {width: 16}}
vq: {enabled: true, rows: $n, row_weights: $m, copies: $p, min_vector_length: 1, memory: $mem}
YAML
  "$npugen" generate "$cfg" -o "$work/d$i" >/dev/null
  log=$work/y$i.log
  (cd "$work/d$i" && NPUGEN_FLATTEN=1 yosys -q -l "$log" -c "synth/cost${i}_vq.tcl") >/dev/null
  # The final stat only (with memory: flops the script's synth -run fine: prints one too).
  stats=$(awk '/Printing statistics/ {s = ""} {s = s $0 "\n"} END {printf "%s", s}' "$log")
  cells=$(echo "$stats" | awk '/Number of cells/ {print $4; exit}')
  mems=$(echo "$stats" | awk '$1 == "$mem_v2" {print $2}')
  mems=${mems:-0}
  flops=$(echo "$stats" | awk '$1 ~ /DFF/ {s += $2} END {print s + 0}')
  bits=""
  [ "$mems" != 0 ] && bits=" ($((n * m * 8)))"
  echo "| $n | $m | $p | $mem | $mems$bits | $((cells - mems)) | $flops |"
  i=$((i + 1))
done
