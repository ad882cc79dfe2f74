#!/bin/bash
# make bench-bundle: build/clusterswap-bench.tar.xz, the benchmark of make
# bench in one archive that runs on any x86-64 Linux host with glibc 2.36 or
# later: no root, no network, no QEMU installed (tests/bench/bundle/README).
#
# It holds:
#   qemu/      Debian 13's qemu-system-x86_64 (tests/vm/emulator.sh), every
#              shared library it loads, the C library and loader included,
#              and the firmware a -kernel boot reads
#   6.12/      Debian 13's stock kernel, and an initramfs with busybox,
#              zram's and brd's modules, clusterswap.ko and the passthrough
#              build, the workloads (verifier, pageout: static),
#              tests/bench/guest.sh as the guest's run.sh, and Debian 13's
#              perf with every library it links (./run --profile)
#   upstream/  Debian sid's kernel (7.x, upstream's own allocator:
#              tests/vm/reference-root.sh), its initramfs the same without
#              the module
#   run, README, report.py, about
#
# The workloads, the guest's bench script, the arms' rotation and the report
# are make bench's own files, copied: the bundle measures what make bench
# measures.  Fails if the archive is over 56 MiB.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
export CLUSTERSWAP_CACHE=$cache
name=clusterswap-bench
stage=$top/build/bench-bundle/$name
archive=$top/build/$name.tar.xz
limit_mib=56
[ "$(id -u)" = 0 ] || { echo "bench-bundle: run as root (debootstrap, chroot)"; exit 1; }

"$top/tests/vm/mkroot.sh" trixie
"$top/tests/vm/root-warm.sh" trixie
root=$cache/roots/trixie
. "$top/tests/vm/targets.sh"
kver=$(root_kernel "$root")
rm -rf "$top/build/bench-bundle" "$archive"
mkdir -p "$stage"/{qemu/lib,qemu/share,6.12,upstream,licenses}

# The emulator, and what its loader resolves, from Debian 13's packages.
qemu_wrapper=$("$top/tests/vm/emulator.sh")
unpacked=$cache/emulator/unpacked
ld=$root/usr/lib64/ld-linux-x86-64.so.2

# libpath_with DIR: the loader's search path for packages unpacked in DIR
# that run with the trixie root's C library.
libpath_with() {
	echo "$1/usr/lib/x86_64-linux-gnu:$1/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu"
}

# copy_libs BINARY LIBPATH DIR: every shared library BINARY links, as the
# loader finds it along LIBPATH, into DIR, stripped.  Fails on a library
# the loader does not find there (it would fail only on the host that runs
# the bundle).
copy_libs() {
	local list
	list=$("$ld" --library-path "$2" --list "$1")
	if grep -q 'not found' <<<"$list"; then
		echo "bench-bundle: $(basename "$1") needs libraries that are not in $2:" >&2
		echo "$list" | grep 'not found' >&2
		return 1
	fi
	echo "$list" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r lib; do
		cp -L "$lib" "$3/"
	done
	strip --strip-unneeded "$3/"*.so* 2>/dev/null || true
}

cp "$unpacked/usr/bin/qemu-system-x86_64" "$stage/qemu/"
cp -L "$ld" "$stage/qemu/ld-linux-x86-64.so.2"
copy_libs "$unpacked/usr/bin/qemu-system-x86_64" "$(libpath_with "$unpacked")" "$stage/qemu/lib"
for f in seabios/bios-256k.bin qemu/linuxboot_dma.bin qemu/kvmvapic.bin; do
	cp -L "$unpacked/usr/share/$f" "$stage/qemu/share/"
done
strip --strip-unneeded "$stage/qemu/qemu-system-x86_64" 2>/dev/null || true
for pkg in qemu-system-x86 qemu-system-common qemu-system-data seabios; do
	[ -f "$unpacked/usr/share/doc/$pkg/copyright" ] &&
		cp "$unpacked/usr/share/doc/$pkg/copyright" "$stage/licenses/$pkg.copyright"
done
cp "$root/usr/share/doc/libc6/copyright" "$stage/licenses/libc6.copyright"
cp "$root/usr/share/doc/busybox-static/copyright" "$stage/licenses/busybox.copyright" 2>/dev/null || true
"$qemu_wrapper" --version | head -n 1 >"$stage/qemu/version"

