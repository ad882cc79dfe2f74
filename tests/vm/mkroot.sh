#!/bin/bash
# Build (or reuse) the Debian build root of one target (targets.sh).
#
#   mkroot.sh trixie|bookworm|bookworm-612   (or a target booting one of
#                                             them: trixie-cloud, ...)
#   mkroot.sh trixie-arm64|bookworm-arm64    an arm64 target's own root
#                                             (mkroot-arm64.sh; named by
#                                             its cloud target,
#                                             trixie-arm64-cloud, with the
#                                             cloud kernel too)
#
# The root lives outside the repository, in $CLUSTERSWAP_CACHE/roots/ROOT
# (default ~/.cache/clusterswap). It holds the target's kernel images and
# headers (the generic flavour's, and but for bookworm-612 the cloud
# flavour's) from its suite and the suite's security updates (what users
# really run), the compiler those headers were built with, dkms, and the
# tools the in-VM suite uses.  The same tree is the guest's root file system
# (read-only over 9p or virtiofs).
#
# The mirror is read from this machine's apt configuration; nothing is added to
# the host's apt sources. A root is rebuilt only when it is missing or when its
# recipe changes: the stamp holds the hash of what goes into it (the suite,
# the package lists, the steps' version below), so that editing comments or
# adding a target does not rebuild the others.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
target=$(target_root "${1:?usage: mkroot.sh TARGET}")
# An arm64 root is made in two stages, the second in a guest.
[ "$(target_arch "$target")" = arm64 ] && exec "$here/mkroot-arm64.sh" "$1"
suite=$(target_suite "$target") || { echo "mkroot.sh: no recipe for '$target'" >&2; exit 2; }
kernel_packages=$(target_kernel_packages "$target")

cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$target
# The kernel comes in the second step, from the security suite too.
packages=gcc,make,libc6-dev,dkms,kmod,initramfs-tools
packages=$packages,util-linux,procps,busybox-static,zstd,cpio,xz-utils,e2fsprogs,openssl
# Bump when the steps below change what a root holds.
steps=2
recipe=$(echo "$suite|$packages|$kernel_packages|$steps" | sha256sum | cut -c1-16)
stamp=$root/.clusterswap-recipe

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$recipe" ]; then
	exit 0
fi
# One build of a root at a time (make check's lanes may each ask for the
# trixie root, through emulator.sh): the next one finds it built.
mkdir -p "$cache/roots"
exec 9>"$cache/roots/$target.lock"
flock 9
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$recipe" ]; then
	exit 0
fi

mirror=$("$here/mirror.sh" debian)
security=$("$here/mirror.sh" debian-security)
tmp=$root.new

cleanup() {
	for m in dev/pts dev proc sys; do
		mountpoint -q "$tmp/$m" 2>/dev/null && umount -l "$tmp/$m"
	done
	return 0
}
trap cleanup EXIT

echo "mkroot: debootstrap $suite from the host's mirror into $tmp"
rm -rf --one-file-system "$tmp"
debootstrap --variant=minbase --include="$packages" "$suite" "$tmp" "$mirror" \
	>"$cache/roots/$target.debootstrap.log" 2>&1 || {
	tail -n 30 "$cache/roots/$target.debootstrap.log" >&2
	exit 1
}

# The suite's security updates carry the kernel users actually boot.
cat >"$tmp/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $security $suite-security main
SOURCES
mount -t proc proc "$tmp/proc"
mount --bind /sys "$tmp/sys"
mount --bind /dev "$tmp/dev"
mount --bind /dev/pts "$tmp/dev/pts"
echo "mkroot: $suite-security kernel and headers ($kernel_packages)"
chroot "$tmp" apt-get update -qq
DEBIAN_FRONTEND=noninteractive chroot "$tmp" apt-get install -y -qq --no-install-recommends \
	$kernel_packages >"$cache/roots/$target.security.log" 2>&1 || {
	tail -n 30 "$cache/roots/$target.security.log" >&2
	exit 1
}
chroot "$tmp" apt-get clean
cleanup

rm -rf "$root"
mv "$tmp" "$root"
echo "$recipe" >"$stamp"
echo "mkroot: $target ready: kernels $(ls "$root/lib/modules" | tr '\n' ' ')"
