#!/usr/bin/env bash
# Installs the Debian packages ibrt needs; idempotent and non-interactive.
# Runs `apt-get update` at most once, and only when something is missing.
#
#   install-deps.sh            everything: build, test and runtime (`make`, `make check`)
#   install-deps.sh --runtime  only what a subnet-manager host needs to run what `make install`
#                              installs (opensm, the shared libraries ibrt links, saquery for
#                              `ibrt sa-path-sls`); no compiler, no -dev package, no test tool
#   install-deps.sh --list [--runtime]   print the package names and install nothing
set -euo pipefail

# What the installed plugin and tool load at run time (ldd of ibrt and libibrt.so: libglpk,
# libfmt; libstdc++/libc are always there) and the programs they run or plug into.
RUNTIME=(opensm infiniband-diags libglpk40 libfmt9)
# What compiles them, their unit tests and the man pages (help2man runs `ibrt --help`).
BUILD=(
  build-essential cmake make pkg-config help2man
  libopensm-dev libibumad-dev libglpk-dev catch2 libcli11-dev nlohmann-json3-dev libfmt-dev
)
# What draws every plot (`ibrt sim --plot`, the sweeps' SVGs; plot/render.py runs with
# /usr/bin/python3): left out of --runtime, as an SM host rarely plots and matplotlib brings
# numpy and fonts; the .deb recommends it. The unit tests render through it.
PLOTS=(python3-matplotlib)
# What the tests and tools of `make check`, `make bench` and `make fuzz` run: the simulated
# fabric (ibsim), ibdmchk (ibutils), glpsol, clang for fuzzing, groff/man for the man pages,
# a one-node Slurm cluster for the sweep test (tests/e2e/test_sweep_slurm.sh), libibmad-dev for
# the SA query helper of tests/e2e/test_sa_path_selection.sh, and what builds the patched
# opensm packages (`make opensm-patched`; it installs opensm's own build dependencies itself).
TEST=(
  clang clang-format ibsim-utils ibutils glpk-utils python3 bc time groff-base man-db
  slurmctld slurmd slurm-client munge libibmad-dev dpkg-dev fakeroot
)

mode=all
list=0
for arg in "$@"; do
  case "$arg" in
    --runtime) mode=runtime ;;
    --list) list=1 ;;
    *) echo "install-deps: unknown argument '$arg' (use --runtime and/or --list)" >&2; exit 2 ;;
  esac
done
if [ "$mode" = runtime ]; then
  PACKAGES=("${RUNTIME[@]}")
else
  PACKAGES=("${RUNTIME[@]}" "${BUILD[@]}" "${PLOTS[@]}" "${TEST[@]}")
fi
if [ "$list" -eq 1 ]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
# Daemons among them (opensm; munge, slurmctld and slurmd for the Slurm test) are installed,
# not started: the tests start their own instances, with state under a temporary directory.
# A policy-rc.d that refuses every start (Debian's invoke-rc.d and deb-systemd-invoke ask it)
# is in place for the install, unless the host has one of its own.
daemons=()
for d in opensm munge slurmctld slurmd; do
  [[ " ${missing[*]} " == *" $d "* ]] && daemons+=("$d")
done
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ${#daemons[@]} -gt 0 ] && [ ! -e "$policy" ]; then
  echo "install-deps: not starting ${daemons[*]} (a temporary $policy refuses service starts)" >&2
  printf '#!/bin/sh\n# ibrt install-deps: no service starts while installing\nexit 101\n' |
    $SUDO tee "$policy" >/dev/null
  $SUDO chmod 755 "$policy"
  own_policy=1
  trap '$SUDO rm -f "$policy"' EXIT
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
if [ "$own_policy" -eq 1 ]; then $SUDO rm -f "$policy"; trap - EXIT; fi
