#!/usr/bin/env bash
# Paper 003's adaptive routings on damaged fabrics (issue 15, past the paper): one small fabric
# per topology family with 10 % of its switch-to-switch cables failed (`ibrt gen --fail-links
# 0.1 --keep-connected`). Distance Based +1 and Deflection +2 (§3.7; the adaptive routings
# that take a damaged fabric) and each family's static engine must route it; `ibrt check
# --tables` must find every choice delivering (0 stuck, 0 misrouted, no livelock), the
# longest path within the damaged diameter + E, and no credit loop in the extended channel
# dependency graph; an overloaded `ibrt sim` (uniform, complement) must end `ok` with no
# deadlock. The families' own adaptive routings (§3.3-§3.5) are defined on complete fabrics;
# those with a rule for missing cables (docs/engines/direct.md, "Damaged fabrics": FlatFly
# Mixed ADOR, hypercube ABO Negative First, Dragonfly GSID) must pass the same checks within
# their hop budgets, and those without (Twisted Mixed ADOR) or whose letters cannot get round a lost
# global cable (Dragonfly Static) must decline with exit 2 naming distance_based.
# docs/results/direct-topologies.md ("Degraded fabrics") has the saturation figures.
set -euo pipefail
: "${IBRT:?}" "${IBRT_SOURCE_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL [test_degraded_study]: $*" >&2; exit 1; }

# name: engine, ibrt gen arguments (reduced or smaller, so the whole test stays under a minute)
declare -A ENGINE=([flatfly]=flatfly [hypercube]=flatfly [dragonfly]=dragonfly [sfxff]=slimfly
                   [torus]=torus)
declare -A GEN=([flatfly]="hyperx --k 4,4,4 --cas 1" [hypercube]="hypercube --dims 6 --cas 1"
                [dragonfly]="dragonfly --a 4 --h 2 --p 2 --omit-one-global"
                [sfxff]="slimfly --q 3 --ff 3 --cas 1" [torus]="torus --k 4,4,6 --cas 1")
# Failures: 10 % of the cables, except on the torus, whose DOR engine declines a ring cut in two
# with no later dimension left (4 cables of 192 here, a seed it routes).
declare -A FAIL=([flatfly]=0.1 [hypercube]=0.1 [dragonfly]=0.1 [sfxff]=0.1 [torus]=4)
declare -A SEED=([flatfly]=1 [hypercube]=1 [dragonfly]=1 [sfxff]=1 [torus]=1)

diameter() { # switch-graph diameter over the cables present (the study harness's function)
    python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import probe_degraded as p; print(p.diameter_of(sys.argv[2]))" \
        "$IBRT_SOURCE_DIR/studies/direct-topologies" "$1"
}

