#!/usr/bin/env bash
# Builds the Debian package libpoker_VERSION_ARCH.deb with Debian's own
# dpkg-deb, from `make install-files PREFIX=/usr DESTDIR=STAGE`; `make deb`
# calls it after `cargo build --release`:
#
#   bash contrib/deb/build.sh VERSION SONAME OUT_DIR BUILD_DIR BIN
#
# What Debian's policy (and lintian) asks beyond the installed files: the
# binaries stripped, the shared library not executable, a shlibs file (so
# that packages built against it depend on it) and an ldconfig trigger,
# Depends computed by dpkg-shlibdeps, the copyright file and a changelog
# under /usr/share/doc/libpoker, md5sums, files owned by root.
set -euo pipefail
cd "$(dirname "$0")/../.."
version=$1 soname=$2 out=$3 build_dir=$4 bin=$5
arch=$(dpkg --print-architecture)
stage=$out/stage
deb=$out/libpoker_${version}_${arch}.deb
maintainer=${DEB_MAINTAINER:-libpoker maintainers <maintainers@libpoker.example.org>}

step() { echo "deb: $*" >&2; }

step "staging make install-files PREFIX=/usr into $stage"
rm -rf "$stage"
mkdir -p "$stage"
make --no-print-directory install-files PREFIX=/usr DESTDIR="$PWD/$stage" \
    BUILD_DIR="$build_dir" BIN="$bin" >/dev/null

step "stripping the binaries; the shared library not executable"
lib=$stage/usr/lib/libpoker.so.$version
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/poker" "$lib"
strip --strip-debug --remove-section=.comment "$stage/usr/lib/libpoker.a"
chmod 0644 "$lib"

step "documentation: README, copyright, changelog"
doc=$stage/usr/share/doc/libpoker
install -d "$doc"
install -m 0644 contrib/deb/README "$doc/README"
install -m 0644 contrib/deb/copyright "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
{
    echo "libpoker ($version) unstable; urgency=medium"
    echo
    echo "  * Release $version of libpoker; what changed in each release:"
    echo "    docs/changelog.md in the source."
    echo
    echo " -- $maintainer  $date"
} | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

step "control files: control, shlibs, triggers, md5sums"
control=$stage/DEBIAN
install -d "$control"
# dpkg-shlibdeps reads debian/control in its working folder.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
mkdir "$probe/debian"
printf 'Source: libpoker\n\nPackage: libpoker\nArchitecture: any\n' > "$probe/debian/control"
depends=$(cd "$probe" && dpkg-shlibdeps -O "$OLDPWD/$stage/usr/bin/poker" "$OLDPWD/$lib" 2>/dev/null \
    | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$control/control" <<EOF
Package: libpoker
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: bubblewrap, gcc, pkg-config
Section: devel
Priority: optional
Description: card-game programming contest kit and C library
 libpoker is the "Poker American" contest module (poker.h: p_startgame,
 p_look, p_place) as a C library, with an embeddable game API, Microsoft
 FreeCell deals, a shuffled deck, poker hands and Camicia games.
 .
 The poker command evaluates contestants' programs in a sandbox and ranks
 them, benchmarks them, deals decks, writes judge packages and hunts for
 long Camicia games. The package holds the shared and static libraries,
 the header, the pkg-config file, the command with its manual pages and
 shell completions, and the example contestants.
EOF
# The library's name and SONAME version, and the dependency a program
# linked against it gets: libpoker.so.0.3 -> "libpoker 0.3".
echo "libpoker ${soname#libpoker.so.} libpoker (>= $version)" > "$control/shlibs"
echo "activate-noawait ldconfig" > "$control/triggers"
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$control/md5sums"
chmod 0644 "$control"/*

step "packing $deb"
# DEB_XZ_LEVEL (Makefile, default 6): CI's package check packs at 1, which
# takes a fifth of the time for a package a fifth larger.
dpkg-deb --root-owner-group -Zxz -z"${DEB_XZ_LEVEL:-6}" --build "$stage" "$deb" >/dev/null
echo "$deb"
