# make demo, inside the guest (Debian 13's stock kernel): install through
# DKMS, swap, compare stock and clusterswap on one workload, show debugfs.
CS=/sys/kernel/clusterswap
CSD=/sys/kernel/debug/clusterswap
CG=/sys/fs/cgroup
# Each step with the guest's uptime, so the slow parts show as such.
say() {
	echo
	echo "==> [$(cut -d. -f1 /proc/uptime) s] $*"
}
die() {
	echo "demo: $*"
	exit 1
}

# One run of the workload: 4 threads write and verify 160 MiB, twice over,
# through a memory cgroup that reclaims above 96 MiB.  Prints MiB/s.
workload() {
	mkdir -p $CG/demo
	echo 144M >$CG/demo/memory.max
	echo 96M >$CG/demo/memory.high
	start=$(date +%s.%N)
	sh -c 'echo $$ >/sys/fs/cgroup/demo/cgroup.procs && exec /job/bin/verifier -t 4 -m 160 -p 2 -s '"$1" >/tmp/verifier.log ||
		{ cat /tmp/verifier.log; die "the verifier failed"; }
	end=$(date +%s.%N)
	sed 's/^/    /' /tmp/verifier.log >&2
	echo "$start $end" | awk '{printf "%.1f", 160 * 2 / ($2 - $1)}'
}

say "Booted Debian 13's stock kernel $(uname -r) in QEMU (software emulation: slow, but real)"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' /job/src/dkms.conf)
for k in /lib/modules/*; do
	[ "$k" = "/lib/modules/$(uname -r)" ] || rm -f "$k/build"
done
cp -a /job/src "/usr/src/clusterswap-$ver"
if [ -n "${CCACHE_DIR:-}" ] && [ -n "$(ls -A "$CCACHE_DIR")" ]; then
	build_note="the compiler cache of an earlier run is warm: about 2 minutes"
else
	build_note="the compiler runs emulated: about 5 minutes"
fi
say "dkms add clusterswap/$ver; dkms install ($build_note)"
dkms add "clusterswap/$ver" >/tmp/dkms.log 2>&1 || { cat /tmp/dkms.log; die "dkms add failed"; }
dkms install "clusterswap/$ver" >/tmp/dkms.log 2>&1 || { tail -n 20 /tmp/dkms.log; die "dkms install failed"; }
dkms status clusterswap

say "Swap: a 1 GiB zram device"
modprobe zram
echo 1G >/sys/block/zram0/disksize
mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 || die "swapon failed"
swapon --show
echo +memory >$CG/cgroup.subtree_control

say "modprobe clusterswap"
modprobe clusterswap || die "modprobe failed"
echo "kernel: $(cat $CS/kernel), version $(cat $CS/version), enabled $(cat $CS/enabled)"

say "The same workload, stock allocator (enabled=0)"
stock=$(workload 1)
echo "stock: $stock MiB/s"
say "The same workload, clusterswap (echo 1 > $CS/enabled)"
echo 1 >$CS/enabled
ours=$(workload 2)
echo "clusterswap: $ours MiB/s"
echo "(one run each, under emulation, the first one cold: an illustration that"
echo " both allocators swap the same data, not a speed comparison; for speed, with"
echo " rounds, spreads and intervals: make bench)"

say "cat $CSD/devices/0/summary"
cat $CSD/devices/0/summary
say "cat $CSD/stats"
cat $CSD/stats
say "cat $CSD/percpu"
cat $CSD/percpu
say "cat $CSD/check"
check=$(cat $CSD/check)
echo "$check"
[ "$check" = ok ] || die "check found inconsistencies"
echo 0 >$CS/enabled
modprobe -r clusterswap
say "Done: clusterswap installed through DKMS, swapped with, switched off and unloaded"
