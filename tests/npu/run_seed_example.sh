# Seed 001's example network through the NPU top (networks/seed_example_int8, made by
# scripts/make_seed_example.py): every layer bit-exact on the verilated top; the makespan
# equals the golden model's (npugen compile's expected cycles); with the task unit the
# planar P2, P3 and P4 finish while the long C3 still runs; with the input and output moved
# as the host moves them (--host-io: host-port writes, the output left in its buffer) the
# network takes fewer cycles than sequenced by the host, with the same output.
#   run_seed_example.sh NPUGEN CONFIG DESIGN_DIR SOURCE_DIR PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 design=$3 src=$4 python=$5
net=$src/networks/seed_example_int8
out=$design.seed
rm -rf "$out" "$out.host" "$out.io" "$out.compiled"
"$npugen" compile "$config" --network "$net/seed_example.yaml" --batch 2 --out "$out.compiled" \
  > /dev/null || fail "npugen compile failed"
[ -s "$out.compiled/memory.bin" ] || fail "no system-memory image"
"$npugen" run "$config" --network "$net/seed_example.yaml" --input "$net/input.npy" \
  --design "$design" --out "$out" > "$out.log" || fail "the run failed: $(tail -5 "$out.log")"
"$npugen" run "$config" --network "$net/seed_example.yaml" --input "$net/input.npy" \
  --design "$design" --out "$out.host" --sequencing host > "$out.host.log" ||
  fail "the host-sequenced run failed: $(tail -5 "$out.host.log")"
"$npugen" run "$config" --network "$net/seed_example.yaml" --input "$net/input.npy" \
  --design "$design" --out "$out.io" --host-io > "$out.io.log" ||
  fail "the --host-io run failed: $(tail -5 "$out.io.log")"
"$python" - "$out" "$out.host" "$out.compiled" "$out.io" <<'PY' || fail "the seed example's figures differ"
import json, sys
import numpy as np
tasks, host, compiled, io = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
t = json.load(open(f"{tasks}/stats.json"))
h = json.load(open(f"{host}/stats.json"))
i = json.load(open(f"{io}/stats.json"))
r = json.load(open(f"{compiled}/report.json"))
assert r["sequencing"] == "tasks" and len(r["descriptors"]) == 11, r["descriptors"]
mk = t["total"]["cycles"]
assert mk == r["expected_cycles"], (mk, r["expected_cycles"])
done = {l["name"]: l["first_batch_finished_at"] for l in t["layers"]}
assert all(done[p] < done["C3_2"] for p in ("P2", "P3", "P4")), done
assert done["P5"] > done["C3_2"] and done["C4"] > done["P5"], done
assert (np.load(f"{tasks}/output.npy") == np.load(f"{host}/output.npy")).all()
assert (np.load(f"{io}/output.npy") == np.load(f"{host}/output.npy")).all()
hk, ik = h["total"]["cycles"], i["total"]["cycles"]
assert ik < hk, (ik, hk)
print(f"seed example (2 images): {mk} cycles with the task unit and the DMA, as the golden "
      f"model predicts; with the host's I/O {ik}, sequenced by the host {hk} ({ik / hk:.3f}); "
      f"P2, P3, P4 done at {done['P2']}, {done['P3']}, {done['P4']}, C3 at {done['C3_2']}")
PY
