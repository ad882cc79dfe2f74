#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) the root of an arm64 target (mkroot.sh calls this for
# it): the root file system of its arm64 guests, booting its suite's arm64
# kernel of the ABI of the suite's amd64 root (targets.sh:
# target_build_root), the one whose headers root-cross.sh gives that root
# for cross builds.  trixie-arm64 boots Debian 13's 6.12, bookworm-arm64
# Debian 12's 6.1; what differs between the suites (package names, the
# archives an ABI is in) is targets.sh's.  Named by a cloud target
# (trixie-arm64-cloud, bookworm-arm64-cloud), the root also holds its ABI's
# cloud-arm64 kernel, which those targets boot; a root made so serves the
# generic target too, and one made without it is made again for a cloud
# target (as any root whose recipe changed: not while guests boot it).  A
# run that boots no cloud kernel does not install one under emulation.
#
#   mkroot-arm64.sh TARGET          trixie-arm64, bookworm-arm64, or their
#                                   -cloud targets
#   mkroot-arm64.sh TARGET stage1   only the first stage (downloads and
#                                   unpacking on the host, no guest): it
#                                   may run beside guests, which the
#                                   second stage may not
#
# The host cannot run arm64 programs (and the project does not rely on its
# binfmt_misc), so the root is made in two stages:
#  1. here: debootstrap --download-only fetches the packages the guests
#     use, with every package they depend on (debootstrap resolves that
#     natively), and debootstrap --foreign unpacks the minimal base system
#     from the same downloads; the kernel image, headers, common headers
#     and kbuild of the ABI are fetched from the suite's archives
#     (deb-fetch.sh: its security updates, or the suite itself), and the
#     image is unpacked so that the guest can boot it;
#  2. in an arm64 guest booted on that kernel, with the root as its disk
#     (an ext4 image made from the first stage's tree by mke2fs -d;
#     run-vm.sh, VM_ROOT_DISK): debootstrap --second-stage installs the
#     minimal system, then apt installs the rest from the downloaded files.
#     The image is then unpacked here (debugfs rdump, owners and modes
#     kept) into the root the guests share read-only, as every other root.
# The guest has no network: everything it installs was fetched here.
# Where the time goes under emulation: over a shared folder instead of a
# disk, the second stage took over half an hour (every file dpkg writes, a
# round trip to the host); and with the extra packages in debootstrap's
# own list, its second stage ran its shell and perl dependency lookups over
# the whole arm64 Packages list, again for every pre-dependency, for over
# half an hour more.  apt resolves the same dependencies natively, from the
# index debootstrap left in the root; it finds each package among the
# downloads (the root's own archives, which nothing cleans before it runs,
# and the copies beside them), so it needs no network.
set -euo pipefail
usage() {
	echo "usage: mkroot-arm64.sh trixie-arm64[-cloud]|bookworm-arm64[-cloud] [stage1]" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
case ${1:-} in
*-arm64) with_cloud= ;;
*-arm64-cloud) with_cloud=1 ;;
*) usage ;;
esac
target=$(target_root "$1")
case ${2:-} in
'' | stage1) ;;
*) usage ;;
esac
suite=$(target_suite "$target") || usage
# The amd64 root of the same suite: its kernel's ABI is the one booted here.
build_root=$(target_build_root "$target")
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$target
log=$cache/roots/$target

