#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Give the trixie build root what building clusterswap for Debian 13's arm64
# kernels takes, beside its amd64 ones: the compiler those kernels were
# built with (gcc-14-aarch64-linux-gnu, an amd64 package of trixie), with
# the arm64 C library for the test programs (libc6-dev-arm64-cross), and
# their headers, of the same ABI as the root's amd64 kernel.
#
#   root-cross.sh            prints the arm64 kernel releases built for
#
# Debian's arm64 headers name their compiler themselves (.kernelvariables:
# ARCH=arm64, CROSS_COMPILE=aarch64-linux-gnu-, gcc-14), and their scripts/
# link to the root's linux-kbuild, whose host tools run here: so build.sh
# builds for such a kernel as for any other.  The headers are unpacked
# without dpkg (apt in an amd64 root cannot install an arm64 package of the
# same name as an amd64 one); the stamp names what was unpacked.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/trixie
log=$cache/roots/trixie.cross.log

"$here/mkroot.sh" trixie >&2
abi=$(root_kernel "$root")
abi=${abi%-amd64}
flavours="arm64 cloud-arm64"
packages="gcc-14-aarch64-linux-gnu libc6-dev-arm64-cross"
stamp=$root/.clusterswap-cross
want="$abi $flavours $packages $(cat "$root/.clusterswap-recipe")"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	exec 9>"$cache/roots/trixie.lock"
	flock 9
	: >"$log"
	echo "root-cross: installing $packages into the trixie root" >&2
	install_cc() {
		DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq \
			--no-install-recommends $packages >>"$log" 2>&1
	}
	install_cc || { chroot "$root" apt-get update -qq >>"$log" 2>&1 && install_cc; } ||
		{ tail -n 20 "$log" >&2; exit 1; }
	chroot "$root" apt-get clean
	for flavour in $flavours; do
		deb=$("$here/deb-fetch.sh" debian-security trixie-security arm64 \
			"linux-headers-$abi-$flavour" "$cache/arm64") ||
			{ echo "root-cross: trixie-security has no $flavour headers of the root's ABI $abi (rebuild the root: rm -rf $root)" >&2; exit 1; }
		rm -rf "$root/usr/src/linux-headers-$abi-$flavour"
		dpkg-deb -x "$deb" "$root"
	done
	echo "$want" >"$stamp"
fi
for flavour in $flavours; do
	echo "$abi-$flavour"
done
