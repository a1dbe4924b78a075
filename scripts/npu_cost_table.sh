#!/usr/bin/env bash
# Hardware cost of the NPU top (issue 15) by block: Yosys cells and flip-flops of the whole
# top and of its parts, the sequencer (the neural engine with its address generator, PE
# array, post unit and memories), the planar engine, the task unit, the two command
# processors (two variants of one module, summed), the DMA, with VQ the VQ weight loader
# (its dequantizer and codebook copies inside), and the top's own logic (the host-port
# and system-memory arbiters, the owners queue, the APB decoder and registers: the whole
# minus the parts). Each design is
# synthesized once by its synth/<prefix>_npu.tcl, hierarchically; `stat -top <module>`
# gives each part's total. Memories stay $mem_v2 cells (one cell each, among the cells;
# their bits after memory_unpack). Prints a Markdown table.
#
#   scripts/npu_cost_table.sh [NPUGEN] [CONFIG...]   (default build/generator/npugen;
#                                                      configs/npu_odd_3x5.yaml, default.yaml)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${1:-$root/build/generator/npugen}
shift || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=("$root/configs/npu_odd_3x5.yaml" "$root/configs/default.yaml")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Cells and flip-flops of the hierarchy total in a `stat` output.
count() {
  awk '/design hierarchy/ {h = 1} h && /Number of cells/ {c = $4} h && $1 ~ /DFF/ {f += $2}
       END {print c, f + 0}' "$1"
}
# Cells and flip-flops of the module sections whose name ends in $1 (a module with
# parameters is one section per variant), summed, in the `stat` output $2.
sections() {
  awk -v suffix="$1" '/^=== / {m = (substr($2, length($2) - length(suffix) + 1) == suffix)}
    /design hierarchy/ {m = 0} m && /Number of cells/ {c += $4} m && $1 ~ /DFF/ {f += $2}
    END {print c, f + 0}' "$2"
}
echo "NPU top by block; Yosys $(yosys -V | awk '{print $2}'), the design's synth script,"
echo "hierarchical; memories kept as \$mem_v2 cells (counted among the cells, their bits apart)."
echo "Top logic = the whole minus the sequencer, the planar engine, the task unit, the two"
echo "command processors, the DMA and the VQ loader."
echo
echo "| design | T x L | top cells | top FFs | memories (bits) | sequencer cells | sequencer FFs | planar cells | planar FFs | task unit cells | task unit FFs | command processors cells (both) | FFs (both) | DMA cells | DMA FFs | VQ loader cells | VQ loader FFs | top logic cells | top logic FFs | seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
i=0
for cfg in "${configs[@]}"; do
  d=$work/d$i
  "$npugen" generate "$cfg" -o "$d" >/dev/null
  script=$(ls "$d"/synth/*_npu.tcl)
  prefix=$(basename "$(ls "$d"/rtl/*_npu.sv)" _npu.sv)  # the modules' prefix
  parts="npu sequencer planar tasks"
  [ -f "$d/rtl/${prefix}_npu_vq_load.sv" ] && parts="$parts npu_vq_load"
  cat >"$work/w$i.tcl" <<TCL
source $script
foreach top {$parts} {
  yosys tee -q -o $work/\${top}$i.txt stat -top ${prefix}_\$top
}
yosys memory_unpack
yosys tee -q -o $work/mem$i.txt stat
TCL
  start=$SECONDS
  (cd "$work" && yosys -q -w 'Replacing memory' -c "w$i.tcl") >/dev/null
  read -r top_c top_f <<<"$(count "$work/npu$i.txt")"
  read -r seq_c seq_f <<<"$(count "$work/sequencer$i.txt")"
  read -r pl_c pl_f <<<"$(count "$work/planar$i.txt")"
  read -r tu_c tu_f <<<"$(count "$work/tasks$i.txt")"
  # The DMA has parameters: its module section (one variant) of the top's statistics.
  read -r dma_c dma_f <<<"$(sections _npu_dma "$work/npu$i.txt")"
  vq_c=0 vq_f=0
  [ -f "$work/npu_vq_load$i.txt" ] && read -r vq_c vq_f <<<"$(count "$work/npu_vq_load$i.txt")"
  # The two command processors are two variants of one module (their windows differ): the
  # module sections of the top's statistics, summed.
  read -r cmd_c cmd_f <<<"$(sections _npu_cmd "$work/npu$i.txt")"
  mems=$(awk '/design hierarchy/ {h = 1} h && /Number of memor/ {v[++j] = $NF}
              END {print v[1] " (" v[2] ")"}' "$work/mem$i.txt")
  tl=$(grep -E '^ *(tiles|lanes):' "$cfg" | awk '{print $2}' | tr '\n' ' ' | awk '{print $1 " x " $2}')
  echo "| $(basename "$cfg" .yaml) | $tl | $top_c | $top_f | $mems | $seq_c | $seq_f | $pl_c | $pl_f" \
    "| $tu_c | $tu_f | $cmd_c | $cmd_f | $dma_c | $dma_f | $vq_c | $vq_f" \
    "| $((top_c - seq_c - pl_c - tu_c - cmd_c - dma_c - vq_c))" \
    "| $((top_f - seq_f - pl_f - tu_f - cmd_f - dma_f - vq_f)) | $((SECONDS - start)) |"
  i=$((i + 1))
done
