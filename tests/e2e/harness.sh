# shellcheck shell=bash
# End-to-end harness: real opensm 3.3.23 + infiniband-diags against an ibsim-simulated fabric,
# following shared/notes/ibsim-e2e.md (§4 commands, §9 pitfalls). Sourced by tests/e2e/test_*.sh:
#
#   source "$(dirname "$0")/harness.sh"
#   e2e_init my_test                       # scratch dir, private simulator, cleanup trap
#   e2e_start_ibsim fabric.net             # waits for "Network simulator ready"
#   e2e_opensm -R minhop                   # one sweep (-o), dumps in $WORK/osm
#   e2e_expect_engine minhop               # the engine really ran (fallback is silent, §9.5)
#   e2e_diag ibnetdiscover > disc.net      # any infiniband-diags tool through the shim
#   e2e_expect_rc 0 "$IBRT" diff a b       # exact exit code, output shown on mismatch
#   e2e_pass
#
# e2e_fail exits the shell it runs in: call the helpers at top level or in functions, not
# inside $(...), and send their output to files.
#
# Why each guard exists:
# - unique IBSIM_SOCKNAME: a second ibsim on the default name cannot bind its socket (§9.1);
# - every client under `timeout`: a client with no simulator retries forever (§9.2);
# - the scratch dir as cwd: umad2sim creates ./sys-<pid>/ there and a crash leaves it (§9.9);
# - LD_PRELOAD set here, not via ibsim-run, which mangles an existing LD_PRELOAD (§9.10);
# - LD_BIND_NOW=1: unresolved symbols fail at start instead of mid-sweep.
# Missing tools fail the test: the install step provides them, so a skip would hide a broken
# set-up.
#
# Variables tests may use: WORK (scratch dir, the cwd), E2E_FIXTURES (tests/e2e/fixtures),
# E2E_UMAD2SIM (the shim), E2E_IBSIM_PID, and E2E_PIDS (append the PID of any background
# process a test starts itself, so the EXIT trap kills it).
# Environment knobs: E2E_KEEP=1 keeps $WORK; E2E_GUID2LID=<file> is copied to the opensm cache
# dir before each e2e_opensm; E2E_IBSIM_TIMEOUT, E2E_OSM_TIMEOUT, E2E_DIAG_TIMEOUT in seconds.

E2E_UMAD2SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
E2E_PIDS=()
E2E_IBSIM_PID=
E2E_NAME=
WORK=

e2e_fail() {
    echo "FAIL [${E2E_NAME:-e2e}]: $*" >&2
    exit 1
}

e2e_pass() {
    echo "PASS [${E2E_NAME}] in ${SECONDS}s"
    exit 0
}

_e2e_cleanup() {
    local rc=$?
    local pid
    for pid in "${E2E_PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    E2E_PIDS=()
    if [[ -n "$WORK" && -d "$WORK" ]]; then
        cd / || true
        if [[ "${E2E_KEEP:-0}" == 1 ]]; then
            echo "e2e: kept $WORK" >&2
        else
            rm -rf -- "$WORK"
        fi
    fi
    exit "$rc"
}

# Drops a PID that has been waited for, so the EXIT trap never signals a recycled PID.
_e2e_forget() {
    local keep=() p
    for p in "${E2E_PIDS[@]}"; do [[ "$p" == "$1" ]] || keep+=("$p"); done
    E2E_PIDS=("${keep[@]}")
}

# Runs a command in the background and waits for it, so that the EXIT trap can kill it by PID
# when the test is interrupted (a foreground child would delay the trap until it ends).
_e2e_run() {
    "$@" &
    local pid=$!
    E2E_PIDS+=("$pid")
    local rc=0
    wait "$pid" || rc=$?
    _e2e_forget "$pid"
    return "$rc"
}

