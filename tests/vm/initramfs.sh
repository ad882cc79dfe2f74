#!/bin/bash
# Build a small busybox initramfs for one kernel of a build root: just the
# modules needed to mount the root over 9p (or virtiofs, for a kernel
# without 9p: targets.sh's kernel_shares) with a tmpfs overlay on top.
#
#   initramfs.sh SUITE KVER     prints the path of the cpio archive
#
# The guest's /init mounts the build root read-only over virtio-9p, the job
# directory read-write at /job, and switch_roots into /job/pid1.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
suite=${1:?usage: initramfs.sh SUITE KVER}
kver=${2:?usage: initramfs.sh SUITE KVER}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=${VM_ROOT:-$cache/roots/$suite}
out=$cache/initramfs/$suite-$kver.cpio
# A root being made (mkroot-arm64.sh's second stage) has no recipe yet:
# its initramfs is made anew each time.
recipe=$root/.clusterswap-recipe
[ -f "$recipe" ] || recipe=/proc/sys/kernel/random/uuid
stamp=$(cat "$recipe" "$here/initramfs.sh" "$here/init" "$here/targets.sh" |
	sha256sum | cut -c1-16)

if [ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$out"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,dev,proc,sys,lower,upper,newroot,lib/mod} "$(dirname "$out")"
cp "$root/bin/busybox" "$tmp/bin/busybox"
cp "$here/init" "$tmp/init"
chmod +x "$tmp/init"

# Modules in load order, decompressed (busybox insmod takes plain .ko); a
# module built into the kernel is left out (modprobe says "builtin").
case $(kernel_shares "$kver") in
virtiofs) modules="virtio_pci virtiofs overlay" ;;
*) modules="virtio_pci 9pnet_virtio 9p overlay" ;;
esac
arch=$(target_arch "$kver")
# An arm64 root is made on a disk (mkroot-arm64.sh).
[ "$arch" = arm64 ] && modules="$modules virtio_blk ext4"
# The host's modprobe reads another architecture's module tree (-d).
for m in $modules; do
	if [ "$arch" = arm64 ]; then
		modprobe -d "$root" -S "$kver" --show-depends "$m"
	else
		chroot "$root" modprobe -S "$kver" --show-depends "$m"
	fi
done | awk '$1 == "insmod" && !seen[$2]++ {print $2}' >"$tmp/mods.txt"
: >"$tmp/lib/mod/order"
while read -r path; do
	path=${path#"$root"}
	name=$(basename "$path")
	case $name in
	*.ko.xz) xz -dc "$root$path" >"$tmp/lib/mod/${name%.xz}"; name=${name%.xz} ;;
	*.ko.zst) zstd -qdc "$root$path" >"$tmp/lib/mod/${name%.zst}"; name=${name%.zst} ;;
	*) cp "$root$path" "$tmp/lib/mod/$name" ;;
	esac
	echo "$name" >>"$tmp/lib/mod/order"
done <"$tmp/mods.txt"
rm "$tmp/mods.txt"

(cd "$tmp" && find . | cpio -o -H newc --quiet) >"$out.new.$$"
mv "$out.new.$$" "$out"
echo "$stamp" >"$out.stamp"
echo "$out"
