#!/bin/bash
# Boot one stock kernel of a build root in QEMU and run a job in it.
#
#   run-vm.sh SUITE KVER JOBDIR TIMEOUT_S
#
# JOBDIR holds run.sh (and whatever it needs); it is mounted read-write at
# /job in the guest, and the guest leaves its results in JOBDIR/out:
# console.log (run.sh's output), rc, dmesg.txt.  The serial console goes to
# JOBDIR/serial.log.  The suite's compiler cache (root-warm.sh), if it
# has one, is shared as tag ccache.  The shares are 9p, or virtiofs for a
# kernel that has no 9p (targets.sh: kernel_shares).  Environment: VM_SMP (default 2), VM_MEM
# (default 2G), VM_APPEND (extra kernel command line), VM_QEMU_EXTRA (extra
# QEMU options), VM_ROOT (another root than the build root: root-installed.sh),
# VM_KERNEL and VM_INITRD (another kernel than the root's, e.g. the debug
# build: its drivers are built in, so the stock initramfs serves it).
#
# VM_ACCEL=kvm|tcg: the accelerator (default tcg; make bench and make demo
# pass what accel.sh probed).  TCG is multi-threaded: this project's host's
# KVM (PVM) cannot boot a stock kernel (see docs/testing.md).
# VM_TCG_THREAD=single: one host thread for all vCPUs.  VM_QEMU, VM_CPU: another emulator, another CPU model.
# VM_PAUTH=off (arm64): the CPU without pointer authentication (below).
# Exit status: 0 when the guest ran
# run.sh to its end (whatever run.sh returned), 1 when it did not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
suite=${1:?usage}; kver=${2:?usage}; job=${3:?usage}; limit=${4:?usage}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$suite
initrd=${VM_INITRD:-$("$here/initramfs.sh" "$suite" "$kver")}
cp "$here/pid1.sh" "$job/pid1.sh"
rm -rf "$job/out"
mkdir -p "$job/out"

# loglevel=5 puts warnings and the registers and stack of a lockup on the
# serial console, the one record a guest that hangs leaves; softlockup_panic
# ends such a guest at once instead of at the time limit (a soft lockup fails
# the test either way: BAD_LOG in guest/lib.sh).
cmdline="console=ttyS0 quiet loglevel=5 panic=-1 oops=panic softlockup_panic=1 mitigations=off"
cmdline="$cmdline transparent_hugepage=never ${VM_APPEND:-}"
# The emulator: Debian 13's QEMU (emulator.sh says why not the host's 7.2);
# VM_QEMU names another.
qemu=${VM_QEMU:-$("$here/emulator.sh")}

# share TAG DIR ro|rw: DIR for the guest to mount by TAG (init, pid1.sh).
# Over 9p QEMU serves it.  Over virtiofs a virtiofsd of its own does, on a
# socket QEMU connects to, and the guest's memory must be shared with it;
# each virtiofsd ends when QEMU closes its socket, and is killed at exit.
shares=$(kernel_shares "$kver")
share_args=()
machine=q35
vfs_pids=()
vfs_dir=
if [ "$shares" = virtiofs ]; then
	virtiofsd=$("$here/emulator.sh" virtiofsd)
	vfs_dir=$(mktemp -d)
	# Each virtiofsd has usually ended with QEMU: a failed kill is no error
	# (under errexit it would end the trap, and the script, with status 1).
	trap 'kill "${vfs_pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$vfs_dir"' EXIT
	share_args=(-object "memory-backend-memfd,id=mem,size=${VM_MEM:-2G},share=on")
	machine=q35,memory-backend=mem
	cmdline="$cmdline cs.shares=virtiofs"
fi
share() {
	local tag=$1 dir=$2 mode=$3 sock i
	if [ "$shares" = 9p ]; then
		if [ "$mode" = ro ]; then
			share_args+=(-virtfs "local,path=$dir,mount_tag=$tag,security_model=passthrough,readonly=on,id=$tag")
		else
			share_args+=(-virtfs "local,path=$dir,mount_tag=$tag,security_model=none,id=$tag")
		fi
		return 0
	fi
	sock=$vfs_dir/$tag.sock
	"$virtiofsd" --socket-path="$sock" --shared-dir="$dir" --sandbox=chroot --cache=auto \
		$([ "$mode" = ro ] && echo --readonly) >"$job/virtiofsd-$tag.log" 2>&1 &
	vfs_pids+=($!)
	for i in $(seq 50); do
		[ -S "$sock" ] && break
		sleep 0.2
	done
	[ -S "$sock" ] || { cat "$job/virtiofsd-$tag.log" >&2; echo "run-vm: virtiofsd for $tag did not start" >&2; exit 1; }
	share_args+=(-chardev "socket,id=vfs-$tag,path=$sock"
		-device "vhost-user-fs-pci,chardev=vfs-$tag,tag=$tag")
}
if [ -n "${VM_ROOT_DISK:-}" ]; then
	# The init finds it by its serial number.
	share_args+=(-drive "file=$VM_ROOT_DISK,if=none,format=raw,id=csroot"
		-device "virtio-blk-pci,drive=csroot,serial=csroot")
	cmdline="$cmdline cs.root=disk"
