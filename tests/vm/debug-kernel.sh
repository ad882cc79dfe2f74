#!/bin/bash
# Build (or reuse) a debug build of Debian 13's own 6.12 kernel: lockdep,
# KASAN, DEBUG_VM, DEBUG_LIST, atomic-sleep checks, for running the module's
# tests under the kernel's debugging aids.
#
#   debug-kernel.sh
#
# The source is the trixie root's linux-source-6.12 at the version of the root's
# newest 6.12 kernel, configured from that kernel's Debian config with every
# module dropped (=m becomes not set, only Debian's built-ins remain), the
# drivers a QEMU guest needs built in, and the debug options below. The release
# is 6.12.y-csdebug. The tree is built inside the root, with the root's own
# compiler, at /usr/src/linux-6.12-csdebug, so that from the chroot
#   make -C /usr/src/linux-6.12-csdebug M=DIR modules
# builds an external module for it (build.sh trixie 6.12.y-csdebug does that too,
# through the /usr/src/linux-headers-6.12.y-csdebug link).
#
# Results in $CLUSTERSWAP_CACHE/debug-612: bzImage, release, build (a link to the
# tree in the root), build.log. Runs at nice 19 with make -j2. A first build on
# this 2-core host: packages, unpack and config under a minute, then about 3000
# objects to compile; measured 45-70 objects a minute with a QEMU test running
# beside it, so about 60-75 minutes in all (less on an idle host). A run with
# the same recipe (the non-comment lines of this script and of
# debug-kernel.config, the Debian config, the
# source version) and its results in place only prints the results.
set -euo pipefail
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/trixie
out=$cache/debug-612
src=/usr/src/linux-6.12-csdebug
[ -d "$root/boot" ] || { echo "debug-kernel.sh: no trixie build root (run mkroot.sh trixie)" >&2; exit 1; }
. "$(dirname "$0")/targets.sh"
# The generic flavour's config (not the cloud kernel's beside it).
kver=$(root_kernel "$root")
release=${kver%%+*}-csdebug
pkgver=$(chroot "$root" dpkg-query -W -f='${Version}' "linux-image-$kver")
recipe=$( { grep -v '^#' "$0"; grep -v '^#' "$(dirname "$0")/debug-kernel.config"
	cat "$root/boot/config-$kver"; echo "$pkgver"; } | sha256sum | cut -c1-16)
stamp=$out/.clusterswap-recipe

results() {
	echo "debug-kernel: release $(cat "$out/release")"
	echo "bzImage: $out/bzImage"
	echo "build: $out/build -> $root$src (in the chroot: $src)"
	echo "log: $out/build.log"
}
if [ "$(cat "$stamp" 2>/dev/null)" = "$recipe" ] && [ -f "$out/bzImage" ] &&
	[ -f "$root$src/Module.symvers" ]; then
	results
	exit 0
fi

mkdir -p "$out"
exec 9>"$out/lock"
flock -n 9 || { echo "debug-kernel.sh: another build is running ($out/lock)" >&2; exit 1; }
rm -f "$stamp"
start=$(date +%s)
inroot() {
	nice -n 19 chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

echo "debug-kernel: linux-source-6.12=$pkgver and build tools into the trixie root"
deps="linux-source-6.12=$pkgver bc bison flex libelf-dev libssl-dev cpio kmod xz-utils python3"
if ! inroot apt-get install -y -qq --no-install-recommends $deps >"$out/apt.log" 2>&1; then
	inroot apt-get update -qq >>"$out/apt.log" 2>&1
	inroot apt-get install -y -qq --no-install-recommends $deps >>"$out/apt.log" 2>&1 ||
		{ tail -n 30 "$out/apt.log" >&2; exit 1; }
fi

# A tree is reused (incremental build) while it comes from the same source.
if [ "$(cat "$root$src/.clusterswap-source" 2>/dev/null)" != "$pkgver" ]; then
	echo "debug-kernel: unpack linux-source-6.12 $pkgver into $root$src"
	rm -rf "$root$src" "$root$src.new"
	mkdir -p "$root$src.new"
	inroot tar -xf /usr/src/linux-source-6.12.tar.xz -C "$src.new" --strip-components=1
	echo "$pkgver" >"$root$src.new/.clusterswap-source"
	mv "$root$src.new" "$root$src"
fi

# What this build wants, over Debian's config with its modules dropped
# (debug-kernel.config).
grep -v "^#" "$(dirname "$0")/debug-kernel.config" >"$out/fragment.config"

echo "debug-kernel: configure from config-$kver"
sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' "$root/boot/config-$kver" >"$root$src/.config"
cat "$out/fragment.config" >>"$root$src/.config" # later lines win
inroot make -C "$src" olddefconfig >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
bad=
while IFS== read -r sym want; do
	got=$(grep -E "^$sym=" "$root$src/.config" | cut -d= -f2-) || true
	case $want in
	n | '""') [ -z "$got" ] || [ "$got" = '""' ] || bad="$bad $sym=$got" ;;
	*) [ "$got" = "$want" ] || bad="$bad $sym=${got:-unset}(want $want)" ;;
	esac
done <"$out/fragment.config"
[ -z "$bad" ] || { echo "debug-kernel: config did not take:$bad" >&2; exit 1; }
got=$(inroot make -s --no-print-directory -C "$src" kernelrelease)
[ "$got" = "$release" ] || { echo "debug-kernel: release is '$got', want '$release'" >&2; exit 1; }
echo "debug-kernel: config ok ($(grep -c '=y$' "$root$src/.config") options built in); compiling, see $out/build.log"

# modules builds nothing here but writes Module.symvers, which M= builds need.
if ! inroot make -C "$src" -j2 bzImage modules >>"$out/build.log" 2>&1 ||
	! inroot make -C "$src" modules_prepare >>"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	echo "debug-kernel: build failed, see $out/build.log" >&2
	exit 1
fi
[ -f "$root$src/Module.symvers" ] || { echo "debug-kernel: no Module.symvers" >&2; exit 1; }
ln -sfn "linux-6.12-csdebug" "$root/usr/src/linux-headers-$release"
cp "$root$src/arch/x86/boot/bzImage" "$out/bzImage.new"
mv "$out/bzImage.new" "$out/bzImage"
echo "$release" >"$out/release"
ln -sfn "$root$src" "$out/build"
echo "$recipe" >"$stamp"
echo "debug-kernel: built in $(( ($(date +%s) - start) / 60 )) min"
results
