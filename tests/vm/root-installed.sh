#!/bin/bash
# A build root with clusterswap installed the way a user installs it, done on
# the host (natively, as a kernel package's postinst runs in a chroot)
# instead of under emulation in the guest, where DKMS, apt and depmod cost
# minutes.  The root itself is not changed: the install goes into an overlay
# over it, which the guest then boots as its root.
#
#   root-installed.sh mount SUITE KVER deb DEB      apt install ./DEB
#   root-installed.sh mount SUITE KVER readme SRCDIR
#                       the DKMS install steps of SRCDIR's README.md, as
#                       written (dkms add + install of SRCDIR)
#   root-installed.sh umount SUITE
#
# "mount" prints the overlay's path (the guest's root) on its last line.  As
# on a user's machine, only the booted kernel KVER has headers in it (the
# build root also carries its suite's older kernel for host-side builds),
# and its module tree holds only what a guest uses (below).
# The readme form also proves, in the chroot, that DKMS refuses to build for
# a kernel outside the supported lines (BUILD_EXCLUSIVE_KERNEL) and for a
# PREEMPT_RT kernel of the booted kernel's line (BUILD_EXCLUSIVE_CONFIG),
# leaving nothing.
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
	if grep -q " $base/" /proc/mounts; then
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
# The guest's module tree holds what a guest uses (trim-modules.sh): depmod,
# which "dkms remove" and "apt purge" run in the guest, reads only that.
sh "$(dirname "$0")/../guest/trim-modules.sh" "$merged/lib/modules/$kver/kernel"
log=$base/install.log
case $how in
deb)
	cp "$what" "$merged/tmp/"
	in_root apt-get install -y -q "/tmp/$(basename "$what")" >"$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; echo "root-installed: apt install failed" >&2; exit 1; }
	rm -f "$merged/tmp/$(basename "$what")"
	;;
readme)
	# The first code block under README.md's "## Install" (dkms add and
	# install of the tree), run as written in a copy of the source tree, as
	# root, stdin closed (a question fails it): sudo only runs its command,
	# uname -r names the kernel the guest boots (dkms builds for it, as on
	# that machine), and modprobe, which would load into this host's
	# kernel, is left to the guest.
	cp -a "$what" "$merged/tmp/clusterswap-src"
	awk '/^## Install/ { f = 1 } f && /^```/ { n++; next } f && n == 1' "$what/README.md" \
		>"$merged/tmp/readme-install.sh"
	grep -q 'dkms install' "$merged/tmp/readme-install.sh" ||
		{ echo "root-installed: no dkms install step under README.md's Install" >&2; exit 1; }
	shims=$merged/tmp/readme-shims
	mkdir -p "$shims"
	printf '#!/bin/sh\nexec "$@"\n' >"$shims/sudo"
	printf '#!/bin/sh\n[ "$1" = -r ] && { echo %s; exit 0; }\nexec /bin/uname "$@"\n' "$kver" >"$shims/uname"
	printf '#!/bin/sh\necho "modprobe $*: left to the guest"\n' >"$shims/modprobe"
	chmod +x "$shims"/*
	chroot "$merged" env -i PATH=/tmp/readme-shims:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive sh -exc 'cd /tmp/clusterswap-src && . /tmp/readme-install.sh' \
		</dev/null >"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; echo "root-installed: README.md's install steps failed" >&2; exit 1; }
	rm -rf "$shims" "$merged/tmp/clusterswap-src" "$merged/tmp/readme-install.sh"

	# dkms_refuses KERNEL PATTERN: DKMS must refuse to install for KERNEL
	# (its build link made by the caller), with PATTERN in what it says, and
	# leave nothing.
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$what/dkms.conf")
	dkms_refuses() {
		local k=$1 out=$log.$1 left
		if in_root dkms install "clusterswap/$ver" -k "$k" >"$out" 2>&1; then
			echo "root-installed: dkms install for $k succeeded" >&2
			exit 1
		fi
		grep -qi "$2" "$out" ||
			{ cat "$out" >&2; echo "root-installed: no clear refusal for $k" >&2; exit 1; }
		left=$(find "$merged/lib/modules/$k" -name 'clusterswap.ko*')
		[ -z "$left" ] || { echo "root-installed: a refused install left $left" >&2; exit 1; }
		echo "root-installed: dkms refused $k: $(grep -i -m1 'exclusive\|does not match' "$out")" >&2
	}

	# A kernel of another line, with headers present (borrowed): refused.
	fake=6.6.0-99-amd64
	mkdir -p "$merged/lib/modules/$fake"
	ln -s "/usr/src/linux-headers-$kver" "$merged/lib/modules/$fake/build"
	dkms_refuses "$fake" 'BUILD_EXCLUSIVE\|does not match'
	rm -rf "$merged/lib/modules/$fake"

	# A PREEMPT_RT kernel of the booted kernel's line (Debian's rt-amd64):
	# its headers' configuration says so, and DKMS refuses it
	# (BUILD_EXCLUSIVE_CONFIG), though its release matches.
	rt=${kver%-amd64}-rt-amd64
	mkdir -p "$merged/lib/modules/$rt" "$merged/usr/src/linux-headers-$rt"
	{ grep -v '^CONFIG_PREEMPT_RT=\|^# CONFIG_PREEMPT_RT is not set' \
		"$merged/usr/src/linux-headers-$kver/.config"; echo CONFIG_PREEMPT_RT=y; } \
		>"$merged/usr/src/linux-headers-$rt/.config"
	ln -s "/usr/src/linux-headers-$rt" "$merged/lib/modules/$rt/build"
	dkms_refuses "$rt" 'BUILD_EXCLUSIVE'
	rm -rf "$merged/lib/modules/$rt" "$merged/usr/src/linux-headers-$rt"
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
