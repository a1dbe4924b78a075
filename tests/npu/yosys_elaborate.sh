# Yosys reads the NPU top of a generated design (its file list, as the synthesis script
# does), elaborates the hierarchy and runs proc: no syntax its front end rejects, no
# latch. The full synthesis takes minutes (scripts/npu_cost_table.sh reports its cells and
# flip-flops by block), so CI stops here.
# With TOP, that module of the top's hierarchy instead (the VQ loader of npu_vq: its
# dequantizer and codebooks, without the 4096-row weight store proc takes a minute on).
#   yosys_elaborate.sh DESIGN_DIR NAME [TOP]
source "$(dirname "$0")/../scripts/common.sh"
dir=$1 name=$2
cd "$dir"
top=${3:-$(basename "$(ls rtl/*_npu.sv)" .sv)}
reads=$(grep -v '^//' "${name}_npu.f" | sed '/^$/d; s/^/read_verilog -sv /; s/$/;/' | tr '\n' ' ')
log=$(mktemp)
yosys -q -l "$log" -p "$reads hierarchy -check -top $top; proc;
  select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr" >/dev/null 2>&1 ||
  { grep -v 'Replacing memory' "$log" | tail -20; rm -f "$log"; fail "yosys rejected $top"; }
rm -f "$log"
echo "$top: read, elaborated, no latch"