# perf, for ./run --profile: Debian 13's linux-perf and what the root lacks
# of its dependencies, unpacked beside the root (which holds only what
# mkroot.sh put there), kept while the root's recipe stands.
perf_dir=$cache/perf
stamp=$(cat "$root/.clusterswap-recipe")
if [ ! -x "$perf_dir/unpacked/usr/bin/perf" ] || [ "$(cat "$perf_dir/.root-recipe" 2>/dev/null)" != "$stamp" ]; then
	echo "bench-bundle: linux-perf from the trixie root's suite into $perf_dir"
	rm -rf "$perf_dir"
	mkdir -p "$perf_dir/unpacked"
	chroot "$root" apt-get clean
	chroot "$root" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -d -y -qq \
		--no-install-recommends linux-perf >/dev/null
	for deb in "$root"/var/cache/apt/archives/*.deb; do
		[ -e "$deb" ] && dpkg -x "$deb" "$perf_dir/unpacked"
	done
	chroot "$root" apt-get clean
	[ -x "$perf_dir/unpacked/usr/bin/perf" ] ||
		{ echo "bench-bundle: apt-get fetched no linux-perf into $perf_dir"; exit 1; }
	echo "$stamp" >"$perf_dir/.root-recipe"
fi
cp "$perf_dir/unpacked/usr/share/doc/linux-perf/copyright" "$stage/licenses/linux-perf.copyright"

# add_perf DIR: perf at DIR/usr/bin, its libraries and the loader where
# perf's own paths name them.
add_perf() {
	mkdir -p "$1/usr/bin" "$1/lib/x86_64-linux-gnu" "$1/lib64"
	cp "$perf_dir/unpacked/usr/bin/perf" "$1/usr/bin/perf"
	cp -L "$ld" "$1/lib64/ld-linux-x86-64.so.2"
	copy_libs "$perf_dir/unpacked/usr/bin/perf" "$(libpath_with "$perf_dir/unpacked")" "$1/lib/x86_64-linux-gnu"
}

# The module builds and the workloads, as make bench builds them.
echo "bench-bundle: clusterswap.ko, the passthrough build and the workloads for $kver"
ko=$("$top/tests/vm/build.sh" trixie "$kver" | tail -n 1)
ko_pass=$(BUILD_BENCH=passthrough "$top/tests/vm/build.sh" trixie "$kver" | tail -n 1)
work=/tmp/cs-bundle
rm -rf "$root$work"
mkdir -p "$root$work"
for p in verifier pageout; do
	cp "$top/tests/guest/programs/$p.c" "$root$work/"
	chroot "$root" gcc -O2 -static -pthread -o "$work/$p" "$work/$p.c"
done

# initramfs DIR KVER MODROOT PERF [KO...]: DIR/initramfs.cpio for kernel
# KVER, its modules (zram, brd and what they need) from MODROOT, with perf
# if PERF is 1.
initramfs() {
	local dir=$1 k=$2 modroot=$3 perf=$4 tmp path name
	shift 4
	# In the root: its depmod writes modules.dep (the host may have none).
	tmp=$(mktemp -d -p "$root/tmp")
	mkdir -p "$tmp"/{bin,dev,proc,sys,tmp,job/bin,lib/modules/$k}
	cp "$root/bin/busybox" "$tmp/bin/busybox"
	cp "$top/tests/bench/bundle/init" "$tmp/init"
	chmod +x "$tmp/init"
	cp "$top/tests/bench/guest.sh" "$tmp/job/run.sh"
	cp "$top/tests/guest/lib.sh" "$top/tests/bench/arms.sh" "$tmp/job/"
	cp "$root$work/verifier" "$root$work/pageout" "$tmp/job/bin/"
	[ $# = 0 ] || cp "$@" "$tmp/job/"
	[ "$perf" = 0 ] || add_perf "$tmp"
	for ko in "$tmp"/job/*.ko; do
		[ -e "$ko" ] && strip --strip-debug "$ko"
	done
	for m in zram brd; do
		chroot "$modroot" modprobe -S "$k" --show-depends "$m"
	done | awk '$1 == "insmod" && !seen[$2]++ {print $2}' | while read -r path; do
		name=$(basename "$path")
		mkdir -p "$tmp$(dirname "$path")"
		case $name in
		*.ko.xz) xz -dc "$modroot$path" >"$tmp${path%.xz}" ;;
		*.ko.zst) zstd -qdc "$modroot$path" >"$tmp${path%.zst}" ;;
		*) cp "$modroot$path" "$tmp$path" ;;
		esac
	done
	cp "$modroot/lib/modules/$k/modules.order" "$modroot/lib/modules/$k/modules.builtin" "$modroot/lib/modules/$k/modules.builtin.modinfo" "$tmp/lib/modules/$k/"
	chroot "$root" depmod -b "${tmp#"$root"}" "$k"
	(cd "$tmp" && find . | cpio -o -H newc --quiet) >"$dir/initramfs.cpio"
	rm -rf "$tmp"
}

echo "bench-bundle: Debian 13's $kver"
cp "$root/boot/vmlinuz-$kver" "$stage/6.12/vmlinuz"
echo "$kver" >"$stage/6.12/kernel"
initramfs "$stage/6.12" "$kver" "$root" 1 "$ko" "$ko_pass"

read -r ref merged < <("$top/tests/vm/reference-root.sh" mount | tail -n 1)
echo "bench-bundle: Debian sid's $ref"
cp "$merged/lib/modules/$ref/vmlinuz" "$stage/upstream/vmlinuz"
echo "$ref" >"$stage/upstream/kernel"
initramfs "$stage/upstream" "$ref" "$merged" 0
"$top/tests/vm/reference-root.sh" umount
rm -rf "$root$work"

cp "$top/tests/bench/bundle/run" "$top/tests/bench/bundle/README" "$top/tests/bench/report.py" "$stage/"
cp "$top/COPYING" "$stage/licenses/clusterswap.COPYING" 2>/dev/null || true
chmod +x "$stage/run"
{
	echo "clusterswap bench bundle $(sed -n 's/^#define CS_VERSION "\(.*\)"/\1/p' "$top/include/clusterswap/control.h")" \
		"($(git -C "$top" describe --always --dirty 2>/dev/null || echo "no git"))"
	echo "built $(date -u +%F)"
} >"$stage/about"

# -6e: 53 MiB, 6 more than -9e, and multi-threaded (-9e's 192 MiB blocks hold
# the whole tar: one thread): 39 s on 2 cores against 95.
tar -C "$top/build/bench-bundle" -cf - "$name" | xz -6e -T0 >"$archive"
size=$(stat -c %s "$archive")
echo "bench-bundle: $archive, $((size / 1024)) KiB"
if [ "$size" -gt $((limit_mib << 20)) ]; then
	echo "bench-bundle: the archive is over $limit_mib MiB"
	exit 1
fi
