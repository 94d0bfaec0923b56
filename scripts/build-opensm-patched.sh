#!/usr/bin/env bash
# Builds Debian packages of opensm with ibrt's patches (opensm-patches/*.patch), from Debian's
# own source package, so that an admin installs the patched opensm like any package
# (docs/deploy.md, "The patched opensm").
#
#   build-opensm-patched.sh OUTDIR     the .debs land in OUTDIR (created)
#   build-opensm-patched.sh --source-dir DIR OUTDIR
#                                      use DIR, an unpacked Debian source tree of opensm (e.g. a
#                                      checkout of Debian's packaging), instead of apt-get source
#
# How: the deb-src line for the running release is added when apt has none, `apt-get source
# opensm` fetches the package Debian builds its opensm from, the patches go into
# debian/patches (after Debian's own, in series), a changelog entry makes the version
# <debian version>+ibrt1 (newer than the stock one, so apt prefers it), and
# `dpkg-buildpackage -b -uc -us` builds every binary package.
#
# Fallback: some mirrors serve a source package's orig tarball but not its debian.tar.xz
# (apt-get source then fails with 404). The script then builds the patched sources with the
# configure options Debian's build uses and repacks the stock binary packages of the same
# version (apt-get download) with the rebuilt files in place of theirs: same package names,
# files, maintainer scripts and systemd units; it checks that the rebuilt osm_config.h equals
# the installed libopensm-dev's, i.e. that the configuration matches Debian's. OUTDIR/BUILD-INFO
# says which way was taken.
#
# Rebuilds only when the patches change: OUTDIR/BUILD-INFO records their checksum. Runs niced
# (-j2 on the 2-core machines) as it shares them. Needs root for apt-get (or sudo).
set -euo pipefail

SOURCE_DIR=
if [ "${1:-}" = --source-dir ]; then
  SOURCE_DIR=$(cd "${2:?--source-dir DIR}" && pwd)
  shift 2
