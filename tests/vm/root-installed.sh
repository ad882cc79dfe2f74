#!/bin/bash
# A build root with clusterswap installed the way a user installs it, done on
# the host (natively, as a kernel package's postinst runs in a chroot)
# instead of under emulation in the guest, where DKMS, apt and depmod cost
# minutes.  The root itself is not changed: the install goes into an overlay
# over it, which the guest then boots as its root.
#
#   root-installed.sh mount SUITE KVER deb DEB      apt install ./DEB
#   root-installed.sh mount SUITE KVER dkms SRCDIR  dkms add + install of SRCDIR
#   root-installed.sh umount SUITE
#
# "mount" prints the overlay's path (the guest's root) on its last line.  As
# on a user's machine, only the booted kernel KVER has headers in it (the
# build root also carries its suite's older kernel for host-side builds).
# The dkms form also proves, in the chroot, that DKMS refuses to build for a
# kernel outside the supported lines (BUILD_EXCLUSIVE_KERNEL), leaving nothing.
set -euo pipefail
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
cmd=${1:?usage: root-installed.sh mount|umount SUITE ...}
suite=${2:?usage}
root=$cache/roots/$suite
base=$cache/installed/$suite
merged=$base/merged

unmount() {
	for m in "$merged/dev" "$merged/sys" "$merged/proc" "$merged"; do
		if mountpoint -q "$m"; then
			umount -l "$m"
		fi
	done
	# Never remove through a mount (the bind of /dev above all).
	if grep -q " $base" /proc/mounts; then
		echo "root-installed: $base is still mounted" >&2
		exit 1
	fi
	rm -rf "$base"
}

if [ "$cmd" = umount ]; then
	unmount
	exit 0
fi
kver=${3:?usage}
how=${4:?usage}
what=${5:?usage}
unmount
mkdir -p "$base/upper" "$base/work" "$merged"
mount -t overlay overlay -o "lowerdir=$root,upperdir=$base/upper,workdir=$base/work" "$merged"
mount -t proc proc "$merged/proc"
mount --rbind /sys "$merged/sys"
mount --rbind /dev "$merged/dev"
in_root() {
	chroot "$merged" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive "$@"
}
for k in "$merged"/lib/modules/*; do
	[ "$k" = "$merged/lib/modules/$kver" ] || rm -f "$k/build"
done
log=$base/install.log
case $how in
deb)
	cp "$what" "$merged/tmp/"
	in_root apt-get install -y -q "/tmp/$(basename "$what")" >"$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; echo "root-installed: apt install failed" >&2; exit 1; }
	rm -f "$merged/tmp/$(basename "$what")"
	;;
dkms)
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$what/dkms.conf")
	cp -a "$what" "$merged/usr/src/clusterswap-$ver"
	# A kernel of another line, with headers present (borrowed): refused.
	fake=6.6.0-99-amd64
	mkdir -p "$merged/lib/modules/$fake"
	ln -s "/usr/src/linux-headers-$kver" "$merged/lib/modules/$fake/build"
	in_root dkms add "clusterswap/$ver" >"$log" 2>&1 ||
		{ cat "$log" >&2; echo "root-installed: dkms add failed" >&2; exit 1; }
	if in_root dkms install "clusterswap/$ver" -k "$fake" >>"$log" 2>&1; then
		echo "root-installed: dkms install for $fake succeeded" >&2
		exit 1
	fi
	grep -qi 'BUILD_EXCLUSIVE\|does not match' "$log" ||
		{ cat "$log" >&2; echo "root-installed: no clear refusal for $fake" >&2; exit 1; }
	left=$(find "$merged/lib/modules/$fake" -name 'clusterswap.ko*')
	[ -z "$left" ] || { echo "root-installed: a refused install left $left" >&2; exit 1; }
	echo "root-installed: dkms refused $fake: $(grep -i -m1 'exclusive\|does not match' "$log")" >&2
	rm -rf "$merged/lib/modules/$fake"
	in_root dkms install "clusterswap/$ver" -k "$kver" >>"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; echo "root-installed: dkms install failed" >&2; exit 1; }
	;;
*)
	echo "root-installed: unknown install '$how'" >&2
	exit 2
	;;
esac
in_root dkms status clusterswap >&2
for m in "$merged/dev" "$merged/sys" "$merged/proc"; do
	umount -l "$m"
done
echo "$merged"
