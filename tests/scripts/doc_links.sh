#!/usr/bin/env bash
# The repository's Markdown (README.md, DEVELOPERS.md, docs/*.md) links only to files that
# exist inside the repository, and every SVG in docs/ is well-formed XML (a browser shows
# nothing of a broken one).
# usage: doc_links.sh REPO_ROOT
set -euo pipefail
root=$(cd "$1" && pwd)
python3 - "$root" <<'PY'
import pathlib, re, sys, xml.etree.ElementTree as ET
root = pathlib.Path(sys.argv[1]).resolve()
files = [root / "README.md", root / "DEVELOPERS.md", *sorted((root / "docs").glob("*.md"))]
bad = []
link = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
for md in files:
    in_code = False
    for n, line in enumerate(md.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in link.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path = (md.parent / target.split("#")[0]).resolve()
            where = f"{md.relative_to(root)}:{n}"
            if root not in path.parents and path != root:
                bad.append(f"{where}: link outside the repository: {target}")
            elif not path.exists():
                bad.append(f"{where}: link to a missing file: {target}")
for svg in sorted((root / "docs").glob("*.svg")):
    try:
        ET.parse(svg)
    except ET.ParseError as e:
        bad.append(f"{svg.relative_to(root)}: not well-formed XML: {e}")
for b in bad:
    print(b)
checked = len(files)
print(f"doc_links: {checked} Markdown files, {len(bad)} problem(s)")
sys.exit(1 if bad else 0)
PY
