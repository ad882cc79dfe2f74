#!/bin/bash
# Unpack parts of Debian's linux-source package of a suite into the cache:
# checkpatch.pl (with its data files) and the swap code, for reading and for
# the style check.  Prints the directory.
#
#   kernel-source.sh SUITE        (trixie: linux-source-6.12, bookworm: -6.1)
set -euo pipefail
suite=${1:?usage: kernel-source.sh SUITE}
case $suite in
trixie) pkg=linux-source-6.12 zswap=zswap.h ;;
bookworm) pkg=linux-source-6.1 zswap=frontswap.h ;;
*) echo "kernel-source.sh: unknown suite $suite" >&2; exit 2 ;;
esac
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$suite
dir=$cache/src/$pkg
if [ -f "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir" "$root/tmp/src-$pkg"
mkdir -p "$dir" "$root/tmp/src-$pkg"
chroot "$root" sh -c "cd /tmp/src-$pkg && apt-get download -q -o APT::Sandbox::User=root $pkg" >/dev/null
deb=$(ls "$root/tmp/src-$pkg"/*.deb)
dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -xJ -C "$dir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch' \
		'*/mm/*' '*/include/linux/swap*.h' "*/include/linux/$zswap"
rm -rf "$root/tmp/src-$pkg"
touch "$dir/.done"
echo "$dir"