for fam in flatfly hypercube dragonfly sfxff torus; do
    net=$T/$fam.net
    # shellcheck disable=SC2086
    "$IBRT" gen ${GEN[$fam]} --fail-links "${FAIL[$fam]}" --seed "${SEED[$fam]}" --keep-connected \
        -o "$net" >/dev/null 2>"$T/gen.err" || fail "gen $fam: $(cat "$T/gen.err")"
    grep -q "cables removed" "$T/gen.err" || fail "gen $fam removed no cable"
    D=$(diameter "$net")
    for opts in "" "distance_based=1" "distance_based=2 deflection=true"; do
        E=0 args=() sel=()
        for o in $opts; do args+=(--engine-opt "$o"); done
        [[ $opts == distance_based=* ]] && { E=${opts#distance_based=}; E=${E%% *}; sel=(--selection least-loaded); }
        vls=$((D + E + 1 > 8 ? 15 : 8))
        what="$fam ${opts:-static}"
        out=$T/r-$fam-$E
        "$IBRT" route --engine "${ENGINE[$fam]}" "${args[@]}" --data-vls $vls --fabric "$net" \
            --out "$out" --no-load --no-path-selection >/dev/null 2>"$T/route.err" ||
            fail "$what: route: $(tail -1 "$T/route.err")"
        c=(--fabric "$net" --lfts "$out/opensm-lfts.dump" --guid2lid "$out/guid2lid")
        [[ -f $out/opensm-sl2vl.dump ]] && c+=(--sl2vl "$out/opensm-sl2vl.dump")
        if [[ -f $out/path-sl ]]; then c+=(--path-sl "$out/path-sl")
        elif [[ -f $out/opensm-sl2vl.dump ]]; then c+=(--sl 0); fi
        [[ -n $opts ]] && c+=(--tables "$out/forwarding-sets")
        "$IBRT" check "${c[@]}" >"$T/check.txt" 2>&1 || fail "$what: check: $(grep -E 'FAIL|ibrt' "$T/check.txt" | head -3)"
        grep -q "PASS reachability" "$T/check.txt" || fail "$what: $(grep reachability "$T/check.txt")"
        grep -q "PASS deadlock" "$T/check.txt" || fail "$what: $(grep deadlock "$T/check.txt")"
        if [[ -n $opts ]]; then
            line=$(grep "forwarding sets" "$T/check.txt")
            [[ $line =~ PASS\ forwarding\ sets:.*\ 0\ stuck,\ 0\ misrouted,\ 0\ livelocks,\ longest\ path\ ([0-9]+)\ switch\ hops.*no\ credit\ loop ]] ||
                fail "$what: $line"
            ((BASH_REMATCH[1] <= D + E)) || fail "$what: longest path ${BASH_REMATCH[1]} > diameter $D + $E"
        fi
        for p in uniform complement; do
            "$IBRT" sim --fabric "$net" --engine "${ENGINE[$fam]}" "${args[@]}" "${sel[@]}" \
                --data-vls $vls --vls $((D + E + 1 > 8 ? D + E + 1 : 8)) --pattern $p --load 1.0 \
                --warmup-us 2 --measure-us 3 --drain-us 5 -q --json >"$T/s.json" 2>"$T/s.err" ||
                fail "$what $p: sim exit $?: $(tail -2 "$T/s.err")"
            python3 - "$T/s.json" <<'PY' || fail "$what $p: sim (above)"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
p = r["packets"]
assert r["verdict"] == "ok" and not r["deadlock"], r["verdict"]
assert p["delivered"] > 0 and p["dropped"] == 0 and p["misdelivered"] == 0, p
PY
        done
    done
done

# The families' adaptive routings with a rule for missing cables: route, check --tables (every
# choice delivers within the routing's budget: 2N for Mixed ADOR, 8 for the Dragonfly, the
# damaged diameter for ABO Negative First's shortest paths), no credit loop, overloaded sim ok.
declare -A BUDGET=([flatfly]=6 [hypercube]=$(diameter "$T/hypercube.net") [dragonfly]=8)
for case in "flatfly adaptive=mixed-ador" "hypercube adaptive=abo-negative-first" "dragonfly adaptive=gsid"; do
    fam=${case%% *} opt=${case#* } net=$T/${case%% *}.net out=$T/a-${case%% *}
    "$IBRT" route --engine "${ENGINE[$fam]}" --engine-opt "$opt" --data-vls 8 --fabric "$net" \
        --out "$out" --no-load --no-path-selection >/dev/null 2>"$T/route.err" ||
        fail "$fam $opt: route: $(tail -1 "$T/route.err")"
    c=(--fabric "$net" --lfts "$out/opensm-lfts.dump" --guid2lid "$out/guid2lid" --tables "$out/forwarding-sets")
    [[ -f $out/opensm-sl2vl.dump ]] && c+=(--sl2vl "$out/opensm-sl2vl.dump")
    if [[ -f $out/path-sl ]]; then c+=(--path-sl "$out/path-sl")
    elif [[ -f $out/opensm-sl2vl.dump ]]; then c+=(--sl 0); fi
    "$IBRT" check "${c[@]}" >"$T/check.txt" 2>&1 || fail "$fam $opt: check: $(grep -E 'FAIL|ibrt' "$T/check.txt" | head -3)"
    line=$(grep "forwarding sets" "$T/check.txt")
    [[ $line =~ PASS\ forwarding\ sets:.*\ 0\ stuck,\ 0\ misrouted,\ 0\ livelocks,\ longest\ path\ ([0-9]+)\ switch\ hops.*no\ credit\ loop ]] ||
        fail "$fam $opt: $line"
    ((BASH_REMATCH[1] <= BUDGET[$fam])) || fail "$fam $opt: longest path ${BASH_REMATCH[1]} > ${BUDGET[$fam]}"
    for p in uniform complement; do
        "$IBRT" sim --fabric "$net" --engine "${ENGINE[$fam]}" --engine-opt "$opt" --data-vls 8 \
            --vls 8 --selection least-loaded --pattern $p --load 1.0 --warmup-us 2 --measure-us 3 \
            --drain-us 5 -q --json >"$T/s.json" 2>"$T/s.err" ||
            fail "$fam $opt $p: sim exit $?: $(tail -2 "$T/s.err")"
        python3 - "$T/s.json" <<'PY' || fail "$fam $opt $p: sim (above)"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
p = r["packets"]
assert r["verdict"] == "ok" and not r["deadlock"], r["verdict"]
assert p["delivered"] > 0 and p["dropped"] == 0 and p["misdelivered"] == 0, p
PY
    done
done

# Those without such a rule decline a damaged fabric: exit 2, naming the routing to use. The
# Dragonfly seed loses a global cable, which Static (no G) cannot get round.
for case in "flatfly adaptive=twisted-mixed-ador" "dragonfly adaptive=static"; do
    fam=${case%% *} opt=${case#* }
    set +e
    "$IBRT" route --engine "${ENGINE[$fam]}" --engine-opt "$opt" --fabric "$T/$fam.net" \
        --out "$T/d-$fam" >/dev/null 2>"$T/e"
    rc=$?
    set -e
    [[ $rc == 2 ]] || fail "$fam $opt on a damaged fabric: exit $rc, not a decline"
    grep -q "use distance_based" "$T/e" || fail "$fam $opt: $(cat "$T/e")"
done
echo "PASS test_degraded_study"
