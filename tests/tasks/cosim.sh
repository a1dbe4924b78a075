# Co-simulation of a design's task unit (--block tasks): RTL against the golden model
# every cycle and the whole schedule against the hazard checker, with two seeds (the
# second reusing the cached build). These designs can show everything the scenarios aim
# at: every kind must have run, every queue must have committed tasks, the task buffer and
# the configuration queue must have filled, and with more than one queue a fetch-queue
# replacement and a lock held against a higher-priority queue must have happened.
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 config=$2 dir=$3
"$npugen" sim "$config" -o "$dir" --block tasks | tee "$dir.tasks1.log"
grep -q '^PASS: .*block tasks.*hazard check passed' "$dir.tasks1.log" || fail "no PASS line"
for kind in priority lock edges fill random chain diamond fanout long_neural; do
  grep -Eq "[1-9][0-9]* $kind[,;]" "$dir.tasks1.log" || fail "no $kind scenario ran"
done
grep -q '^coverage: commits per queue: .* (0 queue(s) unused)' "$dir.tasks1.log" \
  || fail "a queue committed no task"
grep -Eq 'task buffer full in [1-9]' "$dir.tasks1.log" || fail "the task buffer never filled"
grep -Eq 'configuration queue full in [1-9]' "$dir.tasks1.log" \
  || fail "the configuration queue never filled"
grep -Eq '[1-9][0-9]* register reads compared' "$dir.tasks1.log" || fail "no register read"
queues=$(sed -n 's/.*"queues": \([0-9]*\).*/\1/p' "$dir/config.resolved.json" | head -1)
if [ "$queues" -gt 1 ]; then
  grep -Eq '[1-9][0-9]* fetch-queue replacement' "$dir.tasks1.log" || fail "no replacement"
  grep -Eq '[1-9][0-9]* fetch\(es\) from a locked queue' "$dir.tasks1.log" \
    || fail "no lock held against a higher-priority queue"
else
  grep -q '^limit: .*one queue' "$dir.tasks1.log" || fail "the one-queue limit is not reported"
fi
"$npugen" sim "$config" -o "$dir" --block tasks --cycles 40000 --seed 777 | tee "$dir.tasks2.log"
grep -q '^PASS: .*seed 777' "$dir.tasks2.log" || fail "no PASS line for the second seed"
grep -q 'model up to date' "$dir.tasks2.log" || fail "the unchanged design was rebuilt"