"$here/mkroot.sh" "$build_root" >&2
abi=$(root_kernel "$cache/roots/$build_root")
abi=${abi%-amd64}
kver=$abi-arm64
cloud_kver=$abi-cloud-arm64
kvers="$kver${with_cloud:+ $cloud_kver}"
# kernel_packages [cloud]: the root's kernel packages, with the cloud
# kernel's when asked.
kernel_packages() {
	echo "linux-image-$kver linux-headers-$kver linux-headers-$abi-common" \
		${1:+"linux-image-$cloud_kver" "linux-headers-$cloud_kver"} \
		"$(suite_kbuild_package "$suite" "$abi")"
}
kernel_packages=$(kernel_packages $with_cloud)
# What the guests use (mkroot.sh's list, root-warm.sh's ccache and python3),
# and what the kernel packages depend on.
packages=gcc,make,libc6-dev,dkms,kmod,initramfs-tools
packages=$packages,util-linux,procps,busybox-static,zstd,cpio,xz-utils,e2fsprogs,openssl
packages=$packages,ccache,python3,$(suite_kernel_deps "$suite" | tr ' ' ,)
# Bump when the steps below change what the root holds.
steps=3
# recipe KERNEL_PACKAGES: the hash of what goes into a root.
recipe() {
	echo "arm64|$suite|$packages|$1|$steps" | sha256sum | cut -c1-16
}
recipe=$(recipe "$kernel_packages")
# The recipes this run can use: its own, and for a generic target the one
# with the cloud kernel too.
usable=$recipe
[ -n "$with_cloud" ] || usable="$usable $(recipe "$(kernel_packages cloud)")"
stamp=$root/.clusterswap-recipe
# made: whether the root was made by a recipe this run can use.
made() {
	[ -s "$stamp" ] && [[ " $usable " == *" $(cat "$stamp") "* ]]
}
made && exit 0
mkdir -p "$cache/roots"
exec 9>"$cache/roots/$target.lock"
flock 9
made && exit 0

mirror=$("$here/mirror.sh" debian)
tmp=$root.new
# The packages the second stage installs beside the minimal system, in the
# root, so that the guest finds them on its disk: with apt, and the kernel's
# with dpkg (apt 3.0 stops with "Pathname to install is not absolute" on a
# local kernel package that its index has in another version).
debs=var/cache/clusterswap-debs
kernel_debs=var/cache/clusterswap-kernel
# stage1: debootstrap's first stage and the kernel packages, into $tmp.
stage1() {
	local p deb
	rm -rf --one-file-system "$tmp"
	echo "mkroot: debootstrap --download-only $suite arm64 ($packages) from the host's mirror"
	debootstrap --download-only --arch=arm64 --variant=minbase --include="$packages" "$suite" "$tmp" \
		"$mirror" >"$log.debootstrap.log" 2>&1 || {
		tail -n 30 "$log.debootstrap.log" >&2
		exit 1
	}
	mkdir -p "$tmp/$debs"
	while read -r _ deb; do
		ln "$tmp/$deb" "$tmp/$debs/"
	done <"$tmp/debootstrap/debpaths"
	echo "mkroot: debootstrap --foreign $suite arm64, the minimal system, into $tmp"
	rm -rf --one-file-system "$tmp/debootstrap"
	# It finds its packages downloaded above (checked, not fetched again).
	debootstrap --foreign --arch=arm64 --variant=minbase "$suite" "$tmp" \
		"$mirror" >>"$log.debootstrap.log" 2>&1 || {
		tail -n 30 "$log.debootstrap.log" >&2
		exit 1
	}
	command -v depmod >/dev/null || apt-get install -y -qq --no-install-recommends kmod >/dev/null
	mkdir -p "$tmp/$kernel_debs"
	for p in $kernel_packages; do
		deb=$("$here/deb-fetch.sh" "$suite" arm64 "$p" "$cache/arm64") ||
			{ echo "mkroot: no $p for the $build_root root's ABI $abi (rebuild that root: rm -rf $cache/roots/$build_root)" >&2; exit 1; }
		cp "$deb" "$tmp/$kernel_debs/"
	done
	# What the first boot needs before dpkg has run: the kernel and its
	# modules, their dependency lists (the host's depmod reads arm64 modules
	# as well), and busybox for the initramfs (initramfs.sh).
	# Through the tree's merged-/usr links: bookworm's packages ship ./lib
	# and ./bin (targets.sh: deb_unpack).
	for deb in "$tmp/$kernel_debs/linux-image-${kver}"_*.deb \
		"$tmp"/var/cache/apt/archives/busybox-static_*.deb; do
		deb_unpack "$deb" "$tmp"
	done
	depmod -b "$tmp" "$kver"
	cat >"$tmp/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $("$here/mirror.sh" debian-security) $suite-security main
SOURCES
	# dpkg syncs every file it unpacks; the image is thrown away if the
	# stage fails, so nothing is lost by not syncing.  The file goes at the
	# end.
	echo force-unsafe-io >"$tmp/etc/dpkg/dpkg.cfg.d/clusterswap-stage2"
	echo "$recipe" >"$tmp/.clusterswap-stage1"
}
# A first stage done for this recipe is kept when the second fails.
[ "$(cat "$tmp/.clusterswap-stage1" 2>/dev/null)" = "$recipe" ] || stage1
[ "${2:-}" = stage1 ] && exit 0

