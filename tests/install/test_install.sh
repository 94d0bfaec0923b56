#!/usr/bin/env bash
# `make install` installs exactly what a subnet-manager host needs (issue 12, "For the cluster
# admin"; docs/deploy.md, "Install"):
#   1. into a DESTDIR, with PREFIX=/usr: exactly bin/ibrt, the plugin, ibrt(1) and one
#      ibrt-CMD(1) per subcommand `ibrt --help` lists, and the example opensm.conf; nothing
#      else (no static library, test, bench or fuzz binary);
#   2. neither ldconfig nor apt-get runs under DESTDIR (stubs first in PATH record any call),
#      while a real install as root does run ldconfig (into a scratch prefix, stub again);
#   3. every page renders under man/groff without a warning, has NAME, SYNOPSIS, OPTIONS and
#      EXIT STATUS, and names every --long option its subcommand's --help shows;
#   4. the runtime package list has no compiler, -dev or test package;
#   5. the installed plugin, loaded by the real opensm with the installed example opensm.conf
#      under ibsim, routes the fabric with mlid.
# `make install` without a build says to run `make` first.
set -euo pipefail
# shellcheck source=tests/e2e/harness.sh
source "${IBRT_SOURCE_DIR:?}/tests/e2e/harness.sh"
e2e_init install
SRC=$IBRT_SOURCE_DIR
BUILD=${IBRT_BINARY_DIR:?}

# The install directories as CMake resolved them (tests/install/CMakeLists.txt).
BINDIR=${INSTALL_BINDIR:?} LIBDIR=${INSTALL_LIBDIR:?} MANDIR=${INSTALL_MANDIR:?} DOCDIR=${INSTALL_DOCDIR:?}

# Stubs that record being called instead of touching the system.
mkdir -p stub
for tool in ldconfig apt-get sudo; do
    printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$tool" "$WORK" >"stub/$tool"
    chmod +x "stub/$tool"
done
# The outer make (make check) must not lend its jobserver to this one.
quiet_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$WORK/stub:$PATH" make -s -C "$SRC" "$@"; }

# --- 1, 2: make install into a DESTDIR -------------------------------------------------------
rc=0
quiet_make install BUILD="$BUILD" DESTDIR="$WORK/root" PREFIX=/usr JOBS=2 >install.log 2>&1 || rc=$?
((rc == 0)) || e2e_fail "make install exited $rc:"$'\n'"$(tail -n 30 install.log)"
[[ ! -e calls ]] || e2e_fail "make install under DESTDIR ran: $(cat calls)"
grep -q "DESTDIR is set: not running ldconfig" install.log ||
    e2e_fail "the install script did not take the DESTDIR branch:"$'\n'"$(cat install.log)"

