# Helpers shared by the test scripts.
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }

# Value of a top-level string field of a design folder's manifest.json.
manifest_field() { sed -n "s/^  \"$2\": \"\(.*\)\",\?$/\1/p" "$1/manifest.json" | head -n 1; }
