# The clock the suite keeps: configs/npu_tiny.yaml's blocks that meet its 200 MHz at Debian's
# OSU 0.18 um cells (the PE array with its adder tree at 3 stages, the tile's inputs
# registered; the post unit at 8; the task unit, the address generator and the planar
# engine with its output pipeline at 1) still meet it, so a change that lengthens one of
# their paths fails here. The critical path is named in RTL terms: a flip-flop by the
# register bit it holds (`<register>[<bit>]_reg`), a port, or a memory macro's instance.
# The NPU top and the sequencer, which do not meet it yet, are timed by
# npugen regress suites/npugen.yaml --tier timing (docs/timing.md).
#   clock.sh NPUGEN ROOT PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 root=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$npugen" timing "$root/configs/npu_tiny.yaml" --block pe_array --block post --block tasks \
  --block agu --block planar -j 2 -o "$work/t" > "$work/t.log" 2>&1 || fail "npu_tiny: $(cat "$work/t.log")"
"$python" - "$work/t/timing.json" <<'PY' || fail "the report is wrong: $(cat "$work/t.log")"
import json, re, sys
r = json.load(open(sys.argv[1]))
assert r["met"] and r["period_ns"] == 5, r
blocks = {b["block"]: b for b in r["blocks"]}
assert sorted(blocks) == ["agu", "pe_array", "planar", "post", "tasks"], blocks
rtl_name = re.compile(r"^([A-Za-z_][\w.\[\]]*\[\d+\]_reg|[A-Za-z_][\w.\[\]]*_reg|[a-z]\w*_[io](\[\d+\])?|.*u_macro)$")
for name, b in blocks.items():
    assert b["status"] == "met" and b["setup"]["slack_ns"] >= 0, b
    for end in (b["setup"]["startpoint"], b["setup"]["endpoint"]):
        assert rtl_name.match(end), (name, end)
PY
