#!/usr/bin/env bash
# Generated test fabrics.
#   gen.sh small [IBRT]         regenerate the committed set test-fabrics/generated/*.net from
#                               generated/MANIFEST (small: a few KB each)
#   gen.sh large OUTDIR [IBRT]  write the large instances (not committed) into OUTDIR: the
#                               36-port fat trees, paper 003's 2,048-switch direct networks
# IBRT defaults to build/ibrt. Output is deterministic: same ibrt, same files.
set -euo pipefail
set -f # arguments such as leaf-0[5] are never globbed
here=$(cd "$(dirname "$0")" && pwd)

mode=${1:-}
case "$mode" in
small)
    ibrt=${2:-$here/../build/ibrt}
    while read -r name args; do
        [[ -z "$name" || "$name" == \#* ]] && continue
        # shellcheck disable=SC2086 # word splitting of the manifest arguments is intended
        "$ibrt" gen $args -q -o "$here/generated/$name.net"
        echo "generated/$name.net"
    done <"$here/generated/MANIFEST"
    ;;
large)
    out=${2:?gen.sh large OUTDIR [IBRT]}
    ibrt=${3:-$here/../build/ibrt}
    mkdir -p "$out"
    # Paper 000 Table 1 and the deployed 36-port trees.
    "$ibrt" gen fat-tree -m 16 -n 3 -o "$out/ft-16-3.net"
    "$ibrt" gen fat-tree -m 36 -n 3 -o "$out/ft-36-3.net"
    "$ibrt" gen clos --radix 36 --levels 2 -o "$out/clos-36-2.net"
    "$ibrt" gen clos --radix 36 --levels 2 --blocking 2:1 -o "$out/clos-36-2-blocking.net"
    "$ibrt" gen clos --radix 36 --levels 3 -o "$out/clos-36-3.net"
    # Paper 003's reference set-up: 2,048 switches of 36 ports, 8 CAs each.
    "$ibrt" gen torus --k 4,8,8,8 --width 2,4,4,4 --cas 8 -o "$out/torus-4x8x8x8.net"
    "$ibrt" gen hyperx --k 4,8,8,8 --width 2,1,1,1 --cas 8 -o "$out/flatfly-4x8x8x8.net"
    "$ibrt" gen hypercube --dims 11 --width 2 --cas 8 -o "$out/hypercube-11.net"
    "$ibrt" gen dragonfly --a 16 --h 8 --p 8 --omit-one-global -o "$out/dragonfly-16-8-8.net"
    "$ibrt" gen slimfly --q 17 --cas 8 -o "$out/slimfly-17.net"
    # Paper 001 §VI random irregular sizes.
    "$ibrt" gen random --switches 64 --degree 8 --cas 512 --seed 1 -o "$out/random-512-64.net"
    "$ibrt" gen fat-tree -m 36 -n 3 --fail-links 0.02 --seed 1 --report-json "$out/ft-36-3-fail.json" \
        -o "$out/ft-36-3-fail.net"
    ;;
*)
    echo "usage: gen.sh small [IBRT] | gen.sh large OUTDIR [IBRT]" >&2
    exit 2
    ;;
esac