e2e_init() {
    E2E_NAME=${1:?e2e_init NAME}
    set -eEuo pipefail
    local tool
    for tool in ibsim opensm ibnetdiscover dump_fts ibroute timeout; do
        command -v "$tool" >/dev/null 2>&1 ||
            PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null 2>&1 ||
            e2e_fail "required tool '$tool' is not installed (run scripts/install-deps.sh)"
    done
    PATH="$PATH:/usr/sbin:/sbin"
    [[ -r "$E2E_UMAD2SIM" ]] || e2e_fail "$E2E_UMAD2SIM missing (package libumad2sim0)"
    if [[ -z "${IBRT:-}" && -n "${IBRT_BINARY_DIR:-}" ]]; then IBRT="$IBRT_BINARY_DIR/ibrt"; fi
    [[ -n "${IBRT:-}" && -x "$IBRT" ]] || e2e_fail "IBRT does not name the ibrt binary: '${IBRT:-}'"
    # Absolute, since the helpers run in $WORK: IBRT=build/ibrt from the source tree works too.
    IBRT=$(realpath "$IBRT")
    IBRT_SOURCE_DIR=${IBRT_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
    E2E_FIXTURES="$IBRT_SOURCE_DIR/tests/e2e/fixtures" # for the tests
    export E2E_FIXTURES
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibrt-e2e-$E2E_NAME.XXXXXX")
    export IBSIM_SOCKNAME="ibrt_${E2E_NAME}_$$_${RANDOM}"
    export LD_BIND_NOW=1
    trap _e2e_cleanup EXIT
    trap 'exit 130' INT TERM
    cd "$WORK"
}

e2e_start_ibsim() {
    local net=${1:?e2e_start_ibsim NETFILE [ibsim flags]}
    shift
    [[ -r "$net" ]] || e2e_fail "net file '$net' is not readable"
    [[ -z "$E2E_IBSIM_PID" ]] || e2e_fail "ibsim is already running (pid $E2E_IBSIM_PID)"
    : >"$WORK/ibsim.out" # exists before the first poll below
    ibsim -s -n "$@" "$net" >>"$WORK/ibsim.out" 2>&1 </dev/null &
    E2E_IBSIM_PID=$!
    E2E_PIDS+=("$E2E_IBSIM_PID")
    local deadline=$((SECONDS + ${E2E_IBSIM_TIMEOUT:-30}))
    until grep -q "Network simulator ready" "$WORK/ibsim.out"; do
        if ! kill -0 "$E2E_IBSIM_PID" 2>/dev/null; then
            local out
            wait "$E2E_IBSIM_PID" 2>/dev/null || true
            _e2e_forget "$E2E_IBSIM_PID"
            out=$(cat "$WORK/ibsim.out")
            E2E_IBSIM_PID=
            e2e_fail "ibsim died while loading $net:"$'\n'"$out"
        fi
        if ((SECONDS >= deadline)); then
            e2e_fail "ibsim not ready after ${E2E_IBSIM_TIMEOUT:-30}s:"$'\n'"$(cat "$WORK/ibsim.out")"
        fi
        sleep 0.05
    done
}

# e2e_start_ibsim_console NETFILE: ibsim with its console on the FIFO $WORK/ctl, open as fd 3,
# so a test can type Unlink/ReLink into it (ibsim-e2e.md §4, §8): `echo 'Unlink "sw"[2]' >&3`.
e2e_start_ibsim_console() {
    local net=${1:?e2e_start_ibsim_console NETFILE}
    [[ -z "$E2E_IBSIM_PID" ]] || e2e_fail "ibsim is already running (pid $E2E_IBSIM_PID)"
    mkfifo "$WORK/ctl"
    ibsim -s "$net" <"$WORK/ctl" >"$WORK/ibsim.out" 2>&1 &
    E2E_IBSIM_PID=$!
    E2E_PIDS+=("$E2E_IBSIM_PID")
    exec 3>"$WORK/ctl"
    local deadline=$((SECONDS + 30))
    until grep -q "Network simulator ready" "$WORK/ibsim.out"; do
        kill -0 "$E2E_IBSIM_PID" 2>/dev/null || e2e_fail "ibsim died: $(cat "$WORK/ibsim.out")"
        ((SECONDS < deadline)) || e2e_fail "ibsim not ready after 30 s"
        sleep 0.05
    done
}

e2e_stop_ibsim() {
    [[ -n "$E2E_IBSIM_PID" ]] || return 0
    kill "$E2E_IBSIM_PID" 2>/dev/null || true
    wait "$E2E_IBSIM_PID" 2>/dev/null || true
    _e2e_forget "$E2E_IBSIM_PID"
    E2E_IBSIM_PID=
}

# One full sweep (`opensm -o`); the LFTs stay programmed in ibsim. Dumps (opensm-lfts.dump,
# opensm-subnet.lst, ...) and the log land in $WORK/osm; old dumps are removed first so a
# failed write can never be mistaken for this run's output.
e2e_opensm() {
    [[ -n "$E2E_IBSIM_PID" ]] || e2e_fail "e2e_opensm: ibsim is not running"
    local osm="$WORK/osm"
    mkdir -p "$osm" # opensm does not create --dump_files_dir (§9.3)
    rm -f "$osm"/opensm-*.dump "$osm"/opensm.fdbs "$osm"/opensm.mcfdbs "$osm"/opensm-subnet.lst
    if [[ -n "${E2E_GUID2LID:-}" ]]; then
        cp -- "$E2E_GUID2LID" "$osm/guid2lid" || e2e_fail "cannot copy $E2E_GUID2LID"
    fi
    local rc=0
    OSM_TMP_DIR="$osm" OSM_CACHE_DIR="$osm" LD_PRELOAD="$E2E_UMAD2SIM" \
        _e2e_run timeout -k 5 "${E2E_OSM_TIMEOUT:-120}" \
        opensm -o -e -f "$osm/osm.log" --dump_files_dir "$osm" -D 0x43 "$@" \
        >"$osm/opensm.out" 2>&1 || rc=$?
    if ((rc != 0)); then
        e2e_fail "opensm $* exited with $rc$( ((rc == 124)) && echo ' (timeout)'):"$'\n'"$(tail -n 20 "$osm/opensm.out")"$'\n'"--- osm.log:"$'\n'"$(grep -E 'ERR|SUBNET' "$osm/osm.log" 2>/dev/null | tail -n 20)"
    fi
}

# e2e_opensm_up OSM_DIR LOG_REGEX [opensm args]: a running SM (no -o: the SA answers only while
# opensm runs) with its files in OSM_DIR, waited for until its log matches LOG_REGEX (fails
# after E2E_OSM_TIMEOUT s, default 120, or if opensm dies). -d2 flushes the log for the
# polling. Sets E2E_OSM_PID; the cleanup stops it.
e2e_opensm_up() {
    local osm=${1:?e2e_opensm_up OSM_DIR LOG_REGEX [opensm args]} until=${2:?}
    shift 2
    mkdir -p "$osm"
    OSM_TMP_DIR="$osm" OSM_CACHE_DIR="$osm" LD_PRELOAD="$E2E_UMAD2SIM" \
        opensm -e -d2 -s 0 -f "$osm/osm.log" --dump_files_dir "$osm" -D 0x43 "$@" \
        >"$osm/opensm.out" 2>&1 </dev/null &
    E2E_OSM_PID=$!
    E2E_PIDS+=("$E2E_OSM_PID")
    local deadline=$((SECONDS + ${E2E_OSM_TIMEOUT:-120}))
    until grep -qE "$until" "$osm/osm.log" 2>/dev/null; do
        kill -0 "$E2E_OSM_PID" 2>/dev/null || e2e_fail "opensm $* died: $(tail -n 5 "$osm/opensm.out")"
        ((SECONDS < deadline)) || e2e_fail "opensm $*: no '$until' in its log in ${E2E_OSM_TIMEOUT:-120} s"
        sleep 0.1
    done
}

# e2e_stop_sm PID: stops a running SM. opensm leaves on SIGTERM only once its routing engine
# returns (minutes on a large fabric) and may still send MADs on its way out: after 10 s it is
# killed. Call it before ibsim goes (a client whose simulator has gone retries forever, §9.2).
e2e_stop_sm() {
    local pid=${1:?e2e_stop_sm PID} i
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    _e2e_forget "$pid"
}

e2e_expect_engine() {
    local engine=${1:?e2e_expect_engine NAME}
    local log="$WORK/osm/osm.log"
    grep -q "$engine tables configured on all switches" "$log" 2>/dev/null && return 0
    e2e_fail "routing engine '$engine' did not configure the switches (silent fallback?):"$'\n'"$(grep -E 'tables configured|routing engine|[Ff]all|LMC|ERR' "$log" 2>/dev/null | tail -n 20)"
}

# Runs an infiniband-diags tool against the simulator; stdout is the tool's, a non-zero exit
# fails the test with the tool's stderr.
e2e_diag() {
    local cmd=${1:?e2e_diag CMD [args]}
    [[ -n "$E2E_IBSIM_PID" ]] || e2e_fail "e2e_diag $cmd: ibsim is not running"
    local err="$WORK/diag.err" rc=0
    LD_PRELOAD="$E2E_UMAD2SIM" _e2e_run timeout -k 5 "${E2E_DIAG_TIMEOUT:-60}" "$@" 2>"$err" || rc=$?
    if ((rc != 0)); then
        e2e_fail "$* exited with $rc$( ((rc == 124)) && echo ' (timeout)'):"$'\n'"$(tail -n 20 "$err")"
    fi
}

# e2e_expect_rc RC CMD...: runs CMD with output to $WORK/last.out and fails unless it exits RC.
e2e_expect_rc() {
    local want=${1:?e2e_expect_rc RC CMD...}
    shift
    local rc=0
    "$@" >"$WORK/last.out" 2>&1 || rc=$?
    if ((rc != want)); then
        e2e_fail "expected exit $want, got $rc from: $*"$'\n'"$(head -n 40 "$WORK/last.out")"
    fi
}

# ibdmchk_run OUT SUBNET FDBS [ibdmchk args]: runs ibdmchk (Debian ibutils) with an empty
# multicast file, then sets IBDM_PATHS (CA-to-CA paths scanned), IBDM_FAILS (paths without a
# route) and IBDM_LOOP (yes/no/unknown). ibdmchk 1.5.7 segfaults on exit even on opensm's own
# files, so its exit status is not used: its summary lines are.
ibdmchk_run() {
    local out=$1 subnet=$2 fdbs=$3
    [[ -e "$WORK/empty.mcfdbs" ]] || : >"$WORK/empty.mcfdbs"
    shift 3
    # The subshell waits for ibdmchk, so the shell's "Segmentation fault" notice goes to /dev/null.
    (
        timeout 120 ibdmchk -s "$subnet" -f "$fdbs" -m "$WORK/empty.mcfdbs" "$@" >"$out" 2>&1 || true
    ) 2>/dev/null
    IBDM_PATHS=$(sed -n 's/^-I- Scanned:\([0-9]*\) CA to CA paths.*/\1/p' "$out")
    IBDM_FAILS=$(grep -c '^-E- Fail to find a path from:' "$out" || true)
    if grep -q '^Found credit loop on:' "$out"; then
        IBDM_LOOP=yes
    elif grep -q '^-I- no credit loops found' "$out"; then
        IBDM_LOOP=no
    else
        IBDM_LOOP=unknown
    fi
}
