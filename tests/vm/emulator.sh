#!/bin/bash
# The QEMU the guests run on: Debian 13's qemu-system-x86, unpacked from the
# trixie build root's suite into the cache and run with that root's C
# library, so that a Debian 12 host needs no other apt sources.
#
#   emulator.sh             prints the path of a qemu-system-x86_64 wrapper
#   emulator.sh aarch64     ... of a qemu-system-aarch64 wrapper, Debian 13's
#                           too: the arm64 guests (run-vm.sh)
#   emulator.sh virtiofsd   ... of a virtiofsd wrapper, Debian 13's too: the
#                           file server of a guest whose kernel has no 9p
#                           (run-vm.sh)
#
# Why not the host's QEMU 7.2: its multi-threaded TCG translates a code page
# before locking it, so a vCPU can keep a stale translation of kernel text
# another vCPU has just patched, and later execute it (QEMU commit
# deba78709ae8, "accel/tcg: Always lock pages before translation", in 8.1,
# not in Debian 12).  A guest that patches its text at run time (ftrace,
# kprobes, static keys: loading clusterswap does all three) then dies with
# "Oops: int3" at the patched site, a stray jump or a corrupted list.
# make crash-rate measured it (tests/crashrate/results/): under 7.2 most
# boots died within a few cycles, with clusterswap and without it alike;
# under 10.0, none did.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/trixie
dir=$cache/emulator
wrapper=$dir/qemu-system-x86_64
virtiofsd=$dir/virtiofsd
aarch64=$dir/qemu-system-aarch64

"$here/mkroot.sh" trixie >&2
stamp=$(cat "$root/.clusterswap-recipe")
# One unpacking at a time (make check's lanes each run this); the next
# finds it done.
mkdir -p "$cache"
exec 9>"$cache/emulator.lock"
flock 9
if [ ! -x "$wrapper" ] || [ ! -x "$virtiofsd" ] || [ ! -x "$aarch64" ] ||
	[ "$(cat "$dir/.root-recipe" 2>/dev/null)" != "$stamp" ]; then
	echo "emulator: qemu-system-x86 and -arm from the trixie root's suite into $dir" >&2
	rm -rf "$dir"
	mkdir -p "$dir/unpacked"
	chroot "$root" apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -d -y -qq \
		--no-install-recommends qemu-system-x86 qemu-system-arm virtiofsd >&2
	for deb in "$root"/var/cache/apt/archives/*.deb; do
		dpkg -x "$deb" "$dir/unpacked"
	done
	# The guests' root holds only what mkroot.sh put there.
	chroot "$root" apt-get clean
	u=$dir/unpacked
	cat >"$wrapper" <<WRAPPER
#!/bin/sh
# Debian 13's QEMU with Debian 13's libraries (tests/vm/emulator.sh).
exec "$root/usr/lib64/ld-linux-x86-64.so.2" \\
	--library-path "$u/usr/lib/x86_64-linux-gnu:$u/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu" \\
	"$u/usr/bin/qemu-system-x86_64" -L "$u/usr/share/qemu" -L "$u/usr/share/seabios" "\$@"
WRAPPER
	cat >"$virtiofsd" <<WRAPPER
#!/bin/sh
# Debian 13's virtiofsd with Debian 13's libraries (tests/vm/emulator.sh).
exec "$root/usr/lib64/ld-linux-x86-64.so.2" \\
	--library-path "$u/usr/lib/x86_64-linux-gnu:$u/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu" \\
	"$u/usr/libexec/virtiofsd" "\$@"
WRAPPER
	cat >"$aarch64" <<WRAPPER
#!/bin/sh
# Debian 13's QEMU for arm64 guests with Debian 13's libraries (tests/vm/emulator.sh).
exec "$root/usr/lib64/ld-linux-x86-64.so.2" \\
	--library-path "$u/usr/lib/x86_64-linux-gnu:$u/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu" \\
	"$u/usr/bin/qemu-system-aarch64" -L "$u/usr/share/qemu" "\$@"
WRAPPER
	chmod +x "$wrapper" "$virtiofsd" "$aarch64"
	"$wrapper" --version | head -n 1 >&2 || { rm -f "$wrapper"; exit 1; }
	"$aarch64" --version | head -n 1 >&2 || { rm -f "$aarch64"; exit 1; }
	"$virtiofsd" --version >&2 || { rm -f "$virtiofsd"; exit 1; }
	echo "$stamp" >"$dir/.root-recipe"
fi
case ${1:-} in
virtiofsd) echo "$virtiofsd" ;;
aarch64) echo "$aarch64" ;;
*) echo "$wrapper" ;;
esac
