#!/usr/bin/env bash
# `make deb` (issue 40, "a package for the SM host"): the sm-host component as a Debian
# package: its control names the runtime dependencies, it holds exactly what `make install`
# installs (under /usr), stripped; installed with dpkg as root it gives a working `ibrt` and
# puts the plugin in the linker's cache (postinst), and the stock opensm, told
# `event_plugin_name ibrt` and `routing_engine mlid,updn`, loads the installed plugin and routes
# with mlid; an older package installed over it rolls back and still routes; `dpkg --purge`
# removes every file and the cache entry (postrm), and the same opensm.conf then gives stock
# behaviour (the plugin is not found, updn routes). The install part is skipped when an ibrt
# package is already there.
set -euo pipefail
# shellcheck source=tests/e2e/harness.sh
source "${IBRT_SOURCE_DIR:?}/tests/e2e/harness.sh"
e2e_init deb
BUILD=${IBRT_BINARY_DIR:?}

(cd "$BUILD" && cpack -G DEB -B "$WORK/deb") >cpack.log 2>&1 ||
    e2e_fail "cpack failed:"$'\n'"$(tail -n 20 cpack.log)"
deb=$(ls "$WORK"/deb/ibrt_*.deb)
dpkg-deb -f "$deb" Depends | grep -q "opensm" || e2e_fail "Depends lacks opensm: $(dpkg-deb -f "$deb" Depends)"
# The plots run Debian's matplotlib (plot/plot.hpp); an SM host may go without, so recommended.
dpkg-deb -f "$deb" Recommends | grep -q "python3-matplotlib" ||
    e2e_fail "Recommends lacks python3-matplotlib: $(dpkg-deb -f "$deb" Recommends)"
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
# The same files as an older version, for the roll back.
(cd "$BUILD" && cpack -G DEB -B "$WORK/deb-old" -D CPACK_PACKAGE_VERSION=0.0.1) >cpack-old.log 2>&1 ||
    e2e_fail "cpack (old version) failed:"$'\n'"$(tail -n 20 cpack-old.log)"
old=$(ls "$WORK"/deb-old/ibrt_*.deb)
[[ $(dpkg-deb -f "$old" Version) == 0.0.1 ]] || e2e_fail "old package version: $(dpkg-deb -f "$old" Version)"

# The SM host: a small fat tree under ibsim, the stock opensm with only the package's plugin on
# the library path (the linker's cache: no LD_LIBRARY_PATH to the build tree).
unset LD_LIBRARY_PATH
"$IBRT" gen -q -o ft.net fat-tree --ports 4 --levels 2
e2e_start_ibsim ft.net
printf 'event_plugin_name ibrt\n' >ibrt.conf
# sm_routes ENGINE: one sweep with `routing_engine mlid,updn`; ENGINE configured the switches.
sm_routes() {
    rm -f "$WORK/osm/guid2lid"
    e2e_opensm -F "$WORK/ibrt.conf" -R mlid,updn
    grep -q "$1 tables configured on all switches" "$WORK/osm/osm.log" ||
        fail_pkg "expected $1 to route:"$'\n'"$(grep -E 'configured|plugin|ERR' "$WORK/osm/osm.log" | tail)"
}

# Whatever fails from here on (the harness's helpers exit too), the package goes.
trap 'rc=$?; dpkg --purge ibrt >/dev/null 2>&1 || true; (exit "$rc"); _e2e_cleanup' EXIT
dpkg -i "$deb" >dpkg.log 2>&1 || fail_pkg "dpkg -i failed:"$'\n'"$(cat dpkg.log)"
/usr/bin/ibrt --version >/dev/null || fail_pkg "the installed ibrt does not run"
# in_ld_cache: libibrt.so is in the linker cache. Not `ldconfig -p | grep -q`: under pipefail
# grep's early exit can end ldconfig with SIGPIPE and fail the test with the entry present.
in_ld_cache() { local cache; cache=$(ldconfig -p); grep -q "libibrt.so " <<<"$cache"; }
in_ld_cache || fail_pkg "postinst left libibrt.so out of the linker cache"
sm_routes mlid
grep -q "ibrt mlid: routed" "$WORK/osm/osm.log" || fail_pkg "no routing line of the plugin in osm.log"
echo "ok: installed $(dpkg-query -W -f='${Version}' ibrt): opensm routes with the plugin"

dpkg -i "$old" >dpkg.log 2>&1 || fail_pkg "rolling back (dpkg -i of 0.0.1) failed:"$'\n'"$(cat dpkg.log)"
[[ $(dpkg-query -W -f='${Version}' ibrt) == 0.0.1 ]] || fail_pkg "the roll back left $(dpkg-query -W -f='${Version}' ibrt)"
in_ld_cache || fail_pkg "the roll back left libibrt.so out of the linker cache"
sm_routes mlid
echo "ok: rolled back to 0.0.1: opensm still routes with the plugin"

dpkg --purge ibrt >dpkg.log 2>&1 || fail_pkg "dpkg --purge failed:"$'\n'"$(cat dpkg.log)"
for f in $(cat contents); do [[ ! -e "/${f#./}" ]] || e2e_fail "dpkg --purge left ${f#.}"; done
! in_ld_cache || e2e_fail "postrm left libibrt.so in the linker cache"
! dpkg-query -W ibrt >/dev/null 2>&1 || e2e_fail "dpkg still knows the ibrt package"
sm_routes updn
grep -q "cannot load plugin 'ibrt'" "$WORK/osm/osm.log" || e2e_fail "after the purge opensm still found a plugin"
echo "ok: removed: the same opensm.conf gives stock behaviour (no plugin, updn routes)"
e2e_pass
