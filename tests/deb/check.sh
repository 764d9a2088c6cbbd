#!/usr/bin/env bash
# The Debian package as a user meets it (CI's package tier, as root on
# Debian, after every other test so that none links the installed library
# by mistake): `make deb`, lintian without errors, `dpkg -i`, a contestant
# built through pkg-config with no rpath and no LD_LIBRARY_PATH, evaluated
# by the installed `poker`, the manual pages and completions in place, then
# `dpkg -r` leaving none of the package's files behind.
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "deb check: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "dpkg -i needs root"
if dpkg-query -W -f='${Status}' libpoker 2>/dev/null | grep -q 'install ok installed'; then
    fail "libpoker is installed already: dpkg -r libpoker first"
fi

# It reuses the build tier's target/release (make deb's cargo build is a
# no-op there) and the static link flags the install test cached. Packed
# at xz level 1: what is checked is the package's contents, not its size,
# and level 6 takes most of `make deb`'s time (22 s against 4 s, loaded).
make --no-print-directory deb DEB_XZ_LEVEL=1
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
deb=target/deb/libpoker_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "make deb wrote no $deb"

echo "deb check: lintian $deb" >&2
lintian --tag-display-limit 0 --fail-on error "$deb" || fail "lintian found errors"

dpkg -i "$deb"
trap 'dpkg -r libpoker >/dev/null 2>&1 || true' EXIT
work=$(mktemp -d)
cp c_examples/greedy.c "$work/mine.c"
(
    cd "$work"
    env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH sh -c \
        'cc mine.c $(pkg-config --cflags --libs libpoker) -o mine' || fail "cc through pkg-config failed"
    readelf -d mine | grep -q 'Shared library: \[libpoker.so.0.3\]' || fail "mine does not need libpoker.so.0.3"
    ! readelf -d mine | grep -qE 'RPATH|RUNPATH' || fail "mine has an rpath"
    env -u LD_LIBRARY_PATH ./mine | grep -q '^total: ' || fail "./mine did not play a game"
    env -u LD_LIBRARY_PATH /usr/bin/poker eval --quiet mine.c > eval.txt || fail "poker eval failed"
    grep -q '^mine (mine.c)' eval.txt || { cat eval.txt >&2; fail "poker eval did not rank mine"; }
    grep -q 'total: [1-9]' eval.txt || { cat eval.txt >&2; fail "poker eval scored mine 0"; }
)
rm -rf "$work"
for file in /usr/share/man/man1/poker.1.gz /usr/share/man/man1/poker-eval.1.gz \
    /usr/share/bash-completion/completions/poker /usr/include/poker.h /usr/lib/libpoker.a; do
    [ -f "$file" ] || fail "the package did not install $file"
done
zcat /usr/share/man/man1/poker-eval.1.gz | grep -qF 'time\-limit' || fail "poker-eval.1 lacks --time-limit"

files=$(dpkg -L libpoker | while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done)
dpkg -r libpoker
trap - EXIT
for file in $files; do
    [ ! -e "$file" ] && [ ! -L "$file" ] || fail "dpkg -r left $file"
done
dpkg-query -W -f='${Status}' libpoker 2>/dev/null | grep -q 'install ok installed' && fail "still installed"
echo "deb check: $deb built, lintian clean of errors, installed, used and removed" >&2
