#!/usr/bin/env bash
# Hardware cost of the sequencer (SPEC M4): Yosys cells and flip-flops of the whole
# sequencer and of its parts, the address generator (<prefix>_agu), the dense PE array and
# the post unit, for a few (tiles x lanes, maxima, buffer sizes). Each design is synthesized
# once by its synth/<prefix>_sequencer.tcl, hierarchically; `stat -top <module>` then gives
# each part's total, and the sequencer's own control logic (its FSMs, FIFOs, RAM wrappers)
# is the whole minus the three parts. Memories stay $mem_v2 cells (one cell each, counted
# among the cells); Yosys 0.23's `stat` counts their bits only after memory_unpack, so a
# last `stat` follows that. The AGU's $mul cells are counted where its own synth script
# checks for them (the coarse operators, before alumacc). Prints a Markdown table.
#
# The arrays are small: Yosys's proc pass on the weight store and cache (<prefix>_sequencer_
# ram, one byte-masked write per byte of a T x L-byte row) grows steeply with T x L (a
# 256-word RAM alone: about 3 s at 32 bytes, 34 s at 64, 470 s at 128), so seq_default's
# 8 x 8 takes 110 s here and a 16 x 16 array far longer.
#
#   scripts/seq_cost_table.sh [NPUGEN]      (default build/generator/npugen)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${1:-$root/build/generator/npugen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# tiles lanes post_lanes post_channels max_height/width max_channels max_batch max_kernel
# max_stride max_pad act_words weight_rows cache_rows mec_window
# Small: configs/seq_odd_3x6.yaml's maxima (its adder tree unpipelined to 1 stage);
# medium: configs/seq_default.yaml's on a 4 x 8 array with C up to 64; large: 6 x 8.
settings=(
  "3 6 3 60 12 40 3 4 3 3 1000 700 12 21"
  "4 8 4 256 32 64 8 5 3 2 4096 4096 128 200"
  "6 8 2 256 64 256 8 7 4 3 16384 16384 256 392"
)
# Cells and flip-flops of the hierarchy total in a `stat` output.
count() {
  awk '/design hierarchy/ {h = 1} h && /Number of cells/ {c = $4} h && $1 ~ /DFF/ {f += $2}
       END {print c, f + 0}' "$1"
}
echo "Sequencer with its address generator, int8 PE array (adder tree: the default 1 stage) and"
echo "post unit (P lanes); Yosys $(yosys -V | awk '{print $2}'), the design's synth script, hierarchical;"
echo "memories kept as \$mem_v2 cells (counted among the sequencer's cells, their bits apart)."
echo "Control = the sequencer minus its AGU, PE array and post unit."
echo
echo "| T x L | P | H, W max | C max | kernel max | act words | weight rows | cache rows | MEC window | AGU cells | AGU FFs | AGU \$mul | sequencer cells | sequencer FFs | memories (bits) | control cells | control FFs | PE array cells | PE array FFs | post cells | post FFs |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
i=0
for s in "${settings[@]}"; do
  read -r t l p pch dim ch n k st pad words rows cache win <<<"$s"
  cfg=$work/c$i.yaml d=$work/d$i pre=cost$i
  cat >"$cfg" <<YAML
design: {name: cost$i, module_prefix: $pre}
pe_array: {tiles: $t, lanes: $l}
agu: {enabled: true, max_height: $dim, max_width: $dim, max_channels: $ch, max_batch: $n,
      max_kernel: $k, max_stride: $st, max_pad: $pad, act_words: $words, weight_rows: $rows,
      mec_window: $win}
post: {enabled: true, lanes: $p, max_channels: $pch}
sequencer: {enabled: true, cache_rows: $cache}
YAML
  "$npugen" generate "$cfg" -o "$d" >/dev/null
  # The design's script, then each part's total, then the memories' bits.
  cat >"$work/w$i.tcl" <<TCL
source $d/synth/${pre}_sequencer.tcl
foreach top {sequencer agu pe_array post} {
  yosys tee -q -o $work/\${top}$i.txt stat -top ${pre}_\$top
}
yosys memory_unpack
yosys tee -q -o $work/mem$i.txt stat
TCL
  start=$SECONDS
  # -w: the register arrays Yosys turns into flip-flops are expected, not warnings.
  (cd "$work" && yosys -q -w 'Replacing memory' -c "w$i.tcl") >/dev/null
  reads=$(grep -v '^//' "$d/${pre}_agu.f" | sed '/^$/d; s/^/read_verilog -sv /; s/$/;/' | tr '\n' ' ')
  (cd "$d" && yosys -q -p "$reads synth -top ${pre}_agu -run begin:coarse; proc; opt; wreduce;
     peepopt; opt_clean; tee -q -o $work/mul$i.txt select -count t:\$mul") >/dev/null
  echo "setting $i ($t x $l): $((SECONDS - start)) s" >&2
  read -r seq_c seq_f <<<"$(count "$work/sequencer$i.txt")"
  read -r agu_c agu_f <<<"$(count "$work/agu$i.txt")"
  read -r pe_c pe_f <<<"$(count "$work/pe_array$i.txt")"
  read -r post_c post_f <<<"$(count "$work/post$i.txt")"
  muls=$(awk '/objects/ {print $1}' "$work/mul$i.txt")
  mems=$(awk '/design hierarchy/ {h = 1} h && /Number of memor/ {v[++j] = $NF}
              END {print v[1] " (" v[2] ")"}' "$work/mem$i.txt")
  echo "| $t x $l | $p | $dim | $ch | $k | $words | $rows | $cache | $win | $agu_c | $agu_f | $muls" \
    "| $seq_c | $seq_f | $mems | $((seq_c - agu_c - pe_c - post_c)) | $((seq_f - agu_f - pe_f - post_f))" \
    "| $pe_c | $pe_f | $post_c | $post_f |"
  i=$((i + 1))
done
