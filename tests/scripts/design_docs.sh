# What a generated design folder hands over beside its RTL, checked against its manifest
# and by the real tools:
#
#   design_docs.sh DIR
#
# - README.md: present, and names every block with its top, filelist, constraints,
#   synthesis script and register-map files;
# - every block's register map (manifest blocks[].register_map): its SystemRDL elaborated
#   by systemrdl-compiler and compared with its JSON (systemrdl_check.py), its C header
#   compiled by gcc -std=c89 -pedantic -Wall -Wextra -Werror in a unit checking each macro
#   against the JSON (c_header_check.py), clean of trailing white space.
# Python is $NPUGEN_PYTHON (default: the checks' environment, $NPUGEN_VENV or
# /opt/npugen/venv, which scripts/setup.sh makes): it must import systemrdl. Work files go
# to DIR.docs, so that the folder stays as generated.
source "$(dirname "$0")/common.sh"
dir=$(cd "$1" && pwd)
scripts=$(cd "$(dirname "$0")" && pwd)
python=${NPUGEN_PYTHON:-${NPUGEN_VENV:-/opt/npugen/venv}/bin/python}
work="$dir.docs"
rm -rf "$work"
mkdir -p "$work"

# The folder speaks of the product: none of the files the manifest lists (RTL comments, docs,
# the co-simulation's sources) cites a tracker's issue or a specification's item number.
refs=$(python3 - "$dir" <<'PY'
import json, os, re, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
for f in m["files"]:
    path = os.path.join(d, f["path"])
    try:
        text = open(path, encoding="utf-8").read()
    except (UnicodeDecodeError, FileNotFoundError):
        continue
    for n, line in enumerate(text.splitlines(), 1):
        if re.search(r"\b(issue [0-9]+|SPEC M[0-9])", line):
            print(f"{f['path']}:{n}: {line.strip()[:100]}")
PY
)
[ -z "$refs" ] || fail "the design folder cites issue or specification numbers:"$'\n'"$refs"

python3 - "$dir" <<'PY' || fail "$dir/README.md does not describe the folder"
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
readme = os.path.join(d, m["readme"])
if not os.path.isfile(readme):
    sys.exit(f"no {readme}")
text = open(readme, encoding="utf-8").read()
missing = []
for b in m["blocks"]:
    names = [f"(`{b['block']}`)", f"`{b['top']}`", b["filelist"], b["constraints"],
             b["synthesis_script"]] + b.get("register_map", [])
    missing += [f"{b['block']}: {n}" for n in names if n not in text]
missing += [n for n in (m["filelist"], m["fusesoc_core"]) if n not in text]
if missing:
    sys.exit("README.md does not name: " + ", ".join(missing))
print(f"README.md names every block's top, files and register maps ({len(m['blocks'])} block(s))")
PY

maps=0
while IFS=$'\t' read -r block rdl json header; do
  [ -n "$block" ] || continue
  "$python" -c 'import systemrdl' 2>/dev/null \
    || fail "$python cannot import systemrdl: scripts/setup.sh installs systemrdl-compiler"
  "$python" "$scripts/systemrdl_check.py" "$dir/$rdl" "$dir/$json" || fail "$rdl"
  "$python" "$scripts/c_header_check.py" "$dir/$json" "$dir/$header" >"$work/$block.c" \
    || fail "c_header_check.py $json"
  gcc -std=c89 -pedantic -Wall -Wextra -Werror -c "$work/$block.c" -o "$work/$block.o" \
    || fail "$header: not clean C89, or its macros disagree with $json"
  if grep -n '[[:space:]]$' "$dir/$header"; then fail "$header: trailing white space"; fi
  echo "register map of $block: $rdl compiles in systemrdl-compiler, $header is C89 clean"
  maps=$((maps + 1))
done < <(python3 - "$dir/manifest.json" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    files = b.get("register_map", [])
    if not files:
        continue
    pick = lambda ext: next(f for f in files if f.endswith(ext))
    print("\t".join([b["block"], pick(".rdl"), pick(".json"), pick(".h")]))
PY
)
echo "$maps register map(s) checked"
