# The README's configuration table is exactly what `npugen schema` prints.
source "$(dirname "$0")/common.sh"
npugen=$1 readme=$2
diff <("$npugen" schema) <(sed -n '/<!-- schema:begin -->/,/<!-- schema:end -->/p' "$readme" \
  | sed '1d;$d') || fail "README's schema table is stale: paste the output of 'npugen schema'"
echo "README schema table is current"
