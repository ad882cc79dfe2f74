#!/bin/bash
# Unpack parts of Debian's linux-source package of a suite into the cache:
# checkpatch.pl (with its data files) and the swap code, for reading and for
# the style check.  Prints the directory.  The package is fetched by
# deb-fetch.sh (checked against the suite's index), so no build root is
# needed: a run that builds only bookworm's still has 6.12's checkpatch.
#
#   kernel-source.sh SUITE        (trixie: linux-source-6.12, bookworm: -6.1)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
suite=${1:?usage: kernel-source.sh SUITE}
case $suite in
trixie) pkg=linux-source-6.12 zswap=zswap.h ;;
bookworm) pkg=linux-source-6.1 zswap=frontswap.h ;;
*) echo "kernel-source.sh: unknown suite $suite" >&2; exit 2 ;;
esac
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
dir=$cache/src/$pkg
debs=$cache/src/debs-$pkg
if [ -f "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir" "$debs"
mkdir -p "$dir"
deb=$("$top/tests/vm/deb-fetch.sh" "$suite" amd64 "$pkg" "$debs")
dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -xJ -C "$dir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch' \
		'*/mm/*' '*/include/linux/swap*.h' "*/include/linux/$zswap"
rm -rf "$debs"
touch "$dir/.done"
echo "$dir"
