# npugen's own suite (suites/npugen.yaml) reads: each tier lists its jobs (every configuration,
# network and input it names exists), every configuration kept under configs/random/ (a
# random draw found failing, then fixed) is co-simulated in the nightly tier, or in the large
# tier when it needs the whole machine, and the nightly tier times every block and NPU top of
# the shipped designs (they all meet their clock: a change that breaks it fails there).
#   own_suite.sh NPUGEN SUITE CONFIGS
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 suite=$2 configs=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tier in smoke nightly large; do
  "$npugen" regress "$suite" --tier "$tier" --list > "$work/$tier.txt" 2>&1 ||
    fail "tier $tier does not list: $(cat "$work/$tier.txt")"
  grep -q "^[0-9]* jobs in" "$work/$tier.txt" || fail "tier $tier lists no jobs"
done
for config in "$configs"/random/*.yaml; do
  design=$(sed -n 's/^  name: *//p' "$config" | head -1)
  [ -n "$design" ] || fail "$config names no design"
  grep -Eq "^sim +$design " "$work/nightly.txt" "$work/large.txt" ||
    fail "$config (design $design) is not co-simulated in the nightly or large tier of $suite"
done
for design in default npu_vq npu_zs npu_tiny npu_odd_3x5; do
  for block in pe_array tasks agu post sequencer planar npu; do
    grep -Eq "^timing +$design +$block +timing$" "$work/nightly.txt" ||
      fail "the nightly tier of $suite does not time $design's $block"
  done
done
echo "$(tail -1 "$work/smoke.txt") (smoke); $(tail -1 "$work/nightly.txt") (nightly);" \
  "$(tail -1 "$work/large.txt") (large);" \
  "$(ls "$configs"/random/*.yaml | wc -l) found configurations all in nightly or large"