"$IBRT" --help >help.txt
mapfile -t cmds < <(awk '/^Subcommands:$/ {s = 1; next} s && /^$/ {exit} s {print $1}' help.txt)
((${#cmds[@]} >= 10)) || e2e_fail "only ${#cmds[@]} subcommands in ibrt --help: ${cmds[*]}"
{
    echo "./usr/$BINDIR/ibrt"
    echo "./usr/$LIBDIR/libibrt.so"
    echo "./usr/$DOCDIR/examples/opensm.conf"
    echo "./usr/$MANDIR/man1/ibrt.1"
    for c in "${cmds[@]}"; do echo "./usr/$MANDIR/man1/ibrt-$c.1"; done
} | sort >expected.txt
(cd root && find . ! -type d | sort) >installed.txt
diff -u expected.txt installed.txt >files.diff ||
    e2e_fail "installed files differ from the SM-host list (- missing, + extra):"$'\n'"$(cat files.diff)"
echo "ok: make install DESTDIR: ${#cmds[@]} subcommands, $(wc -l <installed.txt) files, no ldconfig, no apt-get"

# The installed tool runs and is the one built.
[[ "$("root/usr/$BINDIR/ibrt" --version)" == "$("$IBRT" --version)" ]] || e2e_fail "installed ibrt --version"
nm -D --defined-only "root/usr/$LIBDIR/libibrt.so" | grep -q ' osm_event_plugin$' ||
    e2e_fail "installed libibrt.so does not export osm_event_plugin"

# --- 2: a real make install (no DESTDIR) as root runs ldconfig --------------------------------------
if [[ "$(id -u)" == 0 ]]; then
    (unset DESTDIR && quiet_make install BUILD="$BUILD" PREFIX="$WORK/prefix" JOBS=2) >real.log 2>&1 ||
        e2e_fail "make install PREFIX=: $(tail -n 20 real.log)"
    grep -qx "ldconfig " calls 2>/dev/null ||
        e2e_fail "a real install as root did not run ldconfig:"$'\n'"$(cat real.log)"
    # The runtime packages are there (this machine built ibrt), so nothing was installed.
    ! grep -q "^apt-get" calls || e2e_fail "make install ran apt-get: $(cat calls)"
    [[ -x "$WORK/prefix/$BINDIR/ibrt" ]] || e2e_fail "make install PREFIX= installed no ibrt"
    rm -f calls
    echo "ok: a real install as root runs ldconfig"
else
    echo "note: not root: the real-install ldconfig branch is not exercised"
fi

# --- 3: every page renders cleanly and says what --help says ---------------------------------
man1="root/usr/$MANDIR/man1"
for page in ibrt "${cmds[@]/#/ibrt-}"; do
    f="$man1/$page.1"
    err=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -K utf8 -ww -z "$f" 2>&1) ||
        e2e_fail "groff failed on $page.1: $err"
    [[ -z "$err" ]] || e2e_fail "groff warns on $page.1:"$'\n'"$err"
    err=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$f" 2>&1 >"$page.txt") ||
        e2e_fail "man -l failed on $page.1: $err"
    [[ -z "$err" ]] || e2e_fail "man -l warns on $page.1:"$'\n'"$err"
    for section in NAME SYNOPSIS OPTIONS "EXIT STATUS"; do
        grep -qx "$section" "$page.txt" || e2e_fail "$page.1 has no $section section"
    done
    grep -Eq "^ *$page +- " "$page.txt" || e2e_fail "$page.1: NAME does not start with '$page - '"
    # Non-ASCII text (§) survives help2man: under its default C locale it became "??".
    ! grep -q '??' "$f" || e2e_fail "$page.1 has '??' for characters help2man could not encode"
    # EXIT STATUS gives at least success (0) and bad input (2).
    sed -n '/^EXIT STATUS$/,/^[A-Z]/p' "$page.txt" >"$page.exit"
    grep -q '\b0\b' "$page.exit" && grep -q '\b2\b' "$page.exit" ||
        e2e_fail "$page.1: EXIT STATUS does not give codes 0 and 2:"$'\n'"$(cat "$page.exit")"
    if [[ "$page" == ibrt ]]; then help=help.txt; else
        help="$page.help"
        "$IBRT" "${page#ibrt-}" --help >"$help"
    fi
    # Every long option of --help, in the page (groff escapes '-' as '\-').
    for opt in $(grep -o -- '--[a-z0-9][a-z0-9-]*' "$help" | sort -u); do
        grep -qF -- "${opt//-/\\-}" "$f" || e2e_fail "$page.1 lacks $opt, which --help shows"
    done
done
echo "ok: ${#cmds[@]} + 1 man pages render without warnings and carry every --help option"

# --- 4: runtime packages only ------------------------------------------------------------------
bash "$SRC/scripts/install-deps.sh" --runtime --list >runtime.txt
[[ -s runtime.txt ]] || e2e_fail "install-deps.sh --runtime --list printed nothing"
if grep -E -- '-dev$|^(build-essential|cmake|make|clang|clang-format|catch2|help2man|ibsim-utils|ibutils|glpk-utils)$' runtime.txt >bad.txt; then
    e2e_fail "runtime packages include build or test packages: $(tr '\n' ' ' <bad.txt)"
fi
grep -qx opensm runtime.txt || e2e_fail "runtime packages lack opensm"
echo "ok: runtime packages: $(tr '\n' ' ' <runtime.txt)"

# --- 5: the installed plugin and example opensm.conf in the real opensm -------------------------
# The example's report path is the admin's /var/log: point it into the scratch dir.
sed "s|report=/var/log/opensm-ibrt.json|report=$WORK/osm/report.json|" \
    "root/usr/$DOCDIR/examples/opensm.conf" >opensm.conf
grep -q "report=$WORK" opensm.conf || e2e_fail "the example opensm.conf has no report= to redirect"
"$IBRT" gen -q -o ft.net fat-tree -m 4 -n 3
e2e_start_ibsim ft.net
LD_LIBRARY_PATH="$WORK/root/usr/$LIBDIR" e2e_opensm -F "$WORK/opensm.conf"
e2e_expect_engine mlid
grep -q "ibrt plugin loaded" osm/osm.log || e2e_fail "the installed plugin did not load"
grep -q '"engine": "mlid"' osm/report.json || e2e_fail "no report from the installed plugin"
echo "ok: the installed plugin with the example opensm.conf routes with mlid"

# --- make install without a build --------------------------------------------------------------
rc=0
quiet_make install BUILD="$WORK/no-build" DESTDIR="$WORK/root2" >nobuild.log 2>&1 || rc=$?
((rc != 0)) || e2e_fail "make install without a build succeeded"
grep -q "run 'make' first" nobuild.log || e2e_fail "make install without a build: $(cat nobuild.log)"
[[ ! -e root2 ]] || e2e_fail "make install without a build installed something"
e2e_pass
