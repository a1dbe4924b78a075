#!/usr/bin/env bash
# Hardware cost of the task unit (SPEC M2): Yosys resources of the whole unit (task
# manager, configuration queue, task buffer with access enable) for several task-buffer
# sizes E and queue counts K, one neural and one planar engine, a 2-deep configuration
# queue, a 1 M-word buffer (21-bit regions) and 24-bit cycle counts. The unit is
# synthesized by each design's synth/<design>_tasks.tcl, flattened (NPUGEN_FLATTEN=1); the
# task buffer (<prefix>_tasks_buffer) alone by an inline Yosys command. Prints a Markdown
# table; the last columns give the task buffer's share of the cells and flip-flops.
#
#   scripts/tasks_cost_table.sh [NPUGEN]      (default build/generator/npugen)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
npugen=${1:-$root/build/generator/npugen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

settings=("4 1" "8 1" "8 2" "8 4" "16 2" "16 8" "32 2")
echo "Task unit, 1 neural + 1 planar engine, C = 2, 21-bit regions; Yosys $(yosys -V | awk '{print $2}'),"
echo "\`synth -flatten\` to generic gates (flip-flops counted among the cells)."
echo
echo "| E | K | cells | flip-flops | task-buffer cells | task-buffer flip-flops |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
i=0
for s in "${settings[@]}"; do
  read -r e k <<<"$s"
  cfg=$work/c$i.yaml
  cat >"$cfg" <<YAML
design: {name: cost$i, module_prefix: cost$i}
pe_array: {tiles: 1, lanes: 1, accumulator: {width: 16}}
tasks: {enabled: true, entries: $e, queues: $k}
YAML
  "$npugen" generate "$cfg" -o "$work/d$i" >/dev/null
  log=$work/y$i.log
  # -w: the register arrays Yosys turns into flip-flops are expected, not warnings.
  (cd "$work/d$i" && NPUGEN_FLATTEN=1 yosys -q -w 'Replacing memory' -l "$log" -c "synth/cost${i}_tasks.tcl") >/dev/null
  # The final stat only (the script's synth -run fine: prints one before it).
  stats=$(awk '/Printing statistics/ {s = ""} {s = s $0 "\n"} END {printf "%s", s}' "$log")
  cells=$(echo "$stats" | awk '/Number of cells/ {print $4; exit}')
  flops=$(echo "$stats" | awk '$1 ~ /DFF/ {s += $2} END {print s + 0}')
  # The task buffer alone: every file of the unit's filelist in its order (the package
  # first; modules the buffer does not instantiate are dropped by synth -top).
  blog=$work/b$i.log
  reads=$(grep -v '^//' "$work/d$i/cost${i}_tasks.f" | sed '/^$/d; s/^/read_verilog -sv /; s/$/;/' | tr '\n' ' ')
  (cd "$work/d$i" && yosys -q -w 'Replacing memory' -l "$blog" -p "$reads synth -flatten -top cost${i}_tasks_buffer; stat") >/dev/null
  bstats=$(awk '/Printing statistics/ {s = ""} {s = s $0 "\n"} END {printf "%s", s}' "$blog")
  bcells=$(echo "$bstats" | awk '/Number of cells/ {print $4; exit}')
  bflops=$(echo "$bstats" | awk '$1 ~ /DFF/ {s += $2} END {print s + 0}')
  echo "| $e | $k | $cells | $flops | $bcells | $bflops |"
  i=$((i + 1))
done
