# npugen regress --html, opened in headless Chromium (Debian's chromium) as a person would:
# the page renders (a screenshot is taken), logs nothing to the console, loads nothing from
# the network, and its DOM holds the pass/fail matrix with links to logs, the failure with its
# reproduce line, the speed chart, and for the network run its MAC utilisation, Gantt chart,
# zero-skipping speed-ups and sparsity maps as inline SVG. The console check is first shown to
# catch a page that does log an error.
#   report.sh NPUGEN SUITE PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 suite=$2 python=$3
command -v chromium >/dev/null || fail "chromium is missing: scripts/setup.sh installs it"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Headless Chromium: a screenshot, the DOM after rendering, the console on stderr.
browse() {  # browse PAGE NAME
  chromium --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
    --user-data-dir="$work/profile" --window-size=1280,4000 --screenshot="$work/$2.png" \
    "file://$1" >"$work/$2.shot.log" 2>&1 || fail "chromium failed on $1"
  chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
    --dump-dom "file://$1" >"$work/$2.dom.html" 2>/dev/null || fail "chromium --dump-dom failed"
}
printf '<html><body><p>x</p><script>console.error("on purpose")</script></body></html>' \
  >"$work/bad.html"
browse "$work/bad.html" bad
grep -q "CONSOLE.*on purpose" "$work/bad.shot.log" || fail "the console check sees nothing"

set +e
"$npugen" regress "$suite" --tier report --jobs 2 -o "$work/out" --html "$work/html" \
  >"$work/run.log" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "the report tier exited $status, not 1: $(tail "$work/run.log")"
page=$work/html/index.html
[ -f "$page" ] || fail "no HTML report"
browse "$page" report
if grep "CONSOLE" "$work/report.shot.log"; then fail "the report logs to the console"; fi
"$python" - "$work" <<'PY' || fail "the rendered report is wrong"
import json, re, struct, sys
work = sys.argv[1]
page = open(f"{work}/html/index.html").read()
dom = open(f"{work}/report.dom.html").read()
# Self-contained: nothing fetched (the SVG namespace is a name, not a fetch).
assert not re.search(r'(src|href)="(https?:)?//', page), "the page loads from the network"
assert "<script" not in page and "<link" not in page
# The screenshot: a PNG of the window's size.
png = open(f"{work}/report.png", "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert (w, h) == (1280, 4000) and len(png) > 20000, (w, h, len(png))
results = json.load(open(f"{work}/out/results.json"))["jobs"]
assert [j["status"] for j in results].count("pass") == 3, results
net = [j for j in results if j["kind"] == "network"][0]
stats = json.load(open(net["details"]))
# The DOM as Chromium built it.
svgs = dom.count("<svg")
assert svgs >= 6, svgs  # speed, utilisation, Gantt, speed-up, 3 sparsity maps
for text in ["Pass/fail", "expected int8 [N][8][8][1]", "reproduce: npugen sim", "Network runs",
             "Zero skipping: speed-up", "Layers on the engines", "zero weights",
             "Co-simulated cycles per second"]:
    assert text in dom, text
# Every job's cell links to its log, and the links resolve from the page.
import os
links = re.findall(r'<a class="job (\w+)" href="([^"]+)"', dom)
assert len(links) == len(results), links
for status, href in links:
    assert os.path.exists(os.path.join(f"{work}/html", href)), href
# The utilisation bars say what stats.json says.
for layer in stats["layers"]:
    if layer["engine"] == "neural":
        assert f'{layer["name"]} ({layer["op"]}, neural): MAC utilisation {layer["mac_utilisation"]:.3f}' in dom
zs = [l for l in stats["layers"] if l["array"] == "zero_skip"]
assert zs and all(l["zs_steps_per_pixel"] < l["dense_steps_per_pixel"] for l in zs), zs
for l in zs:
    assert f'{l["dense_steps_per_pixel"] / l["zs_steps_per_pixel"]:.2f}x' in dom, l
print(f"report: {svgs} inline SVG plots, {len(links)} job links resolve, screenshot {w}x{h}, "
      f"no console output; zero-skipped layers {[l['name'] for l in zs]}")
PY