# Stage 2, in the guest.
job=$cache/jobs/$target-stage2
rm -rf "$job"
mkdir -p "$job"
echo "debs=/$debs kernel_debs=/$kernel_debs" >"$job/run.sh"
cat >>"$job/run.sh" <<'STAGE2'
set -e
# pid1.sh's mount of /proc uses the root's mount, which is not set up yet.
/bin/busybox mount -t proc proc /proc 2>/dev/null || true
# What runs, every minute, for a reader of a stage that takes long.
(while sleep 60; do
	echo "stage2: $(/bin/busybox uptime)"
	/bin/busybox top -b -n 1 | /bin/busybox head -n 12
done) &
echo "stage2: debootstrap --second-stage"
/debootstrap/debootstrap --second-stage
echo "stage2: the packages the guests use"
# apt picks what is not installed yet; the guest has no network.
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends --no-download "$debs"/*.deb
echo "stage2: the kernel's packages"
# With no initramfs of its own (INITRD=No, which the kernel's postinst hook
# of initramfs-tools reads): the guests boot with the harness's
# (initramfs.sh), and making one took about 4 minutes under emulation.
INITRD=No DEBIAN_FRONTEND=noninteractive dpkg -i "$kernel_debs"/*.deb
rm -rf "$debs" "$kernel_debs" /etc/dpkg/dpkg.cfg.d/clusterswap-stage2
apt-get clean
# What root-warm.sh does for the other roots: apt's package cache, so
# that apt in the guests need not parse every list again.
apt-cache gencaches
echo "stage2: done"
kill $! 2>/dev/null || true
STAGE2
img=$root.img
rm -f "$img"
mke2fs -q -t ext4 -d "$tmp" "$img" 4G
echo "mkroot: debootstrap --second-stage and the kernel in an arm64 guest (several minutes under TCG)"
# About 7 minutes with both cores; make check runs it beside the amd64
# guests at the lowest priority (check.sh: arm64_prep), where it may wait
# most of an hour for them: the limit is for a guest that hangs.
VM_ROOT=$tmp VM_ROOT_DISK=$img VM_MEM=2G VM_PAUTH=off "$here/run-vm.sh" "$target" "$kver" "$job" 7200 ||
	{ cat "$job/out/console.log" >&2 2>/dev/null || true; rm -f "$img"; exit 1; }
cp "$job/out/console.log" "$log.stage2.log"
if [ "$(cat "$job/out/rc")" != 0 ]; then
	tail -n 30 "$job/out/console.log" >&2
	echo "mkroot: the second stage in the guest failed" >&2
	rm -f "$img"
	exit 1
fi
done=$root.done
rm -rf --one-file-system "$done"
mkdir "$done"
debugfs -R "rdump / $done" "$img" >"$log.rdump.log" 2>&1
rm -f "$img"
rmdir "$done/lost+found"
for k in $kvers; do
	if ! [ -f "$done/boot/vmlinuz-$k" ] || ! [ -d "$done/usr/src/linux-headers-$k" ]; then
		echo "mkroot: the root has no kernel $k or its headers after the second stage" >&2
		exit 1
	fi
done
rm -rf --one-file-system "$root" "$tmp"
rm "$done/.clusterswap-stage1"
mv "$done" "$root"
echo "$recipe" >"$stamp"
echo "mkroot: $target ready: kernels $kvers"
