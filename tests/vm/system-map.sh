#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The System.map of a Debian kernel whose kallsyms lists no variables (one
# built without KALLSYMS_ALL: Debian's arm64 6.1), for the guest test that
# checks every symbol the module resolved against it
# (resolved_symbols_match_the_symbol_table; elsewhere /proc/kallsyms is
# that table).  Debian's image package ships a placeholder System.map: the
# real one is in the image's -dbg package (800 MB for arm64 6.1), fetched
# once, its map kept in the cache and the package dropped.
#
#   system-map.sh ROOT KVER   prints the map's path, or nothing where the
#                             kernel's kallsyms lists its variables
set -euo pipefail
[ $# = 2 ] || { sed -n 11,12p "$0" >&2; exit 2; }
root=$1 kver=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
config=$cache/roots/$root/boot/config-$kver
[ -r "$config" ] || { echo "system-map: no $config" >&2; exit 1; }
grep -q '^CONFIG_KALLSYMS_ALL=y' "$config" && exit 0

dir=$cache/system-maps
map=$dir/System.map-$kver
mkdir -p "$dir"
# One fetch at a time: two suites of one kernel may run side by side.
exec 9>"$map.lock"
flock 9
if ! [ -s "$map" ]; then
	echo "system-map: fetching linux-image-$kver-dbg for its System.map" >&2
	deb=$("$here/deb-fetch.sh" "$(target_suite "$root")" "$(target_arch "$root")" \
		"linux-image-$kver-dbg" "$dir")
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -O --wildcards "./usr/lib/debug/boot/System.map-$kver" >"$map.part"
	rm -f "$deb"
	[ -s "$map.part" ] || { echo "system-map: $deb holds no System.map-$kver" >&2; exit 1; }
	mv "$map.part" "$map"
fi
echo "$map"
