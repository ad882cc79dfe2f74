#!/bin/bash
# make bench: the stock allocator against clusterswap, on the same VM and the
# same workload, in one run.  Boots Debian 13's stock 6.12 kernel in QEMU once
# per configuration below, loads the module, and runs the page verifier
# through zram in a memory cgroup, alternating enabled=0 and enabled=1, with
# BENCH_ROUNDS (default 3) runs of each.  Prints every run's raw figures, then
# per configuration the medians and the clusterswap/stock ratios:
#   wall   seconds for the whole workload (lower is better)
#   sys    the cgroup's system CPU time: the kernel work of swapping,
#          direct reclaim included, which is where si->lock is contended
#   MiB/s  pages written and verified per second of wall time
# Every run verifies every page; a bad page stops the benchmark.
#
# The guest runs on TCG (software emulation: see tests/vm/run-vm.sh), so the
# absolute figures are far below real hardware.  Only the ratios, taken in the
# same boot on the same workload, mean anything; the -smp 8 guest on a 2-core
# host also exaggerates lock contention (preempted lock holders).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
export CLUSTERSWAP_CACHE=$cache
rounds=${BENCH_ROUNDS:-3}
[ "$(id -u)" = 0 ] || { echo "make bench: run as root (debootstrap, chroot, QEMU)"; exit 1; }

# CPUs threads MiB-per-thread passes memcg-high-MiB
configs=(
	"2 4 256 3 96"
	"8 8 96 2 48"
)

"$top/tests/vm/mkroot.sh" trixie
root=$cache/roots/trixie
kver=$(ls "$root/lib/modules" | sort -V | tail -n 1)
job=$cache/jobs/bench
rm -rf "$job"
mkdir -p "$job/bin"
echo "bench: building clusterswap.ko and the verifier for $kver"
ko=$("$top/tests/vm/build.sh" trixie "$kver" | tail -n 1)
cp "$ko" "$job/clusterswap.ko"
rm -rf "$root/tmp/cs-bench"
mkdir -p "$root/tmp/cs-bench"
cp "$top/tests/guest/programs/verifier.c" "$root/tmp/cs-bench/"
chroot "$root" gcc -O2 -static -pthread -o /tmp/cs-bench/verifier /tmp/cs-bench/verifier.c
cp "$root/tmp/cs-bench/verifier" "$job/bin/"
cp "$top/tests/guest/lib.sh" "$job/"
cp "$top/tests/bench/guest.sh" "$job/run.sh"

summary=$job/summary
: >"$summary"
for c in "${configs[@]}"; do
	read -r smp threads mib passes high <<<"$c"
	cat >"$job/bench.conf" <<CONF
THREADS=$threads
MIB=$mib
PASSES=$passes
MEMCG_MIB=$high
ZRAM=2G
ROUNDS=$rounds
CONF
	echo
	echo "bench: -smp $smp, $threads threads x $mib MiB x $passes passes, memcg high ${high} MiB, $rounds rounds of each"
	VM_SMP=$smp "$top/tests/vm/run-vm.sh" trixie "$kver" "$job" 1800 ||
		{ echo "bench: the guest did not finish"; exit 1; }
	cat "$job/out/console.log"
	[ "$(cat "$job/out/rc")" = 0 ] || { echo "bench: failed in the guest"; exit 1; }
	awk -v smp=$smp -v t=$threads -v mib=$((threads * mib * passes)) '
		function median(a, n,   i, j, x) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		$1 == "run" && $2 == "stock" { sw[++ns] = $4; ss[ns] = $5 }
		$1 == "run" && $2 == "clusterswap" { cw[++nc] = $4; cx[nc] = $5; ca += $7; cl += $8 }
		END {
			w0 = median(sw, ns); s0 = median(ss, ns); w1 = median(cw, nc); s1 = median(cx, nc)
			printf "| -smp %d, %d threads | %.1f s | %.1f s | %.2f | %.1f s | %.1f s | %.2f | %.1f | %.1f | %.2f | %.1f |\n",
				smp, t, w0, w1, w1 / w0, s0, s1, s1 / s0, mib / w0, mib / w1, w0 / w1,
				ca ? cl * 1000 / ca : 0
		}' "$job/out/console.log" >>"$summary"
done

echo
echo "bench: $kver, medians of $rounds runs each, stock and clusterswap alternating in one boot"
echo "| configuration | wall stock | wall clusterswap | ratio | sys stock | sys clusterswap | ratio | MiB/s stock | MiB/s clusterswap | ratio | si->lock holds per 1000 allocations, clusterswap (by allocations and frees) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
cat "$summary"
