#!/usr/bin/env bash
# `make deb` (issue 40, "a package for the SM host"): the sm-host component as a Debian
# package: its control names the runtime dependencies, it holds exactly what `make install`
# installs (under /usr), stripped; installed with dpkg as root it gives a working `ibrt` and
# puts the plugin in the linker's cache (postinst), and `dpkg --purge` removes every file and the
# cache entry (postrm). The install part is skipped when an ibrt package is already there.
set -euo pipefail
# shellcheck source=tests/e2e/harness.sh
source "${IBRT_SOURCE_DIR:?}/tests/e2e/harness.sh"
e2e_init deb
BUILD=${IBRT_BINARY_DIR:?}

(cd "$BUILD" && cpack -G DEB -B "$WORK/deb") >cpack.log 2>&1 ||
    e2e_fail "cpack failed:"$'\n'"$(tail -n 20 cpack.log)"
deb=$(ls "$WORK"/deb/ibrt_*.deb)
dpkg-deb -f "$deb" Depends | grep -q "opensm" || e2e_fail "Depends lacks opensm: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | sort >contents
cmds=$("$IBRT" --help | awk '/^Subcommands:$/ { s = 1; next } s && /^$/ { exit } s && /^  [^ ]/ { print $1 }')
{
    echo ./usr/bin/ibrt
    echo ./usr/lib/libibrt.so
    echo ./usr/share/doc/ibrt/examples/opensm.conf
    echo ./usr/share/man/man1/ibrt.1
    for c in $cmds; do echo "./usr/share/man/man1/ibrt-$c.1"; done
} | sort >want
diff want contents >/dev/null || e2e_fail "package contents differ from the sm-host files:"$'\n'"$(diff want contents)"
dpkg-deb -x "$deb" x
! readelf -S x/usr/bin/ibrt | grep -q '\.debug_info' || e2e_fail "ibrt is not stripped"

if [[ $(id -u) -ne 0 ]] || dpkg-query -W -f='${Status}' ibrt 2>/dev/null | grep -q "ok installed"; then
    echo "note: not root, or an ibrt package is installed: dpkg -i / --purge not exercised"
    e2e_pass
fi
# The package never outlives the test, failed or not.
fail_pkg() {
    dpkg --purge ibrt >/dev/null 2>&1 || true
    e2e_fail "$@"
}
dpkg -i "$deb" >dpkg.log 2>&1 || fail_pkg "dpkg -i failed:"$'\n'"$(cat dpkg.log)"
/usr/bin/ibrt --version >/dev/null || fail_pkg "the installed ibrt does not run"
ldconfig -p | grep -q "libibrt.so " || fail_pkg "postinst left libibrt.so out of the linker cache"
dpkg --purge ibrt >dpkg.log 2>&1 || fail_pkg "dpkg --purge failed:"$'\n'"$(cat dpkg.log)"
for f in $(cat contents); do [[ ! -e "/${f#./}" ]] || e2e_fail "dpkg --purge left ${f#.}"; done
! ldconfig -p | grep -q "libibrt.so " || e2e_fail "postrm left libibrt.so in the linker cache"
! dpkg-query -W ibrt >/dev/null 2>&1 || e2e_fail "dpkg still knows the ibrt package"
echo "ok: the package installs a working ibrt and plugin, and removes them cleanly"
e2e_pass
