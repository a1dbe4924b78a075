# Icarus cross-check: the golden model's expected outputs replayed on the RTL under
# Icarus Verilog (a second simulator, independent of Verilator).
source "$(dirname "$0")/common.sh"
npugen=$1 config=$2 dir=$3
dir=$(cd "$dir" && pwd)
vectors="$dir.vectors"
"$npugen" sim "$config" -o "$dir" --block pe_array --cycles 3000 --seed 7 --vectors "$vectors" \
  --summary "$dir.icarus.json"
python3 "$(dirname "$0")/summary.py" "$dir.icarus.json"
top=$(manifest_field "$dir" top)
filelist=$(manifest_field "$dir" filelist)
(cd "$dir" && iverilog -g2012 -o "$dir.icarus.vvp" -c "$filelist" "sim/${top}_icarus_tb.sv")
out=$(vvp -n "$dir.icarus.vvp" "+vectors=$vectors" 2>&1) || fail "icarus run failed:\n$out"
echo "$out"
grep -q '^PASS: 3000 cycles' <<<"$out" || fail "icarus did not pass all 3000 cycles"
