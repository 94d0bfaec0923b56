#!/usr/bin/env bash
# opensm's own engines next to ibrt's direct-topology engines (issue 13, "Proof on the real
# stack", second bullet). Under ibsim, a running opensm 3.3.23 with QoS on routes each fabric
# with dor, torus-2QoS (tori only, from a generated torus-2QoS.conf), lash, dfsssp, nue and
# updn, and libibrt.so's engine for the family. From the running SM: the LFTs, the SL2VL tables
# and the path SLs the SA hands out (the plugin's `path_sl=` file, held against the SA on a
# sample of pairs with `ibrt sa-path-sls --sample`). `ibrt check` judges reachability and
# credit loops on the VLs the paths really take, and `ibrt sim` finds the saturation throughput
# (the maximum accepted rate) under uniform and bit-complement traffic on those tables.
#
# Usage: scripts/compare-direct-engines.sh [BUILD_DIR] [OUTPUT_MD]
#   BUILD_DIR  default build; needs BUILD_DIR/ibrt and BUILD_DIR/engines/opensm/libibrt.so
#   OUTPUT_MD  default docs/results/direct-engines.md ('-' = stdout)
#   ONLY="TAG ..." only these fabrics; ENGINES="dor updn" only these engines ("ibrt": ibrt's
#     engine for the family; "torus-2QoS": on the 2D and 3D tori; "nue-8vls": nue with
#     nue_max_num_vls 8; default: all of them)
#   PATTERNS="uniform complement ..." the traffic patterns, a saturation column each (default
#     uniform and complement; "none": no simulation)
#   TABLES=DIR    also keep what each run read back, for other simulations: DIR/TAG/fabric.net
#     (the generated fabric) and DIR/TAG/ENGINE/ (opensm-lfts.dump, guid2lid, opensm-sl2vl.dump,
#     path.sl, check.json, and row.tsv: its row), ENGINE as in the rows ("ibrt flatfly" as
#     ibrt-flatfly)
#   IBSIM_FLAGS, OSM_TIMEOUT (seconds to SUBNET UP, default 120): for large fabrics
#   FABRICS=FILE  the fabrics instead of the built-in list: one per line, "TAG ENGINE GEN_ARGS..."
#     (ENGINE: ibrt's engine for it; GEN_ARGS: `ibrt gen`'s arguments; # starts a comment)
#   ROWS=FILE     also keep the rows as TSV (tag, routing, routes, reachable, SLs, VLs, credit
#     loops, then one saturation figure per pattern), for the paper-003 study's table
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT_MD=${2:-$ROOT/docs/results/direct-engines.md}
[[ "$OUT_MD" == - || "$OUT_MD" == /* ]] || OUT_MD="$PWD/$OUT_MD"
export IBRT="$BUILD/ibrt" IBRT_BINARY_DIR="$BUILD" IBRT_SOURCE_DIR="$ROOT"
command -v python3 >/dev/null || { echo "python3 is needed to read the JSON reports" >&2; exit 2; }
CMDLINE="scripts/compare-direct-engines.sh $*"
START=$SECONDS

# Relative paths are the caller's: e2e_init moves to a work directory.
KEEP_ROWS=${ROWS:-} TABLES=${TABLES:-}
[[ -z "$KEEP_ROWS" || "$KEEP_ROWS" == /* ]] || KEEP_ROWS="$PWD/$KEEP_ROWS"
[[ -z "$TABLES" || "$TABLES" == /* ]] || TABLES="$PWD/$TABLES"
[[ -z "${FABRICS:-}" || "$FABRICS" == /* ]] || FABRICS="$PWD/$FABRICS"
[[ -z "${FABRICS:-}" || -r "$FABRICS" ]] || { echo "FABRICS: cannot read $FABRICS" >&2; exit 2; }

# shellcheck source=tests/e2e/harness.sh
source "$ROOT/tests/e2e/harness.sh"
e2e_init compare_direct
# shellcheck source=tests/e2e/plugin_lib.sh
source "$ROOT/tests/e2e/plugin_lib.sh"
# Every run loads the plugin (opensm's engines too) for its path_sl= file.
printf 'event_plugin_name ibrt\nevent_plugin_options path_sl=%s\nqos TRUE\n' "$WORK/osm/path.sl" \
    >"$WORK/ibrt.conf"
read -r -a PATTERN_LIST <<<"${PATTERNS:-uniform complement}"
[[ ${PATTERN_LIST[*]} != none ]] || PATTERN_LIST=()
ENGINE_LIST=${ENGINES:-ibrt torus-2QoS dor lash dfsssp nue nue-8vls updn}
ROWS="$WORK/rows.tsv"
: >"$ROWS"

# The simulator's model: 8 data VLs on every port (what ibsim's ports offer), 1 KB of input
# buffer per VL, 256-byte packets; a routing that takes fewer VLs leaves buffers unused.
SIM=(--vls 8 --sl path --packet-bytes 256 --buffer-bytes 1024 --source-queue 0 --warmup-us 10
    --measure-us 40 --drain-us 40 --saturation --saturation-steps 6 --json -q)

# run_sm TAG ENGINE LABEL [opensm args]: a running SM routes with ENGINE (when it fails, opensm
# falls back to minhop and the row says so), and every measurement is taken from it; one row
# into $ROWS, named LABEL. $CONF_LINES: more opensm.conf lines for this run.
run_sm() {
    local tag=$1 engine=$2 label=$3
    shift 3
    local osm="$WORK/osm"
    rm -rf "$osm"
    mkdir -p "$osm"
    { cat "$WORK/ibrt.conf" && printf '%s\n' "${CONF_LINES:-}"; } >"$WORK/run.conf"
    OSM_TMP_DIR="$osm" OSM_CACHE_DIR="$osm" LD_PRELOAD="$E2E_UMAD2SIM" \
        opensm -e -d2 -s 0 -Q -R "$engine" -F "$WORK/run.conf" -f "$osm/osm.log" \
        --dump_files_dir "$osm" -D 0x43 "$@" >"$osm/opensm.out" 2>&1 </dev/null &
    local pid=$! deadline=$((SECONDS + ${OSM_TIMEOUT:-120}))
    E2E_PIDS+=("$pid")
    until [[ -e "$osm/path.sl" ]] && grep -q "SUBNET UP" "$osm/osm.log" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || e2e_fail "$tag/$engine: opensm died: $(tail -n 5 "$osm/opensm.out")"
        # Too slow: a row says so, below, and the other engines still run.
        ((SECONDS < deadline)) || break
        sleep 0.2
    done
    if ((SECONDS >= deadline)) || ! grep -q "$engine tables configured on all switches" "$osm/osm.log"; then
        local why
        why=$({ grep -iE "ERR|cannot|disabling|fail" "$osm/osm.log" || true; } | head -n 1 |
            sed -E "s/^.* -> //" | cut -c1-300)
        ((SECONDS < deadline)) || why="no SUBNET UP in ${OSM_TIMEOUT:-120} s (last: $(tail -n 1 \
            "$osm/osm.log" | sed -E "s/^.* -> //" | cut -c1-200))"
        printf '%s\t%s\tno\t%s\n' "$tag" "$label" "${why:-no tables configured}" >>"$ROWS"
        e2e_stop_sm "$pid"
        echo "  $label: did not route" >&2
        return
    fi
    e2e_diag ibnetdiscover >"$tag.net"
    # check and sim read the generated fabric (the same GUIDs as the live one): its host order
    # is the generator's, on which the bit-permutation patterns are defined; ibnetdiscover's
    # discovery order would make them other permutations.
    local files=(--fabric "$tag.gen.net" --lfts "$osm/opensm-lfts.dump" --guid2lid "$osm/guid2lid"
        --sl2vl "$osm/opensm-sl2vl.dump") sls=(--path-sl "$tag.psl") t0=$SECONDS
    # The path SLs: the plugin's file, every pair. Held against the SA's own answers on a seeded
    # sample of pairs (a saquery per pair: all of them take hours past 256 hosts); dfsssp draws
    # among a layer's copies at each query, so its sample is judged by `ibrt check` alone.
    mv "$osm/path.sl" "$tag.psl"
    "$IBRT" sa-path-sls -q -j 4 --to-end-ports --sample "${SA_SAMPLE:-48}" --fabric "$tag.net" \
        --guid2lid "$osm/guid2lid" --out "$tag.sa-sample.psl" \
        --saquery "env LD_PRELOAD=$E2E_UMAD2SIM timeout 20 saquery" >/dev/null ||
        e2e_fail "$tag/$engine: sa-path-sls failed"
    e2e_stop_sm "$pid"
    grep -q '^0x' "$tag.sa-sample.psl" || e2e_fail "$tag/$engine: the SA answered none of the sampled pairs"
    if [[ $engine != dfsssp ]]; then
        local bad
        # The sample is held in memory and the file streamed past it (it has 3e8 lines at 16,384
        # hosts); a pair the file leaves out has SL 0.
        bad=$(awk 'NR == FNR { if (/^0x/) want[$1 " " $2] = $3; next }
            /^0x/ && ($1 " " $2) in want { got[$1 " " $2] = $3 }
            END { for (k in want) if (got[k] + 0 != want[k]) { print k, want[k]; exit } }' \
            "$tag.sa-sample.psl" "$tag.psl")
        [[ -z "$bad" ]] || e2e_fail "$tag/$engine: the SA answers '$bad', the path_sl= file differs"
    fi
    echo "  $label: path SLs in $((SECONDS - t0)) s" >&2
    local rc=0
    "$IBRT" check --json --no-balance --end-ports-only "${files[@]}" "${sls[@]}" >"$tag.check.json" || rc=$?
    ((rc <= 1)) || e2e_fail "$tag/$engine: ibrt check exited $rc"
    local sat_files=()
    for pattern in "${PATTERN_LIST[@]}"; do
        rc=0
        "$IBRT" sim "${files[@]}" "${sls[@]}" --pattern $pattern "${SIM[@]}" \
            >"$tag.$pattern.json" 2>"$tag.$pattern.err" || rc=$?
        ((rc <= 1)) || e2e_fail "$tag/$engine: ibrt sim $pattern exited $rc: $(cat "$tag.$pattern.err")"
        sat_files+=("$tag.$pattern.json")
    done
    python3 - "$tag" "$label" "$tag.psl" "$tag.check.json" "${sat_files[@]}" >>"$ROWS" <<'PY'
import json, sys
tag, label, psl, check, *sims = sys.argv[1:]
sls = {line.split()[2] for line in open(psl) if line.startswith("0x")}
c = json.load(open(check))["checks"]
reach = "all" if c["reachability"]["passed"] else f'{c["reachability"]["failures"]} unreachable'
d = c["deadlock"]
def sat(path):
    r = json.load(open(path))
    dead = [x["load"] for x in r["runs"] if x["verdict"] == "deadlock"]
    if dead:  # what it accepted before locking up is no throughput
        return f"deadlock (from load {min(dead):.3g})"
    return f'{r["saturation"]["max_accepted_fraction"]:.3f}' if "saturation" in r else "?"
print("\t".join([tag, label, "yes", reach, str(len(sls) or 1), str(d["vls_used"]),
                 str(d["credit_loops"])] + [sat(x) for x in sims]))
PY
    if [[ -n $TABLES ]]; then
        # Complete or absent (made aside, then renamed): a reader may be listing TABLES.
        local keep="$TABLES/$tag/${label// /-}" f
        rm -rf "$keep" "$keep.tmp"
        mkdir -p "$keep.tmp"
        # Hard links where they can be: at 16,384 hosts the LFTs and path SLs are ~10 GB a run.
        # (Only of files the next run replaces, never rewrites: $tag.check.json is rewritten.)
        for f in "$osm/opensm-lfts.dump" "$osm/guid2lid" "$osm/opensm-sl2vl.dump" "$tag.psl:path.sl"; do
            ln -f "${f%%:*}" "$keep.tmp/${f##*[/:]}" 2>/dev/null || cp "${f%%:*}" "$keep.tmp/${f##*[/:]}"
        done
        cp "$tag.check.json" "$keep.tmp/check.json"
        tail -n 1 "$ROWS" >"$keep.tmp/row.tsv" # this run's row: SLs, VLs, credit loops, ...
        mv "$keep.tmp" "$keep"
    fi
    echo "  $label: done" >&2
}

# fabric TAG OURS GEN_ARGS...: one fabric under ibsim, every engine on it.
fabric() {
    local tag=$1 ours=$2
    shift 2
    [[ -z "${ONLY:-}" || " $ONLY " == *" $tag "* ]] || return 0
    echo "$tag" >&2
    "$IBRT" gen -q -o "$tag.gen.net" "$@"
    # shellcheck disable=SC2086 # IBSIM_FLAGS: e.g. "-N 20000 -S 2100 -P 131072" for 16,384 hosts
    e2e_start_ibsim "$tag.gen.net" ${IBSIM_FLAGS:-}
    if [[ -n $TABLES ]]; then mkdir -p "$TABLES/$tag" && cp "$tag.gen.net" "$TABLES/$tag/fabric.net"; fi
    [[ " $ENGINE_LIST " != *" ibrt "* ]] || run_sm "$tag" "$ours" "ibrt $ours"
    # torus-2QoS routes 2D and 3D tori only.
    local dims
    dims=$(printf '%s\n' "$@" | awk 'prev == "--k" {print split($0, k, ",")} {prev = $0}')
    if [[ $tag == torus* && " $ENGINE_LIST " == *" torus-2QoS "* && ${dims:-0} -le 3 ]]; then
        # torus-2QoS needs the radices and one seed link per dimension from the generator's
        # names (sw-x.y.z), by the GUIDs ibsim gave the switches.
        e2e_diag ibnetdiscover >"$tag.seed.net"
        python3 - "$tag.seed.net" "$@" >"$WORK/torus-2QoS.conf" <<'PY'
import re, sys
guid = {}
for line in open(sys.argv[1]):
    m = re.match(r'^Switch\s+\d+\s+"S-([0-9a-f]+)"\s+# "([^"]+)"', line)
    if m: guid[m.group(2)] = "0x" + m.group(1)
k = [int(x) for x in sys.argv[sys.argv.index("--k") + 1].split(",")]
print("torus " + " ".join(map(str, k)))
name = lambda c: guid["sw-" + ".".join(map(str, c))]
for d, axis in enumerate("xyz"[:len(k)]):
    a = [0] * len(k); plus = list(a); minus = list(a)
    plus[d], minus[d] = 1, k[d] - 1
    print(f"{axis}p_link {name(a)} {name(plus)}")
    print(f"{axis}m_link {name(a)} {name(minus)}")
PY
        run_sm "$tag" torus-2QoS torus-2QoS --torus_config "$WORK/torus-2QoS.conf"
    fi
    for engine in $ENGINE_LIST; do
        case $engine in
        ibrt | torus-2QoS) ;;
        # nue on all 8 VLs (opensm's default, nue_max_num_vls 1, makes it deadlock-free on one)
        nue-8vls) CONF_LINES="nue_max_num_vls 8" run_sm "$tag" nue nue-8vls ;;
        *) run_sm "$tag" "$engine" "$engine" ;;
        esac
    done
    e2e_stop_ibsim
}

# The built-in fabrics, in the FABRICS file format.
# A 4-ary torus is a 6D hypercube (C4 = K2 x K2) and maps as one: degraded, it is flatfly's.
BUILTIN_FABRICS="torus-4x4x4 torus torus --k 4,4,4
torus-4x4x4-failed flatfly --fail-switch sw-2.2.2 --fail-link sw-0.0.0[2] --fail-link sw-1.3.0[4] torus --k 4,4,4
torus-5x5x3-failed torus --fail-switch sw-2.2.1 --fail-link sw-0.0.0[2] --fail-link sw-1.3.0[4] torus --k 5,5,3
hyperx-4x4x4-L2 flatfly hyperx --k 4,4,4 --width 2,1,1
hypercube-6d flatfly hypercube --dims 6
dragonfly-a4-h2 dragonfly dragonfly --a 4 --h 2 --p 1
dragonfly-a4-h2-failed dragonfly --fail-switch sw-g3-1 dragonfly --a 4 --h 2 --p 1
slimfly-q5 slimfly slimfly --q 5 --cas 1"
while read -r -a line; do
    [[ ${#line[@]} -eq 0 || ${line[0]} == \#* ]] || fabric "${line[@]}"
done < <(if [[ -n "${FABRICS:-}" ]]; then cat "$FABRICS"; else echo "$BUILTIN_FABRICS"; fi)

names=("${PATTERN_LIST[@]/#complement/bit-complement}")
{
    echo "Generated by \`$CMDLINE\` on $(date -u +%Y-%m-%d) in $((SECONDS - START)) s ($(nproc) cores)."
    echo "Each fabric runs under ibsim (the built-in ones with 1 CA per switch); a running opensm 3.3.23 with QoS on"
    echo "routes it with one engine (\`-Q -R ENGINE\`; ibrt's through libibrt.so). \"routes: no\""
    echo "means the engine failed and opensm fell back to minhop; the reason is opensm's log line."
    echo "LFTs and SL2VL tables are the SM's dumps. Path SLs: the plugin's \`path_sl=\` file, which asks"
    echo "the engine in use for every pair at SUBNET UP through the path_sl callback the SA calls"
    echo "(dor and updn have none: SL 0 everywhere), held against the SA's own answers on a sample of"
    echo "host pairs (\`ibrt sa-path-sls --sample\`). dfsssp draws one of its layer's VL copies at"
    echo "random for each query (opensm's get_dfsssp_sl), so its SLs are one draw and its sample is"
    echo "not compared; every draw is deadlock-free."
    echo
    echo "- **SLs**: distinct path SLs the SA hands out. **VLs**: VLs the paths take between"
    echo "  switches (\`ibrt check\` JSON \`vls_used\`), not the VLs the tables merely name."
    echo "- **credit loops**: cyclic components of the channel dependency graph on those VLs."
    echo "- **${names[*]// / \/ }**: saturation throughput, the maximum accepted rate as a"
    echo "  fraction of link bandwidth (\`ibrt sim --saturation\`, 6 bisection steps; 8 data VLs"
    echo "  of 1 KB input buffer per port, 256-byte packets). A routing with credit loops can"
    echo "  deadlock in the simulator; that is marked."
    echo
    blank=$(printf ' |%.0s' "${PATTERN_LIST[@]}")
    echo "| fabric | routing | routes | reachable pairs | SLs | VLs | credit loops |$(printf ' %s |' "${names[@]}")"
    echo "|---|---|---|---|---|---|---|$(printf -- '---|%.0s' "${PATTERN_LIST[@]}")"
    while IFS=$'\t' read -r tag label ok rest; do
        if [[ $ok == no ]]; then
            echo "| $tag | $label | no: ${rest//|/\\|} | | | | |$blank"
        else
            echo "| $tag | $label | yes | ${rest//$'\t'/ | } |"
        fi
    done <"$ROWS"
} >"$WORK/out.md"
[[ -z "$KEEP_ROWS" ]] || cp "$ROWS" "$KEEP_ROWS"
# An existing document keeps everything outside its <!-- table --> ... <!-- /table --> markers
# (the discussion of the figures); otherwise the generated part is the whole document.
if [[ "$OUT_MD" == - ]]; then
    cat "$WORK/out.md"
elif [[ -f "$OUT_MD" ]] && grep -q '^<!-- table -->$' "$OUT_MD"; then
    python3 - "$OUT_MD" "$WORK/out.md" <<'PY'
import sys
doc, new = open(sys.argv[1]).read(), open(sys.argv[2]).read()
head, rest = doc.split("<!-- table -->\n", 1)
_, tail = rest.split("<!-- /table -->\n", 1)
open(sys.argv[1], "w").write(head + "<!-- table -->\n" + new + "<!-- /table -->\n" + tail)
PY
else
    { echo "<!-- table -->"; cat "$WORK/out.md"; echo "<!-- /table -->"; } >"$OUT_MD"
fi
e2e_pass
