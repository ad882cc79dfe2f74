#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Audit a Debian arm64 kernel image on the host (tests/host/arm64_audit.py):
# the binary layout the module relies on, before any arm64 guest runs.
#
#   tests/host/arm64-audit.sh ARCHIVE SUITE ABI LINE
#   e.g. tests/host/arm64-audit.sh debian-security trixie-security 6.12.118+deb13 6.12
#        tests/host/arm64-audit.sh debian-security bookworm-security 6.1.0-57 6.1
#
# ARCHIVE is debian or debian-security (its URI is read from apt's own
# configuration by tests/vm/mirror.sh); linux-image-ABI-arm64-dbg
# (vmlinux with symbols) and -unsigned (its config) in SUITE are fetched into
# the cache, checked against the Packages index's SHA256, and only their
# boot/ folders unpacked.  Needs binutils-aarch64-linux-gnu; llvm-dwarfdump
# is used when present.  Prints the audit; exits 1 if a check failed.
set -euo pipefail
[ $# = 4 ] || { sed -n 5,8p "$0" >&2; exit 2; }
archive=$1 suite=$2 abi=$3 line=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}/arm64-audit
mkdir -p "$cache"
command -v aarch64-linux-gnu-objdump >/dev/null ||
	apt-get install -y -qq binutils-aarch64-linux-gnu >/dev/null

# fetch PACKAGE: PACKAGE of SUITE, checked, into the cache; prints its path.
fetch() {
	"$top/tests/vm/deb-fetch.sh" "$archive" "$suite" arm64 "$1" "$cache"
}

dbg=$(fetch "linux-image-$abi-arm64-dbg")
unsigned=$(fetch "linux-image-$abi-arm64-unsigned")
tree=$cache/$abi-arm64
if ! [ -d "$tree/boot" ]; then
	mkdir -p "$tree"
	dpkg-deb --fsys-tarfile "$dbg" | tar -x -C "$tree" ./usr/lib/debug/boot/
	dpkg-deb --fsys-tarfile "$unsigned" | tar -x -C "$tree" --wildcards './boot/config-*'
fi
echo "arm64-audit: $(basename "$dbg")"
python3 "$top/tests/host/arm64_audit.py" \
	--vmlinux "$(ls "$tree"/usr/lib/debug/boot/vmlinux-*)" \
	--config "$(ls "$tree"/boot/config-*)" \
	--functions "$top/tests/host/arm64-audit/functions-$line.txt" --verbose
