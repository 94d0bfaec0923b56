#!/usr/bin/env bash
# `ibrt sweep SPEC --slurm` on a real one-node Slurm cluster (issue 17): the test starts
# munged, slurmctld and slurmd without systemd (state under $WORK, no accounting,
# proctrack/pgid), submits a 16-point sweep as a job array of 4 tasks, cancels one array task
# while it runs, checks the merge job reports the missing points, resubmits (only the
# cancelled shard is scheduled), and checks the merged CSV/JSON/SVG equal a local -j 1 run
# byte for byte. Every daemon it started is stopped by the EXIT trap.
set -euo pipefail
: "${IBRT:?}"
fail() { echo "FAIL [test_sweep_slurm]: $*" >&2; exit 1; }

need=()
for p in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge; do
    command -v "${p%%:*}" >/dev/null || need+=("${p#*:}")
done
if ((${#need[@]})); then
    [[ $(id -u) == 0 ]] || fail "missing ${need[*]} (scripts/install-deps.sh installs them)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" \
        >/dev/null || fail "apt-get install ${need[*]}"
fi
[[ $(id -u) == 0 ]] || fail "the one-node cluster runs its daemons as root"

WORK=$(mktemp -d /tmp/ibrt-e2e-slurm.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
    local rc=$? pid
    [[ -n ${SLURM_CONF:-} ]] && timeout 10 scancel --full --quiet --user=root 2>/dev/null || true
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    if ((rc != 0)); then
        for f in "$WORK"/*.log; do echo "== $f" >&2; tail -20 "$f" >&2 || true; done
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"

# munge: a generated key, a private socket.
mkdir -p munge && chmod 755 munge
dd if=/dev/urandom of=munge/key bs=1024 count=1 status=none
chmod 400 munge/key
munged -f -F --key-file="$WORK/munge/key" --socket="$WORK/munge/sock" \
    --pid-file="$WORK/munge/pid" --seed-file="$WORK/munge/seed" \
    --log-file="$WORK/munged.log" 2>munged.err &
PIDS+=($!)
for _ in $(seq 50); do [[ -S munge/sock ]] && break; sleep 0.1; done
[[ -S munge/sock ]] || fail "munged did not start"

# Slurm: one node with the machine's CPUs and memory, ports from the PID so parallel runs
# on one host do not collide.
node=$(slurmd -C | head -1)
cpus=$(sed -nE 's/.* CPUs=([0-9]+).*/\1/p' <<<"$node")
mem=$(sed -nE 's/.*RealMemory=([0-9]+).*/\1/p' <<<"$node")
port=$((20000 + ($$ % 10000) * 2))
mkdir -p ctld d
cat >slurm.conf <<CONF
ClusterName=ibrt-e2e
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CryptoType=crypto/munge
AuthInfo=socket=$WORK/munge/sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$WORK/ctld
SlurmdSpoolDir=$WORK/d
SlurmctldPidFile=$WORK/ctld/pid
SlurmdPidFile=$WORK/d/pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MaxArraySize=1001
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=e2e Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$WORK/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" 2>slurmctld.err &
PIDS+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" 2>slurmd.err &
PIDS+=($!)
for _ in $(seq 100); do
    sinfo -h -o %T 2>/dev/null | grep -qE '^idle' && break
    sleep 0.2
done
sinfo -h -o %T | grep -qE '^idle' || fail "the node did not come up: $(sinfo 2>&1)"

# 16 points: 2 routings x 2 seeds x 4 loads, each ~0.5 s, so a task (4 points) runs for seconds.
cat >spec.json <<'SPEC'
{
  "title": "e2e",
  "fabrics": [{"gen": "fat-tree -m 8 -n 3"}],
  "routings": ["mlid", "slid"],
  "sim": {"warmup-us": 5, "measure-us": 1500, "drain-us": 20},
  "seeds": [1, 2],
  "loads": [0.1, 0.2, 0.3, 0.4]
}
SPEC
"$IBRT" sweep spec.json --out local -j 1 -q
"$IBRT" sweep merge local 2>/dev/null

wait_jobs() { # job ids...
    local t
    for t in $(seq 600); do
        [[ -z $(squeue -h -j "$(IFS=,; echo "$*")" 2>/dev/null) ]] && return 0
        sleep 0.2
    done
    fail "jobs $* did not finish: $(squeue)"
}

# An array of 4 tasks (4 points each) and a merge job.
"$IBRT" sweep spec.json --out slurm --slurm --points-per-task 4 --dry-run >dry.txt
grep -q -- '--array=0-3 ' dry.txt || fail "dry run: not one array of 4 tasks: $(cat dry.txt)"
mapfile -t ids < <("$IBRT" sweep spec.json --out slurm --slurm --points-per-task 4 \
    --sbatch-opt=--cpus-per-task=1)
((${#ids[@]} == 2)) || fail "expected an array and a merge job, got ${ids[*]}"
array=${ids[0]}
# Cancel task 1 once it runs.
for _ in $(seq 300); do
    st=$(squeue -h -r -j "${array}_1" -o %T 2>/dev/null || true)
    [[ $st == RUNNING ]] && break
    [[ -z $st ]] && fail "task 1 finished before it could be cancelled"
    sleep 0.05
done
scancel "${array}_1"
wait_jobs "${ids[@]}"
[[ -f slurm/sweep.csv ]] || fail "the merge job did not merge"
missing=$(grep -c 'missing' slurm/slurm/merge-"${ids[1]}".out || true)
((missing > 0)) || fail "the cancelled task's points are not reported missing"
n_done=$(ls slurm/points | grep -c '\.json$')
((n_done < 16)) || fail "every point is done although a task was cancelled"

# Resubmit: only shard 1 is scheduled.
"$IBRT" sweep spec.json --out slurm --slurm --points-per-task 4 --dry-run >dry2.txt 2>&1
grep -q -- '--array=1 ' dry2.txt || fail "resubmission schedules more than the cancelled shard: $(cat dry2.txt)"
mapfile -t ids < <("$IBRT" sweep spec.json --out slurm --slurm --points-per-task 4)
wait_jobs "${ids[@]}"
for f in sweep.csv sweep.json sweep.svg; do
    cmp "local/$f" "slurm/$f" || fail "$f differs between Slurm and a local -j 1 run"
done
echo "PASS [test_sweep_slurm] in ${SECONDS}s"
