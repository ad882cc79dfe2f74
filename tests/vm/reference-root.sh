#!/bin/bash
# Debian sid's kernel (upstream's own cluster allocator, 7.x) beside the
# trixie root's userland, for make bench's reference column: the trixie root
# with sid's kernel image and modules put in through an overlay (the root
# itself is not changed).  The packages come from the host's mirror through
# a private apt configuration in the cache: nothing is added to the host's
# apt sources.  Only linux-base-* (config, System.map, modules.builtin),
# linux-binary-* (the image) and linux-modules-* are unpacked, with no
# maintainer script: the guest's initramfs is this harness's own
# (initramfs.sh).
#
#   reference-root.sh mount     prints "KVER MERGED" on its last line
#   reference-root.sh umount
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
cmd=${1:?usage: reference-root.sh mount|umount}
root=$cache/roots/trixie
base=$cache/reference
merged=$base/merged
apt_dir=$cache/reference-apt

unmount() {
	if mountpoint -q "$merged"; then
		umount -l "$merged"
	fi
	if grep -q " $merged " /proc/mounts; then
		echo "reference-root: $merged is still mounted" >&2
		exit 1
	fi
	rm -rf "$base"
}

if [ "$cmd" = umount ]; then
	unmount
	exit 0
fi
[ "$cmd" = mount ] || { echo "reference-root: unknown command '$cmd'" >&2; exit 2; }
[ -d "$root/usr" ] || { echo "reference-root: no trixie root (tests/vm/mkroot.sh trixie)" >&2; exit 1; }

# A private apt: sid from the host's mirror, the host's archive keyring.
mirror=$("$here/mirror.sh" debian)
mkdir -p "$apt_dir"/{lists/partial,archives/partial,debs}
touch "$apt_dir/status"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror sid main" >"$apt_dir/sources.list"
apt=(-o Dir::State="$apt_dir" -o Dir::State::Lists="$apt_dir/lists" -o Dir::State::status="$apt_dir/status"
	-o Dir::Cache="$apt_dir" -o Dir::Cache::Archives="$apt_dir/archives"
	-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt[@]}" update -qq >/dev/null || { echo "reference-root: apt-get update of sid failed" >&2; exit 1; }
image=$(apt-cache "${apt[@]}" depends linux-image-amd64 | awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ {print $2; exit}')
[ -n "$image" ] || { echo "reference-root: sid's linux-image-amd64 names no kernel" >&2; exit 1; }
kver=${image#linux-image-}
debs="$apt_dir/debs/$kver"
if ! [ -f "$debs/done" ]; then
	rm -rf "$debs"
	mkdir -p "$debs"
	(cd "$debs" && apt-get "${apt[@]}" download -qq "linux-base-$kver" "linux-binary-$kver" "linux-modules-$kver" >/dev/null) ||
		{ echo "reference-root: cannot download linux-base-$kver, linux-binary-$kver and linux-modules-$kver" >&2; exit 1; }
	touch "$debs/done"
fi

unmount
mkdir -p "$base/upper" "$base/work" "$merged"
mount -t overlay overlay -o "lowerdir=$root,upperdir=$base/upper,workdir=$base/work" "$merged"
for d in "$debs"/*.deb; do
	dpkg-deb -x "$d" "$merged"
done
[ -f "$merged/lib/modules/$kver/vmlinuz" ] || { echo "reference-root: no vmlinuz in the $kver packages" >&2; exit 1; }
chroot "$merged" depmod "$kver"
echo "$kver $merged"
