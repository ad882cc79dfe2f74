#!/bin/bash
# Give a build root's guests a compiler cache for the module builds they run
# (DKMS, the Debian package, make demo), which the emulated CPU makes slow:
# about 3 minutes for a cold build, a fraction of that from a warm cache.
#
#   compiler-cache.sh SUITE
#
# Installs ccache into the root if it is not there (the root stays as mkroot.sh
# made it otherwise) and makes the cache directory, $CLUSTERSWAP_CACHE/ccache/
# SUITE, which run-vm.sh shares with the guest.  The guest's pid1.sh mounts it
# and sets DEBIAN_KERNEL_USE_CCACHE=1: the switch Debian's own kernel headers
# read (.kernelvariables) to put ccache in front of the kernel's compiler.  A
# cache hit gives the object file that compiler made from the same
# preprocessed source; everything else (Kbuild, modpost, dkms) runs as usual.
set -euo pipefail
suite=${1:?usage: compiler-cache.sh SUITE}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$suite
[ -d "$root/usr" ] || { echo "compiler-cache.sh: no build root for $suite" >&2; exit 1; }
mkdir -p "$cache/ccache/$suite"
[ -x "$root/usr/bin/ccache" ] && exit 0
echo "compiler-cache: installing ccache into the $suite root"
mount -t proc proc "$root/proc"
trap 'umount -l "$root/proc"' EXIT
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends \
	ccache >"$cache/roots/$suite.ccache.log" 2>&1 || {
	chroot "$root" apt-get update -qq >>"$cache/roots/$suite.ccache.log" 2>&1
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends \
		ccache >>"$cache/roots/$suite.ccache.log" 2>&1
} || { tail -n 20 "$cache/roots/$suite.ccache.log" >&2; exit 1; }
chroot "$root" apt-get clean
