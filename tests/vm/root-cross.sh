#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Give an amd64 build root what building clusterswap for its suite's arm64
# kernels takes, beside its amd64 ones: the compiler those kernels were
# built with, as a cross compiler (an amd64 package of the suite:
# gcc-14-aarch64-linux-gnu in trixie, gcc-12-aarch64-linux-gnu in
# bookworm), with the arm64 C library for the test programs
# (libc6-dev-arm64-cross), and their headers, of the same ABI as the root's
# amd64 kernel: the arm64 flavour's, and cloud-arm64's where the archive
# has it.  What differs between the suites is targets.sh's.
#
#   root-cross.sh [ROOT]     ROOT: trixie (the default) or bookworm; prints
#                            the arm64 kernel releases built for
#
# Debian's arm64 headers name their compiler (.kernelvariables: ARCH=arm64,
# CC=$(CROSS_COMPILE)gcc-14 or gcc-12): trixie's set CROSS_COMPILE to
# aarch64-linux-gnu- themselves, bookworm's to $(DEB_HOST_GNU_TYPE)- where
# dpkg-architecture's DEB_BUILD_ARCH and DEB_HOST_ARCH differ, which
# build.sh sets for them (targets.sh: cross_make_env).  Their scripts/ and
# tools/ link to the root's linux-kbuild (per ABI in trixie, linux-kbuild-6.1
# in bookworm), whose host tools run here, and they include the common
# headers (arch all): dpkg installed both with the root's amd64 headers,
# and needs_in_root checks their versions against the arm64 headers' own
# dependencies.  Debian 12's cross compiler is older than its arm64
# kernels' (12.2.0-14 against 12.2.0-14+deb12u1, which fixed the AArch64
# stack protector, CVE-2023-4039, by moving the saved registers above the
# canary): the functions the stack protector instruments come out laid out
# differently from a build on a Debian 12 arm64 system (docs/testing.md),
# so the suite builds the module its tests load in the guest there
# (guest-build.sh); the cross build serves the gate check and test builds.
# The headers are unpacked without dpkg (apt in an amd64 root cannot
# install an arm64 package of the same name as an amd64 one), through the
# root's merged-/usr links (targets.sh: deb_unpack); the stamp names what
# was unpacked.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
name=${1:-trixie}
case $name in
trixie | bookworm) ;;
*) echo "usage: root-cross.sh [trixie|bookworm]" >&2; exit 2 ;;
esac
suite=$(target_suite "$name")
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$name
log=$cache/roots/$name.cross.log

"$here/mkroot.sh" "$name" >&2
abi=$(root_kernel "$root")
abi=${abi%-amd64}
flavours="arm64 cloud-arm64"
packages=$(suite_cross_packages "$suite" arm64)
stamp=$root/.clusterswap-cross

# needs_in_root DEB: the packages of the root that an arm64 headers package
# DEB depends on and uses from there, with dpkg's view of them: the common
# headers (arch all, the amd64 headers' own) and the kbuild its scripts/
# and tools/ link to, each at a version it accepts.  Its other dependencies
# (the compiler, linux-base) are the arm64 system's, not the root's.
needs_in_root() {
	local dep pkg op ver have
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/ *$//' |
		{ grep -E '^linux-(kbuild-|headers-.*-common)' || true; } | while read -r dep; do
		pkg=${dep%% *}
		have=$(chroot "$root" dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null) || true
		[ -n "$have" ] || { echo "root-cross: $(basename "$1") needs $dep, which the $name root does not have" >&2; return 1; }
		case $dep in
		*"("*)
			op=$(echo "$dep" | sed 's/.*(\([<>=]*\) *\(.*\))/\1/')
			ver=$(echo "$dep" | sed 's/.*(\([<>=]*\) *\(.*\))/\2/')
			dpkg --compare-versions "$have" "$op" "$ver" ||
				{ echo "root-cross: $(basename "$1") needs $dep, the $name root has $have (rebuild the root: rm -rf $root)" >&2; return 1; }
			;;
		esac
	done
}

want="$abi $flavours $packages $(cat "$root/.clusterswap-recipe")"
# One install at a time: another run of this script (two suites side by
# side) may have made it while this one waited for the lock.
installed() {
	[ "$(cat "$stamp" 2>/dev/null)" = "$want" ]
}
if ! installed; then
	exec 9>"$cache/roots/$name.lock"
	flock 9
fi
if ! installed; then
	: >"$log"
	echo "root-cross: installing $packages into the $name root" >&2
	install_cc() {
		DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq \
			--no-install-recommends $packages >>"$log" 2>&1
	}
	install_cc || { chroot "$root" apt-get update -qq >>"$log" 2>&1 && install_cc; } ||
		{ tail -n 20 "$log" >&2; exit 1; }
	chroot "$root" apt-get clean
	for flavour in $flavours; do
		rm -rf "$root/usr/src/linux-headers-$abi-$flavour"
		if ! deb=$("$here/deb-fetch.sh" "$suite" arm64 "linux-headers-$abi-$flavour" "$cache/arm64"); then
			# The generic flavour is what the arm64 target boots.
			[ "$flavour" = arm64 ] &&
				{ echo "root-cross: $suite has no $flavour headers of the root's ABI $abi (rebuild the root: rm -rf $root)" >&2; exit 1; }
			echo "root-cross: no $flavour headers of $abi in $suite: not built for" >&2
			continue
		fi
		needs_in_root "$deb"
		deb_unpack "$deb" "$root"
		for l in scripts tools; do
			[ -d "$root/usr/src/linux-headers-$abi-$flavour/$l/" ] || {
				echo "root-cross: the $flavour headers' $l/ links to $(readlink "$root/usr/src/linux-headers-$abi-$flavour/$l"), which the $name root does not have" >&2
				exit 1
			}
		done
	done
	echo "$want" >"$stamp"
fi
for flavour in $flavours; do
	if [ -d "$root/usr/src/linux-headers-$abi-$flavour" ]; then
		echo "$abi-$flavour"
	fi
done