fi
OUT=${1:?usage: build-opensm-patched.sh [--source-dir DIR] OUTDIR}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PATCHES=("$HERE"/opensm-patches/*.patch)
[ -e "${PATCHES[0]}" ] || { echo "build-opensm-patched: no patches in $HERE/opensm-patches" >&2; exit 2; }
JOBS=${JOBS:-2}
LOCAL_SUFFIX=ibrt1

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
sum=$(cat "${PATCHES[@]}" "$0" | sha256sum | cut -d' ' -f1)
if [ -n "$SOURCE_DIR" ]; then sum="$sum-$(basename "$SOURCE_DIR")"; fi
if [ -f "$OUT/BUILD-INFO" ] && grep -qx "patches-sha256: $sum" "$OUT/BUILD-INFO" &&
  ls "$OUT"/opensm_*.deb >/dev/null 2>&1; then
  echo "build-opensm-patched: $OUT is up to date ($(sed -n 's/^version: //p' "$OUT/BUILD-INFO"))"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive

# deb-src for the release apt already uses, if none is configured: apt-get source needs it.
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  . /etc/os-release
  # The mirror apt already takes the release's binary packages from.
  uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' |
    awk -v r="$VERSION_CODENAME" '$2 == r { print $1; exit }')
  if [ -z "$uri" ]; then
    echo "build-opensm-patched: no apt source for $VERSION_CODENAME to add deb-src for" >&2
    exit 1
  fi
  echo "build-opensm-patched: adding deb-src for $VERSION_CODENAME (/etc/apt/sources.list.d/ibrt-deb-src.sources)"
  $SUDO tee /etc/apt/sources.list.d/ibrt-deb-src.sources >/dev/null <<EOF
Types: deb-src
URIs: $uri
Suites: $VERSION_CODENAME $VERSION_CODENAME-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  $SUDO apt-get update -qq
fi
if ! apt-cache showsrc opensm 2>/dev/null | grep -q '^Package: opensm'; then
  $SUDO apt-get update -qq
fi
$SUDO apt-get install -y -qq dpkg-dev fakeroot >/dev/null
$SUDO apt-get build-dep -y -qq opensm >/dev/null

WORK=$(mktemp -d "${TMPDIR:-/tmp}/opensm-patched.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
start=$SECONDS
srcver=$(apt-cache showsrc opensm | sed -n 's/^Version: //p' | head -n 1)
upver=${srcver%-*}
echo "build-opensm-patched: Debian source opensm $srcver, ${#PATCHES[@]} patch(es)"

add_changelog_entry() { # DIR VERSION
  local tmp
  tmp=$(mktemp)
  {
    echo "opensm ($2) UNRELEASED; urgency=medium"
    echo
    for p in "${PATCHES[@]}"; do echo "  * Add ibrt patch $(basename "$p")"; done
    echo
    echo " -- ibrt <ibrt@localhost>  $(date -R)"
    echo
    cat "$1/debian/changelog"
  } >"$tmp"
  mv "$tmp" "$1/debian/changelog"
}

method=
if [ -n "$SOURCE_DIR" ]; then
  cp -a "$SOURCE_DIR" "$WORK/opensm-src"
  srcver=$(cd "$WORK/opensm-src" && dpkg-parsechangelog -S Version)
fi
if [ -n "$SOURCE_DIR" ] || apt-get source -qq opensm >source.log 2>&1; then
  method=dpkg-buildpackage
  if [ -n "$SOURCE_DIR" ]; then
    src=opensm-src
  else
    src=$(find . -maxdepth 1 -type d -name "opensm-$upver*" | head -n 1)
  fi
  mkdir -p "$src/debian/patches"
  touch "$src/debian/patches/series"
  for p in "${PATCHES[@]}"; do
    name="ibrt-$(basename "$p")"
    cp "$p" "$src/debian/patches/$name"
    echo "$name" >>"$src/debian/patches/series"
  done
  version="$srcver+$LOCAL_SUFFIX"
  add_changelog_entry "$src" "$version"
  # dpkg-buildpackage applies the new series entries (dpkg-source --before-build).
  (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$JOBS" nice -n 10 \
    dpkg-buildpackage -b -uc -us -j"$JOBS" >"$WORK/build.log" 2>&1) || {
    tail -n 40 "$WORK/build.log" >&2
    echo "build-opensm-patched: dpkg-buildpackage failed" >&2
    exit 1
  }
  debs=()
  for deb in "$WORK"/*.deb; do
    case "$deb" in *-dbgsym_*) ;; *) debs+=("$deb") ;; esac
  done
else
  orig=$(ls opensm_"$upver".orig.tar.* 2>/dev/null | head -n 1 || true)
  if [ -z "$orig" ]; then
    cat source.log >&2
    echo "build-opensm-patched: apt-get source opensm failed and no orig tarball was fetched" >&2
    exit 1
  fi
  method=repack
  echo "build-opensm-patched: apt-get source could not fetch Debian's packaging:"
  grep -E '^E:' source.log | sed 's/^/  /' | head -n 3
  echo "build-opensm-patched: building from $orig and repacking the stock $srcver binary packages"
  mkdir src stage stock
  tar -xf "$orig" -C src --strip-components=1
  for p in "${PATCHES[@]}"; do patch -d src -p1 --quiet <"$p"; done
  triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
  # The orig tarball is a git snapshot without configure: debhelper runs autoreconf too.
  (cd src && nice -n 10 autoreconf -fi >"$WORK/build.log" 2>&1) || {
    tail -n 20 "$WORK/build.log" >&2
    exit 1
  }
  # The options debhelper's dh_auto_configure passes (Debian's rules add none for opensm:
  # checked below against the installed osm_config.h).
  (cd src && nice -n 10 ./configure --build="$(dpkg-architecture -qDEB_BUILD_GNU_TYPE)" \
    --prefix=/usr --includedir=/usr/include --mandir=/usr/share/man \
    --infodir=/usr/share/info --sysconfdir=/etc --localstatedir=/var --disable-option-checking \
    --disable-silent-rules --libdir="/usr/lib/$triplet" --runstatedir=/run \
    --disable-maintainer-mode --disable-dependency-tracking \
    CFLAGS="$(dpkg-buildflags --get CFLAGS)" CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
    LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" >>"$WORK/build.log" 2>&1 &&
    nice -n 10 make -j"$JOBS" >>"$WORK/build.log" 2>&1 &&
    make install DESTDIR="$WORK/stage" >>"$WORK/build.log" 2>&1) || {
    tail -n 40 "$WORK/build.log" >&2
    echo "build-opensm-patched: building the patched opensm failed" >&2
    exit 1
  }
  if [ -f /usr/include/infiniband/opensm/osm_config.h ] &&
    ! cmp -s stage/usr/include/infiniband/opensm/osm_config.h \
      /usr/include/infiniband/opensm/osm_config.h; then
    diff stage/usr/include/infiniband/opensm/osm_config.h \
      /usr/include/infiniband/opensm/osm_config.h >&2 || true
    echo "build-opensm-patched: configured differently from Debian's opensm (osm_config.h)" >&2
    exit 1
  fi
  # The stock binary packages of this source version (binNMUs have +bN on the binary version).
  pkgs=$(apt-cache showsrc opensm | sed -n 's/^Binary: //p' | head -n 1 | tr -d ',')
  (cd stock && apt-get download -qq $(for p in $pkgs; do
    [ "$p" = opensm-doc ] || echo "$p"; done) >/dev/null)
  debs=()
  for deb in stock/*.deb; do
    pkg=$(dpkg-deb -f "$deb" Package)
    binver=$(dpkg-deb -f "$deb" Version)
    version="$binver+$LOCAL_SUFFIX"
    dir="repack/$pkg"
    mkdir -p "$dir"
    dpkg-deb -R "$deb" "$dir"
    replaced=0
    while IFS= read -r -d '' f; do
      rel=${f#"$dir"}
      if [ -f "stage$rel" ]; then
        cp "stage$rel" "$f"
        replaced=$((replaced + 1))
        # Debian strips its binaries (into -dbgsym packages); so are the rebuilt ones.
        if readelf -h "$f" >/dev/null 2>&1; then
          strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"
        fi
      elif readelf -h "$f" >/dev/null 2>&1; then
        echo "build-opensm-patched: $pkg: $rel was not rebuilt" >&2
        exit 1
      fi
    done < <(find "$dir" -path "$dir/DEBIAN" -prune -o -type f -print0)
    sed -i "s/^Version: .*/Version: $version/" "$dir/DEBIAN/control"
    # Dependencies on sibling packages name the stock version exactly (= 3.3.23-2+b1).
    sed -i -E "s/\(= $(printf '%s' "$binver" | sed 's/[.+]/\\&/g')\)/(= $version)/g" "$dir/DEBIAN/control"
    (cd "$dir" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
      xargs -0 md5sum >DEBIAN/md5sums)
    out="$WORK/${pkg}_${version}_$(dpkg-deb -f "$deb" Architecture).deb"
    dpkg-deb --root-owner-group -b "$dir" "$out" >/dev/null
    echo "  $pkg: $replaced file(s) rebuilt"
    debs+=("$out")
  done
fi

rm -f "$OUT"/*.deb
cp "${debs[@]}" "$OUT"/
secs=$((SECONDS - start))
{
  echo "method: $method"
  echo "source: opensm $srcver"
  echo "version: $(dpkg-deb -f "$OUT"/opensm_*.deb Version)"
  echo "build-seconds: $secs"
  echo "patches-sha256: $sum"
  for p in "${PATCHES[@]}"; do echo "patch: $(basename "$p")"; done
} >"$OUT/BUILD-INFO"
echo "build-opensm-patched: $(ls "$OUT"/*.deb | wc -l) packages in $OUT ($method, ${secs}s)"
ls "$OUT"/*.deb