else
	share root "${VM_ROOT:-$root}" ro
fi
share job "$job" rw
# The compiler cache of root-warm.sh, when there is one.
[ -d "$cache/ccache/$suite" ] && share ccache "$cache/ccache/$suite" rw
# The CPU (VM_CPU: another): QEMU's "max" without features that only cost
# under emulation.  With erms the kernel clears and copies pages with "rep
# stosb" and "rep movsb", which TCG runs one byte per iteration (without
# it: "rep stosq", eight bytes an iteration); fsrm (fast short rep movsb,
# in QEMU 10's max, not in 7.2's) makes the kernel's memcpy and user copies
# use "rep movsb" as well, and fsrs, fzrm and fsrc are its siblings; with la57 it walks five
# page-table levels on every guest TLB miss instead of four, where most
# real machines use four.  Measured on this 2-core host with QEMU 7.2, a
# verifier run through zram (180,000 pages swapped out) in an otherwise idle
# guest: 9.8-10.0 s with "max", 8.2-8.8 s without erms and la57.
cpu=${VM_CPU:-max,-la57,-erms,-fsrm,-fsrs,-fzrm,-fsrc}
console=ttyS0
case $kver in
*-arm64)
	# arm64: "max" with the implementation-defined pointer-authentication
	# algorithm, which TCG computes far faster than the architected QARMA
	# (the kernel signs every return address), and without FEAT_LPA2: with
	# it Debian's kernel maps 52-bit virtual addresses through five
	# page-table levels, where the arm64 servers users run (Neoverse, Ampere)
	# use 48 bits and four, and its hibernation restore faults in
	# trans_pgd_create_copy(), module or none (docs/testing.md); the PL011
	# console.
	qemu=${VM_QEMU:-$("$here/emulator.sh" aarch64)}
	machine=virt,gic-version=3${machine#q35}
	# Without pointer authentication, as on Neoverse N1 (Graviton2, Ampere
	# Altra), the kernel's signing and checking of return addresses are
	# no-ops: the module's build under emulation took 201 s instead of 258
	# s.  For guests that test nothing of the gate's pac-ret: a root's
	# second stage, a build in the guest (guest-build.sh), the DKMS test
	# (PAUTH_<test>, suite.sh).
	pauth=pauth-impdef=on
	[ "${VM_PAUTH:-on}" = off ] && pauth=pauth=off
	cpu=${VM_CPU:-max,$pauth,lpa2=off}
	console=ttyAMA0
	;;
esac
cmdline="console=$console ${cmdline#console=ttyS0 }"
accel="-accel tcg,thread=${VM_TCG_THREAD:-multi} -cpu $cpu"
[ "${VM_ACCEL:-tcg}" = kvm ] && accel="-accel kvm -cpu ${VM_CPU:-host}"
rc=0
# shellcheck disable=SC2086
timeout --kill-after=10 "$limit" "$qemu" \
	-machine "$machine" $accel -smp "${VM_SMP:-2}" -m "${VM_MEM:-2G}" \
	-nodefaults -display none -serial "file:$job/serial.log" -monitor none -no-reboot \
	-kernel "${VM_KERNEL:-${VM_ROOT:-$root}/boot/vmlinuz-$kver}" -initrd "$initrd" -append "$cmdline" \
	"${share_args[@]}" ${VM_QEMU_EXTRA:-} || rc=$?
if [ ! -f "$job/out/rc" ]; then
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "run-vm: the guest did not finish within ${limit}s" >&2
	else
		echo "run-vm: the guest stopped before finishing (qemu exit $rc)" >&2
	fi
	echo "run-vm: serial console tail:" >&2
	tail -n 40 "$job/serial.log" >&2 || true
	exit 1
fi
exit 0
