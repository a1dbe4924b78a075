# A generate killed at random moments leaves the folder complete: either the old
# design or the new one, every file matching its manifest; the next run removes what the
# killed ones left beside it.
source "$(dirname "$0")/common.sh"
npugen=$1 configs=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir="$tmp/design"
"$npugen" generate "$configs/array_16x16.yaml" -o "$dir" >/dev/null
killed=0
for i in $(seq 1 40); do
  if (( i % 2 )); then config=array_64x64; else config=array_16x16; fi
  "$npugen" generate "$configs/$config.yaml" -o "$dir" >/dev/null &
  pid=$!
  sleep "0.0$(( RANDOM % 60 ))"
  kill -9 "$pid" 2>/dev/null && killed=$((killed + 1)) || true
  wait "$pid" 2>/dev/null || true
  "$npugen" verify "$dir" >/dev/null || fail "round $i: folder incomplete after kill"
  design=$(manifest_field "$dir" design)
  [[ "$design" == array_16x16 || "$design" == array_64x64 ]] || fail "round $i: design '$design'"
done
# The temporaries the killed runs left beside the folder go with the next run.
"$npugen" generate "$configs/array_16x16.yaml" -o "$dir" >/dev/null
left=$(find "$tmp" -maxdepth 1 -name '.design.npugen-tmp-*' | wc -l)
[ "$left" = 0 ] || fail "$left temporary folder(s) of killed runs left after the next run"
echo "40 rounds, $killed killed mid-run, folder always complete, no temporaries left"
