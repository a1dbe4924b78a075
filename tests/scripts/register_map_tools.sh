# The register-map renderings of tests/tools/regmap_render (in DIR) through the real tools:
#
#   register_map_tools.sh c|rdl|sv DIR
#
# c:   each C header, with a unit checking every macro's value and type against the JSON
#      rendering (c_header_check.py), compiled by gcc -std=c89 -pedantic -Wall -Wextra -Werror.
# rdl: each SystemRDL file elaborated by systemrdl-compiler and compared with the JSON
#      (systemrdl_check.py); fails when $NPUGEN_PYTHON cannot import it.
# sv:  each package compiled by Icarus (-g2012) with a testbench printing every constant,
#      compared with the JSON (sv_package_check.py), and linted by Verilator -Wall.
# Python is $NPUGEN_PYTHON (default python3).
source "$(dirname "$0")/common.sh"
part=$1
dir=$2
scripts=$(cd "$(dirname "$0")" && pwd)
python=${NPUGEN_PYTHON:-python3}
checked=0

for json in "$dir"/*/docs/*_registers.json; do
  [ -f "$json" ] || fail "no JSON rendering in $dir"
  block_dir=$(dirname "$(dirname "$json")")
  block=$(basename "$json" _registers.json)
  work="$block_dir/check-$part"
  rm -rf "$work"
  mkdir -p "$work"
  case $part in
    c)
      for header in "$block_dir"/sw/*_"$block"_regs.h; do
        "$python" "$scripts/c_header_check.py" "$json" "$(cd "$(dirname "$header")" && pwd)/$(basename "$header")" \
          >"$work/check.c" || fail "c_header_check.py $json"
        gcc -std=c89 -pedantic -Wall -Wextra -Werror -c "$work/check.c" -o "$work/check.o" \
          || fail "$header: not clean C89, or its macros disagree with $json"
        if grep -n '[[:space:]]$' "$header"; then fail "$header: trailing white space"; fi
        [ "$(tail -c 1 "$header" | od -An -c | tr -d ' ')" = '\n' ] \
          || fail "$header: does not end with a newline"
        echo "C89 clean and as the JSON says: $header"
        checked=$((checked + 1))
      done
      ;;
    rdl)
      "$python" -c 'import systemrdl' 2>/dev/null \
        || fail "$python cannot import systemrdl: scripts/setup.sh installs systemrdl-compiler"
      rdl="$block_dir/docs/${block}_registers.rdl"
      "$python" "$scripts/systemrdl_check.py" "$rdl" "$json" || fail "$rdl"
      checked=$((checked + 1))
      ;;
    sv)
      for pkg in "$block_dir"/rtl/*_"$block"_pkg.sv; do
        name=$(basename "$pkg" .sv)
        "$python" "$scripts/sv_package_check.py" "$json" "$name" "$work" \
          || fail "sv_package_check.py $json"
        iverilog -g2012 -o "$work/tb.vvp" "$pkg" "$work/regmap_tb.sv" \
          || fail "$pkg: Icarus does not compile it"
        vvp -n "$work/tb.vvp" >"$work/printed.txt" || fail "$pkg: the testbench failed"
        diff "$work/expected.txt" "$work/printed.txt" \
          || fail "$pkg: constants differ from $json (expected < > printed)"
        out=$(verilator --lint-only -Wall "$pkg" "$work/regmap_tb.sv" --top-module regmap_tb 2>&1) \
          || fail "verilator lint of $pkg failed:\n$out"
        [ -z "$out" ] || fail "verilator lint of $pkg printed warnings:\n$out"
        echo "Icarus and Verilator clean, constants as the JSON says: $pkg"
        checked=$((checked + 1))
      done
      ;;
    *)
      fail "unknown part $part (c, rdl or sv)"
      ;;
  esac
done
[ "$checked" -ge 2 ] || fail "only $checked rendering(s) checked in $dir"
echo "$checked $part rendering(s) checked"
