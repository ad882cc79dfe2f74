#!/bin/bash
# Make a build root quicker to use inside the guest, where every process runs
# on an emulated CPU, without changing what it holds as mkroot.sh made it:
#
#  - apt's package cache (pkgcache.bin), which "apt-get clean" in mkroot.sh
#    removed: without it every apt command in the guest parses the whole
#    package lists again (the package test runs apt twice);
#  - python3, which the in-VM tests of tools/clusterswap-top run it with (the
#    Debian package recommends it);
#  - ccache, and the cache directory $CLUSTERSWAP_CACHE/ccache/SUITE, which
#    run-vm.sh shares with the guest.  The guest's pid1.sh mounts it and sets
#    DEBIAN_KERNEL_USE_CCACHE=1: the switch Debian's own kernel headers read
#    (.kernelvariables) to put ccache in front of the kernel's compiler.  A
#    hit gives the object file that compiler made from the same preprocessed
#    source; everything else (Kbuild, modpost, dkms, signing) runs as usual.
#
#   root-warm.sh SUITE
set -euo pipefail
suite=${1:?usage: root-warm.sh SUITE}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$suite
log=$cache/roots/$suite.warm.log
[ -d "$root/usr" ] || { echo "root-warm.sh: no build root for $suite" >&2; exit 1; }
mkdir -p "$cache/ccache/$suite"
# An arm64 root was made with these in its guest (mkroot-arm64.sh).
case $suite in *-arm64) exit 0 ;; esac
[ -x "$root/usr/bin/ccache" ] && [ -x "$root/usr/bin/python3" ] &&
	[ -f "$root/var/cache/apt/pkgcache.bin" ] && exit 0

mount -t proc proc "$root/proc"
trap 'umount -l "$root/proc"' EXIT
if [ ! -x "$root/usr/bin/ccache" ] || [ ! -x "$root/usr/bin/python3" ]; then
	echo "root-warm: installing ccache and python3 into the $suite root"
	install_tools() {
		DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq \
			--no-install-recommends ccache python3 >>"$log" 2>&1
	}
	: >"$log"
	install_tools || { chroot "$root" apt-get update -qq >>"$log" 2>&1 && install_tools; } ||
		{ tail -n 20 "$log" >&2; exit 1; }
	chroot "$root" apt-get clean
fi
chroot "$root" apt-cache gencaches >>"$log" 2>&1 || { tail -n 20 "$log" >&2; exit 1; }
