# npugen regress --slurm on a real Slurm: a one-node cluster on this machine (munged,
# slurmctld and slurmd from Debian's slurm-wlm and munge, a slurm.conf for localhost written
# here, its own ports and spool folders, stopped at the end), the smoke tier in 4 shards
# submitted by the written submit.sh with sbatch, and the merge job's report checked: the
# tier's four jobs, each run by one array task, all passed. Also: a folder that exists and is
# not npugen's is refused (exit 2, untouched).
#   slurm.sh NPUGEN SUITE PYTHON
source "$(dirname "$0")/../scripts/common.sh"
npugen=$1 suite=$2 python=$3
for tool in munged slurmctld slurmd sbatch squeue; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
    fail "$tool is missing: scripts/setup.sh installs slurm-wlm and munge"
done
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
work=$(mktemp -d /tmp/npugen-slurm.XXXXXX)
chmod 755 "$work"
stop() {
  for pid in "$work"/slurmctld.pid "$work"/slurmd.pid "$work"/munge/munged.pid; do
    [ -f "$pid" ] && "${as_root[@]}" kill "$(cat "$pid")" 2>/dev/null || true
  done
  sleep 1
  "${as_root[@]}" rm -rf "$work"
}
trap stop EXIT
host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir -p "$work"/{munge,spool,state,log}
"${as_root[@]}" chown munge:munge "$work/munge"
"${as_root[@]}" runuser -u munge -- /usr/sbin/munged --socket="$work/munge/munge.sock" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/seed" || fail "munged did not start"
cat >"$work/slurm.conf" <<CONF
# A one-node Slurm for npugen's test (tests/regress/slurm.sh).
ClusterName=npugen-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
SlurmUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
"${as_root[@]}" env SLURM_CONF="$SLURM_CONF" /usr/sbin/slurmctld -f "$SLURM_CONF" ||
  fail "slurmctld did not start"
"${as_root[@]}" env SLURM_CONF="$SLURM_CONF" /usr/sbin/slurmd -f "$SLURM_CONF" ||
  fail "slurmd did not start"
for _ in $(seq 30); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %t | grep -q idle || fail "the node is not idle: $(sinfo 2>&1; tail "$work"/log/*)"

# A folder that is not ours is refused, and left as it was.
mkdir -p "$work/theirs" && echo keep > "$work/theirs/file"
set +e
"$npugen" regress "$suite" --slurm "$work/theirs" > "$work/theirs.log" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || fail "a foreign Slurm folder: exit $status, not 2"
grep -q "is not an npugen output folder (no .npugen-slurm)" "$work/theirs.log" || fail "$(cat "$work/theirs.log")"
[ "$(ls -A "$work/theirs")" = file ] || fail "the foreign folder was written to"

"$npugen" regress "$suite" --tier smoke --slurm "$work/run" --shards 4 --jobs 1 --timeout 600 ||
  fail "--slurm did not write the scripts"
ids=$(sh "$work/run/submit.sh") || fail "submit.sh failed"
read -r array merge <<<"$ids"
echo "submitted: array job $array (4 shards), merge job $merge"
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || fail "the jobs did not finish in 10 min"
[ -f "$work/run/merged/results.json" ] ||
  fail "no merged report: $(cat "$work"/run/logs/*.out 2>/dev/null | tail -20)"
"$python" - "$work/run" <<'PY' || fail "the merged report is wrong"
import json, os, sys
run = sys.argv[1]
merged = json.load(open(f"{run}/merged/results.json"))
jobs = merged["jobs"]
assert len(jobs) == 4 and all(j["status"] == "pass" for j in jobs), jobs
shards = [json.load(open(f"{run}/shard-{i}/results.json"))["jobs"] for i in range(1, 5)]
assert [len(s) for s in shards] == [1, 1, 1, 1], shards
key = lambda j: (j["design"], j["block"], j["seed"])
assert sorted(map(key, jobs)) == sorted(key(s[0]) for s in shards)
assert os.path.getsize(f"{run}/merged/html/index.html") > 1000
print(f"merged: 4 jobs from 4 array tasks, all passed; longest shard {merged['wall_seconds']:.1f} s")
PY
